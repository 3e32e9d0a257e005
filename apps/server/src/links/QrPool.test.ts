import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { build } from "tsup"
import { afterAll, beforeAll } from "vitest"
import { linkQrDataUrl } from "./QrPng.js"
import { makeQrPool } from "./QrPool.js"

const prefix = "https://pagos.switch.com.ve/l/"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let dir = ""
let worker: URL
beforeAll(async () => {
  // The thread's script as the server's build makes it (tsup.config.ts), from these sources,
  // where its imports (kept outside the bundle) resolve as they do from dist/.
  const cache = join(import.meta.dirname, "../../node_modules/.cache")
  mkdirSync(cache, { recursive: true })
  dir = mkdtempSync(join(cache, "qr-worker-"))
  await build({
    entry: { QrWorker: "src/links/QrWorker.ts" },
    outDir: dir,
    format: ["esm"],
    target: "node20",
    silent: true,
    config: false
  })
  worker = pathToFileURL(join(dir, "QrWorker.js"))
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Takes `n` links, checking each id is a new random UUID and its QR code is its link's. */
const takeChecked = (take: () => { id: string; qr: string }, n: number, seen: Set<string>) => {
  for (let i = 0; i < n; i++) {
    const { id, qr } = take()
    expect(id).toMatch(UUID)
    expect(seen.has(id)).toBe(false)
    seen.add(id)
    expect(qr).toBe(linkQrDataUrl(prefix, id))
  }
}

describe("QR pool", () => {
  it.scopedLive("hands out ids the thread drew, each once, with its link's QR code", () =>
    Effect.gen(function* () {
      const pool = yield* makeQrPool(prefix, worker)
      yield* Effect.promise(async () => {
        for (let i = 0; i < 200 && pool.ready() < 256; i++) await new Promise((r) => setTimeout(r, 25))
      })
      expect(pool.ready()).toBeGreaterThanOrEqual(256)
      // Round after round, down to 100 ready (under the pool's low mark) each time: it asks the
      // thread for more, refills between rounds, and never repeats an id.
      const seen = new Set<string>()
      for (let round = 0; round < 6; round++) {
        takeChecked(pool.take, pool.ready() - 100, seen)
        const left = pool.ready()
        yield* Effect.promise(async () => {
          for (let i = 0; i < 200 && pool.ready() <= left; i++) await new Promise((r) => setTimeout(r, 10))
        })
        expect(pool.ready()).toBeGreaterThan(left)
      }
      expect(seen.size).toBeGreaterThan(1000)
    })
  )

  it.scopedLive("draws inline when there is no thread", () =>
    Effect.gen(function* () {
      const pool = yield* makeQrPool(prefix, null)
      expect(pool.ready()).toBe(0)
      takeChecked(pool.take, 20, new Set())
    })
  )

  it.scopedLive("draws inline once the thread has failed", () =>
    Effect.gen(function* () {
      const broken = join(dir, "broken.mjs")
      writeFileSync(broken, "throw new Error('no QR today')\n")
      const pool = yield* makeQrPool(prefix, pathToFileURL(broken))
      yield* Effect.sleep("300 millis")
      takeChecked(pool.take, 20, new Set())
      expect(pool.ready()).toBe(0)
    })
  )
})
