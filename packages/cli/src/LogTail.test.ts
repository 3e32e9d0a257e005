import { describe, expect, it } from "vitest"
import { type LogEntry, LogTail, matches, PAGE_SIZE, sleep, WINDOW_MS } from "./LogTail.js"

/** A request log as the server keeps it: newest first by time, paged backwards by `starting_after`. */
const fakeLog = () => {
  const entries: Array<LogEntry> = []
  let n = 0
  const add = (at: number, fields: Partial<LogEntry> = {}) => {
    n++
    entries.push({
      id: `e${n}`,
      created_at: new Date(at).toISOString(),
      method: "GET",
      path: `/switch/v1/links/${n}`,
      status: 200,
      duration_ms: 1,
      request_id: `r${n}`,
      ...fields
    })
    return `e${n}`
  }
  const sorted = () =>
    [...entries].sort(
      (a, b) =>
        Date.parse(b.created_at) - Date.parse(a.created_at) || Number(b.id.slice(1)) - Number(a.id.slice(1))
    )
  const page = async (after: string | undefined) => {
    const all = sorted()
    const from = after === undefined ? 0 : all.findIndex((e) => e.id === after) + 1
    return all.slice(from, from + PAGE_SIZE)
  }
  return { add, page }
}

const ids = (entries: ReadonlyArray<LogEntry>) => entries.map((e) => e.id)

describe("logs tail", () => {
  it("shows the newest entries at start, then only what is new, oldest first, never the history", async () => {
    const log = fakeLog()
    const t0 = Date.parse("2026-03-02T15:00:00Z")
    for (let i = 0; i < 450; i++) log.add(t0 + i * 10)
    const tail = new LogTail(log.page)
    expect(ids(await tail.start(3))).toEqual(["e448", "e449", "e450"])
    expect(await tail.poll()).toEqual([])
    const a = log.add(t0 + 10_000)
    const b = log.add(t0 + 10_001)
    expect(ids(await tail.poll())).toEqual([a, b])
    expect(await tail.poll()).toEqual([])
  })

  it("shows an entry dated before those already shown (a slow request), once", async () => {
    const log = fakeLog()
    const t0 = Date.parse("2026-03-02T15:00:00Z")
    log.add(t0)
    const tail = new LogTail(log.page)
    await tail.start(20)
    const fast = log.add(t0 + 5_000)
    expect(ids(await tail.poll())).toEqual([fast])
    const slow = log.add(t0 + 1_000)
    expect(ids(await tail.poll())).toEqual([slow])
    expect(await tail.poll()).toEqual([])
  })

  it("reads every page of a burst larger than a page", async () => {
    const log = fakeLog()
    const t0 = Date.parse("2026-03-02T15:00:00Z")
    log.add(t0)
    const tail = new LogTail(log.page)
    await tail.start(1)
    const burst = Array.from({ length: 3 * PAGE_SIZE + 7 }, (_, i) => log.add(t0 + 1 + i))
    expect(ids(await tail.poll())).toEqual(burst)
  })

  it("starting with an empty log, shows everything that comes", async () => {
    const log = fakeLog()
    const tail = new LogTail(log.page)
    expect(await tail.start(20)).toEqual([])
    const a = log.add(Date.parse("2026-03-02T15:00:00Z"))
    expect(ids(await tail.poll())).toEqual([a])
  })

  it("filters what it shows, at start and after, and still does not replay what it hid", async () => {
    const log = fakeLog()
    const t0 = Date.parse("2026-03-02T15:00:00Z")
    for (let i = 0; i < 300; i++) log.add(t0 + i, { status: i % 50 === 0 ? 404 : 200 })
    const tail = new LogTail(log.page, { status: ["4xx"] })
    expect((await tail.start(3)).map((e) => e.status)).toEqual([404, 404, 404])
    log.add(t0 + WINDOW_MS, { status: 200 })
    const missing = log.add(t0 + WINDOW_MS + 1, { status: 404 })
    expect(ids(await tail.poll())).toEqual([missing])
  })

  it("matches status codes and classes, methods and a path with what is under it", () => {
    const entry = (fields: Partial<LogEntry>): LogEntry => ({
      id: "x",
      created_at: "2026-03-02T15:00:00Z",
      method: "POST",
      path: "/switch/v1/links/abc/cancelar",
      status: 409,
      duration_ms: 1,
      request_id: "r",
      ...fields
    })
    expect(matches({ status: ["409"] })(entry({}))).toBe(true)
    expect(matches({ status: ["4XX"] })(entry({}))).toBe(true)
    expect(matches({ status: ["2xx", "500"] })(entry({}))).toBe(false)
    expect(matches({ method: ["get", "post"] })(entry({}))).toBe(true)
    expect(matches({ method: ["GET"] })(entry({}))).toBe(false)
    expect(matches({ path: "/switch/v1/links" })(entry({}))).toBe(true)
    expect(matches({ path: "/switch/v1/links/" })(entry({ path: "/switch/v1/links" }))).toBe(true)
    expect(matches({ path: "/switch/v1/link" })(entry({}))).toBe(false)
  })

  it("sleeps without leaving a listener on the signal", async () => {
    const controller = new AbortController()
    const warnings: Array<string> = []
    const onWarning = (warning: Error) => warnings.push(warning.name)
    process.on("warning", onWarning)
    try {
      for (let i = 0; i < 15; i++) await sleep(1, controller.signal)
      await new Promise((r) => setTimeout(r, 10))
      expect(warnings).not.toContain("MaxListenersExceededWarning")
    } finally {
      process.off("warning", onWarning)
    }
  })
})
