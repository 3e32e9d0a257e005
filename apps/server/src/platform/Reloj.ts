/**
 * The server's Effect Clock moved away from the machine's, for tests of time-bound rules (the
 * card form's 6 minutes, the processor's nightly close) without waiting.
 *
 * - {@link movedClock}: the clock reads `millis()` (the in-process test harness moves or stops it).
 * - {@link relojDesdeArchivo}: SWITCH_RELOJ_ARCHIVO, a development switch, for the built server a
 *   browser test starts: the clock runs as many milliseconds ahead as the file says, read at start
 *   and whenever the file changes (polled every 50 ms). Production refuses the setting
 *   (Config.checkEnvironment).
 *
 * Sleeping still takes real time: the server's waits and schedules are not skipped.
 */
import { readFileSync, unwatchFile, watchFile } from "node:fs"
import { Clock, Effect, Layer } from "effect"

export const movedClock = (millis: () => number): Layer.Layer<never> => {
  const real = Clock.make()
  const nanos = () => BigInt(millis()) * 1_000_000n
  return Layer.setClock({
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    unsafeCurrentTimeNanos: nanos,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanos: Effect.sync(nanos),
    sleep: (duration) => real.sleep(duration)
  })
}

/** The offset in the file: an integer of milliseconds; 0 when the file is missing or holds none. */
const offsetIn = (path: string): number => {
  try {
    const value = Number(readFileSync(path, "utf8").trim())
    return Number.isSafeInteger(value) ? value : 0
  } catch {
    return 0
  }
}

export const relojDesdeArchivo = (path: string): Layer.Layer<never> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      let offset = offsetIn(path)
      const listener = () => {
        offset = offsetIn(path)
      }
      watchFile(path, { interval: 50, persistent: false }, listener)
      yield* Effect.addFinalizer(() => Effect.sync(() => unwatchFile(path, listener)))
      return movedClock(() => Date.now() + offset)
    })
  )
