/**
 * `switch logs tail`: the merchant's request log (`GET /switch/v1/logs`) followed as it grows.
 *
 * The route answers newest first and pages only backwards (`starting_after=<id>` gives the
 * entries older than that one), so there is no "newer than" cursor to ask for. Each poll
 * therefore reads from the top down to a bound and keeps what it has not seen: the bound is
 * {@link WINDOW_MS} before the newest entry seen, because an entry is dated when its request
 * started and written up to a second after it was answered (http/RequestLog.ts buffers), so it
 * can land below entries already shown. Every entry within that window is remembered, shown or
 * not (those before the start, those a filter hides), so none is shown twice and none from
 * before the start is shown as new. An entry that lands later than the window is not shown.
 */

/** One entry of the request log, as `GET /switch/v1/logs` gives it. */
export interface LogEntry {
  readonly id: string
  readonly created_at: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly duration_ms: number
  readonly request_id: string
}

/** One page of the log, newest first: the newest entries, or those after (older than) `startingAfter`. */
export type LogPage = (startingAfter: string | undefined) => Promise<ReadonlyArray<LogEntry>>

/** How far below the newest entry seen a new entry may still land and be shown. */
export const WINDOW_MS = 120_000
/** The route's largest page. */
export const PAGE_SIZE = 200
/** At most this many pages per read: 10,000 entries, more than a poll ever needs. */
const MAX_PAGES = 50

const timeOf = (entry: LogEntry): number => {
  const ms = Date.parse(entry.created_at)
  return Number.isNaN(ms) ? 0 : ms
}

/** The log newest first across pages, until `more` says stop or the pages run out. */
const walk = async (page: LogPage, visit: (entry: LogEntry) => boolean): Promise<void> => {
  let after: string | undefined
  for (let n = 0; n < MAX_PAGES; n++) {
    const entries = await page(after)
    for (const entry of entries) if (!visit(entry)) return
    if (entries.length < PAGE_SIZE) return
    after = entries[entries.length - 1]?.id
  }
}

/** Which entries to show: `--status` (`404`, `4xx`), `--method`, `--path` (the path or one under it). */
export interface LogFilter {
  readonly status?: ReadonlyArray<string> | undefined
  readonly method?: ReadonlyArray<string> | undefined
  readonly path?: string | undefined
}

export const matches =
  (filter: LogFilter) =>
  (entry: LogEntry): boolean => {
    if (filter.status !== undefined && filter.status.length > 0) {
      const code = String(entry.status)
      const hit = filter.status.some((wanted) => {
        const w = wanted.toLowerCase()
        return /^[1-5]xx$/.test(w) ? code[0] === w[0] : code === w
      })
      if (!hit) return false
    }
    if (filter.method !== undefined && filter.method.length > 0) {
      if (!filter.method.some((m) => m.toUpperCase() === entry.method.toUpperCase())) return false
    }
    if (filter.path !== undefined && filter.path !== "") {
      const base = filter.path.replace(/\/+$/, "")
      if (entry.path !== base && !entry.path.startsWith(`${base}/`)) return false
    }
    return true
  }

/** The tail's memory: the entries seen within the window of the newest, and that newest time. */
export class LogTail {
  readonly #page: LogPage
  readonly #show: (entry: LogEntry) => boolean
  readonly #seen = new Map<string, number>()
  #newest = Number.NEGATIVE_INFINITY

  constructor(page: LogPage, filter: LogFilter = {}) {
    this.#page = page
    this.#show = matches(filter)
  }

  #remember(entry: LogEntry) {
    const at = timeOf(entry)
    this.#seen.set(entry.id, at)
    if (at > this.#newest) this.#newest = at
  }

  #forget() {
    const bound = this.#newest - WINDOW_MS
    for (const [id, at] of this.#seen) if (at < bound) this.#seen.delete(id)
  }

  /**
   * The `limit` newest entries that pass the filter, oldest first; every entry within the window
   * of the newest is remembered, so that the first poll shows only what came after.
   */
  async start(limit: number): Promise<ReadonlyArray<LogEntry>> {
    const shown: Array<LogEntry> = []
    let top: number | undefined
    await walk(this.#page, (entry) => {
      top ??= timeOf(entry)
      const within = timeOf(entry) >= top - WINDOW_MS
      if (within) this.#remember(entry)
      if (shown.length < limit && this.#show(entry)) shown.push(entry)
      return within || shown.length < limit
    })
    this.#forget()
    return shown.reverse()
  }

  /** The entries that arrived since the last call and pass the filter, oldest first. */
  async poll(): Promise<ReadonlyArray<LogEntry>> {
    const fresh: Array<LogEntry> = []
    const bound = this.#newest - WINDOW_MS
    await walk(this.#page, (entry) => {
      if (timeOf(entry) < bound) return false
      if (!this.#seen.has(entry.id)) fresh.push(entry)
      return true
    })
    for (const entry of fresh) this.#remember(entry)
    this.#forget()
    return fresh.reverse().filter(this.#show)
  }
}

/** Waits `ms`, or less when `signal` aborts; its listener goes with it either way. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((done) => {
    if (signal.aborted) return done()
    const onAbort = () => {
      clearTimeout(timer)
      done()
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort)
      done()
    }, ms)
    signal.addEventListener("abort", onAbort, { once: true })
  })
