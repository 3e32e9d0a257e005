import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { coalesce } from "./Coalesce.js"

const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * A fake statement runner: `many` fails when its batch holds a bad item (a negative number),
 * as one bad row fails a whole statement; `one` fails only for the bad item itself.
 */
const runner = (options: { max: number; inFlight: number }) => {
  const log = { batches: [] as Array<ReadonlyArray<number>>, ones: [] as Array<number>, peak: 0 }
  let running = 0
  const track = async <A>(work: () => A): Promise<A> => {
    running++
    log.peak = Math.max(log.peak, running)
    await turn()
    running--
    return work()
  }
  const call = coalesce<number, string>({
    ...options,
    one: (item) =>
      track(() => {
        log.ones.push(item)
        if (item < 0) throw new Error(`bad ${item}`)
        return `row ${item}`
      }),
    many: (items) =>
      track(() => {
        log.batches.push(items)
        if (items.some((item) => item < 0)) throw new Error("statement failed")
        return items.map((item) => `row ${item}`)
      })
  })
  return { call, log }
}

describe("coalesce", () => {
  it("every call gets its own answer; a failed batch fails only its bad items", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: -3, max: 1000 }), { maxLength: 40 }), {
          minLength: 1,
          maxLength: 5
        }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (waves, max, inFlight) => {
          const { call, log } = runner({ max, inFlight })
          const settled: Array<Promise<PromiseSettledResult<string>>> = []
          for (const wave of waves) {
            // Each wave arrives in one turn of the event loop, while earlier ones may be under way.
            for (const item of wave) settled.push(Promise.allSettled([call(item)]).then(([r]) => r!))
            await turn()
          }
          const results = await Promise.all(settled)
          const items = waves.flat()
          results.forEach((result, i) => {
            const item = items[i]!
            if (item < 0) expect(result).toMatchObject({ status: "rejected" })
            else expect(result).toEqual({ status: "fulfilled", value: `row ${item}` })
          })
          // A failed statement's calls run again each by itself, all at once (the pool bounds them).
          if (items.every((item) => item >= 0)) expect(log.peak).toBeLessThanOrEqual(inFlight)
          for (const batch of log.batches) {
            expect(batch.length).toBeGreaterThan(1)
            expect(batch.length).toBeLessThanOrEqual(max)
          }
          // An item took effect at most once: by a batch that succeeded, or by itself.
          const done = [
            ...log.batches.filter((b) => b.every((item) => item >= 0)).flat(),
            ...log.ones.filter((item) => item >= 0)
          ]
          expect(done.sort((a, b) => a - b)).toEqual(items.filter((item) => item >= 0).sort((a, b) => a - b))
        }
      )
    ))

  it("sends the calls of one turn as one batch, and a lone call by itself", async () => {
    const { call, log } = runner({ max: 100, inFlight: 2 })
    expect(await Promise.all([1, 2, 3].map(call))).toEqual(["row 1", "row 2", "row 3"])
    expect(await call(4)).toBe("row 4")
    expect(log.batches).toEqual([[1, 2, 3]])
    expect(log.ones).toEqual([4])
  })

  it("holds calls while its statements are under way and sends them together after", async () => {
    const { call, log } = runner({ max: 100, inFlight: 1 })
    const first = call(1)
    await turn() // 1 is now under way by itself
    const rest = [2, 3, 4].map(call)
    await Promise.all([first, ...rest])
    expect(log.ones).toEqual([1])
    expect(log.batches).toEqual([[2, 3, 4]])
  })
})
