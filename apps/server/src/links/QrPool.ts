/**
 * Fresh link ids with their QR codes made ahead, off the event loop. Drawing a link's QR code
 * (QrPng.ts) was about a sixth of the CPU a link creation cost in this process (478 against
 * 403 µs per request with the code left out), and only the id, which nothing else decides,
 * goes into it. So a worker thread (QrWorker.ts) draws random ids and
 * their codes in batches while the event loop serves requests, and {@link QrPool} hands them
 * out one per new link.
 *
 * When the pool is empty, or the thread is missing (tests run the sources, where only
 * QrWorker.ts exists) or has failed, an id and its code are made on the spot, exactly as the
 * thread would.
 */
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { Context, Effect, Layer, Runtime } from "effect"
import { Settings } from "../Config.js"
import { linkQrDataUrl } from "./QrPng.js"
import type { Made, Want } from "./QrWorker.js"

export interface FreshLink {
  readonly id: string
  /** The QR data URL of `{base_url}/l/<id>`. */
  readonly qr: string
}

export class QrPool extends Context.Tag("@switch/server/QrPool")<
  QrPool,
  {
    /** A new random link id and its link's QR code; never the same id twice. */
    readonly take: () => FreshLink
    /** How many are drawn and waiting. */
    readonly ready: () => number
  }
>() {}

/** Below this many ready ids the pool asks the thread for another batch. */
const LOW = 256
const BATCH = 256

/** The thread's script beside this module, when it was built (the bundle in dist/ has it). */
export const builtWorker = (): URL | null => {
  const url = new URL("./QrWorker.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : null
}

/** A pool for links under `prefix` (`{base_url}/l/`), filled by the thread at `worker`, if any. */
export const makeQrPool = (prefix: string, worker: URL | null) =>
  Effect.gen(function* () {
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let ids: Array<string> = []
    let qrs: Array<string> = []
    let next = 0
    let asking = false
    let thread: Worker | null = null

    const stop = (why: string, error?: unknown) => {
      if (thread === null) return
      thread = null
      runFork(
        Effect.logWarning(`QR thread stopped (${why}); link QR codes are now drawn inline`, error ?? "")
      )
    }
    const ask = () => {
      if (thread === null || asking) return
      asking = true
      thread.postMessage({ prefix, count: BATCH } satisfies Want)
    }

    if (worker !== null) {
      const started = new Worker(worker)
      started.unref()
      started.on("message", (made: Made) => {
        asking = false
        if (made.prefix !== prefix || made.ids.length !== made.qrs.length) return stop("bad batch")
        ids = ids.slice(next).concat(made.ids)
        qrs = qrs.slice(next).concat(made.qrs)
        next = 0
        if (ids.length < LOW) ask()
      })
      started.on("error", (error) => stop("error", error))
      started.on("messageerror", (error) => stop("bad message", error))
      started.on("exit", (code) => stop(`exit ${code}`))
      thread = started
      ask()
      yield* Effect.addFinalizer(() =>
        Effect.promise(() => {
          thread = null
          return started.terminate()
        })
      )
    }

    const take = (): FreshLink => {
      const id = ids[next]
      const qr = qrs[next]
      if (id !== undefined && qr !== undefined) {
        ids[next] = ""
        qrs[next] = ""
        next += 1
        if (ids.length - next < LOW) ask()
        return { id, qr }
      }
      ask()
      const fresh = randomUUID()
      return { id: fresh, qr: linkQrDataUrl(prefix, fresh) }
    }
    return { take, ready: () => ids.length - next }
  })

export const QrPoolLive = Layer.scoped(
  QrPool,
  Effect.flatMap(Settings, (settings) => makeQrPool(`${settings.baseUrl}/l/`, builtWorker()))
)
