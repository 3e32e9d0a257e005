/**
 * `switch listen`: reads `/switch/v1/eventos/stream` (server-sent events) and forwards each
 * notice to a local URL signed like a real webhook. Unlike a stream that silently stops, it
 * watches the connection (the server sends a comment every 15 s; silence for longer than
 * `idleTimeoutMs` counts as a dead connection), reconnects by itself with backoff, says so on
 * stderr, and resumes with `Last-Event-ID` after the last notice it finished handling, so a
 * restart of either side loses none and repeats none.
 */
import { errorFromResponse, Switch, SwitchError } from "@switch/sdk"

/** A notice as the stream carries it: the exact webhook envelope text and its parsed form. */
export interface Notice {
  /** The SSE id (the server's sequence number), used to resume. */
  readonly seq: string | undefined
  readonly raw: string
  readonly event: {
    readonly id: string
    readonly evento: string
    readonly creado_en: string
    readonly data: unknown
  }
}

/** The outcome of forwarding one notice. */
export interface Forwarded {
  readonly status: number | null
  readonly ms: number
  readonly attempts: number
  readonly error: string | null
}

export interface ListenConfig {
  readonly baseUrl: string
  readonly key: string
  readonly secret: string
  readonly forwardTo?: string | undefined
  /** Only these `evento` names (all when undefined or when it holds `*`). */
  readonly events?: ReadonlySet<string> | undefined
  readonly signal: AbortSignal
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>
  readonly userAgent?: string
  /** Resume after this SSE id (or `evt_` id) on the first connection. */
  readonly startAfter?: string | undefined
  /** Silence (no data, no heartbeat) that counts as a dead connection; default 45 s. */
  readonly idleTimeoutMs?: number
  /** Longest wait between reconnection attempts; default 10 s. */
  readonly maxBackoffMs?: number
  readonly onReady: (info: {
    readonly resumedAfter: string | undefined
    readonly reconnected: boolean
  }) => void
  readonly onDisconnect: (info: {
    readonly reason: string
    readonly retryInMs: number
    readonly attempt: number
  }) => void
  readonly onNotice: (notice: Notice) => void
  readonly onForwarded: (notice: Notice, result: Forwarded) => void
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    if (signal.aborted) return done()
    const timer = setTimeout(finish, ms)
    function finish() {
      clearTimeout(timer)
      signal.removeEventListener("abort", finish)
      done()
    }
    signal.addEventListener("abort", finish, { once: true })
  })

/** Errors after which reconnecting cannot help: a bad key, a missing route. */
const isFatal = (status: number) => status === 401 || status === 403 || status === 404 || status === 400

class StreamClosed extends Error {}

/**
 * One SSE message at a time from a byte stream (WHATWG rules: `\n`, `\r\n` or `\r` line ends;
 * comments start with `:`). `onActivity` fires on every chunk, heartbeats included.
 */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  onActivity: () => void
): AsyncGenerator<{ readonly id: string | undefined; readonly event: string; readonly data: string }> {
  const decoder = new TextDecoder()
  let buffer = ""
  let data: Array<string> = []
  let event = ""
  let id: string | undefined
  let announced: string | undefined
  const reader = body.getReader()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      onActivity()
      buffer += decoder.decode(value, { stream: true })
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer)
        // A lone `\r` at the end may be the first half of `\r\n`: wait for more.
        if (match === null || (match[0] === "\r" && match.index === buffer.length - 1)) break
        const line = buffer.slice(0, match.index)
        buffer = buffer.slice(match.index + match[0].length)
        if (line === "") {
          if (data.length > 0) yield { id, event: event || "message", data: data.join("\n") }
          // A block with an id and no data moves the last event id on (WHATWG), and only that.
          else if (id !== undefined && id !== announced) yield { id, event: "", data: "" }
          announced = id
          data = []
          event = ""
          continue
        }
        if (line.startsWith(":")) continue
        const colon = line.indexOf(":")
        const field = colon === -1 ? line : line.slice(0, colon)
        let value = colon === -1 ? "" : line.slice(colon + 1)
        if (value.startsWith(" ")) value = value.slice(1)
        if (field === "data") data.push(value)
        else if (field === "event") event = value
        else if (field === "id" && !value.includes("\0")) id = value
      }
    }
  } finally {
    reader.releaseLock()
    await body.cancel().catch(() => undefined)
  }
}

/** Posts one notice to `url` signed with `secret`; retries connection failures and 5xx twice. */
export const forward = async (
  url: string,
  notice: Notice,
  secret: string,
  doFetch: (input: string, init: RequestInit) => Promise<Response>,
  signal: AbortSignal,
  userAgent = "switch-cli"
): Promise<Forwarded> => {
  const started = Date.now()
  let last: Forwarded = { status: null, ms: 0, attempts: 0, error: null }
  for (let attempt = 1; attempt <= 3; attempt++) {
    const headers = {
      ...(await Switch.webhooks.signatureHeaders({ payload: notice.raw, secret })),
      // Stable across retries, like the service's: receivers dedupe on it.
      "x-service-delivery": `listen_${notice.event.id}`,
      "user-agent": userAgent
    }
    try {
      const response = await doFetch(url, {
        method: "POST",
        headers,
        body: notice.raw,
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)])
      })
      await response.arrayBuffer().catch(() => undefined)
      last = { status: response.status, ms: Date.now() - started, attempts: attempt, error: null }
      if (response.status < 500) return last
    } catch (error) {
      if (signal.aborted) return { ...last, error: "interrumpido" }
      const cause = (error as { cause?: { code?: string } }).cause?.code
      last = {
        status: null,
        ms: Date.now() - started,
        attempts: attempt,
        error: cause ?? (error instanceof Error ? error.message : String(error))
      }
    }
    if (attempt < 3) await sleep(attempt * 1000, signal)
  }
  return last
}

/** Runs until `signal` aborts; rejects only on an error reconnecting cannot fix (bad key, no route). */
export const listen = async (config: ListenConfig): Promise<void> => {
  const doFetch = config.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init))
  const idleTimeoutMs = config.idleTimeoutMs ?? 45_000
  const maxBackoffMs = config.maxBackoffMs ?? 10_000
  const url = `${config.baseUrl.replace(/\/+$/, "")}/switch/v1/eventos/stream`
  let lastId = config.startAfter
  const seen = new Set<string>()
  let failures = 0
  let connections = 0
  while (!config.signal.aborted) {
    const connection = new AbortController()
    const abort = () => connection.abort()
    config.signal.addEventListener("abort", abort, { once: true })
    let idle: ReturnType<typeof setTimeout> | undefined
    const arm = () => {
      clearTimeout(idle)
      idle = setTimeout(() => connection.abort(new StreamClosed("sin señal")), idleTimeoutMs)
    }
    let reason = "el servidor cerró la conexión"
    try {
      arm()
      const response = await doFetch(url, {
        method: "GET",
        headers: {
          accept: "text/event-stream",
          "x-switch-key": config.key,
          "user-agent": config.userAgent ?? "switch-cli",
          ...(lastId === undefined ? {} : { "last-event-id": lastId })
        },
        signal: connection.signal
      })
      if (!response.ok || response.body === null) {
        const text = await response.text().catch(() => "")
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {}
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          headers[name] = value
        })
        const error = errorFromResponse(response.status, body, headers)
        if (isFatal(response.status)) throw error
        reason = `${error.code} (HTTP ${response.status})`
      } else {
        config.onReady({ resumedAfter: lastId, reconnected: connections > 0 })
        connections++
        failures = 0
        for await (const message of sseMessages(response.body, arm)) {
          // The opening block names where this connection starts: resume from there if it drops.
          if (message.data === "" && message.event === "") {
            if (message.id !== undefined) lastId = message.id
            continue
          }
          let notice: Notice
          try {
            notice = {
              seq: message.id,
              raw: message.data,
              event: JSON.parse(message.data) as Notice["event"]
            }
          } catch {
            continue
          }
          // Handling may take a while (a slow receiver): that is not silence from the server.
          clearTimeout(idle)
          if (!seen.has(notice.event.id)) {
            seen.add(notice.event.id)
            if (seen.size > 5000) seen.delete(seen.values().next().value as string)
            const wanted =
              config.events === undefined || config.events.has("*") || config.events.has(notice.event.evento)
            if (wanted) {
              config.onNotice(notice)
              if (config.forwardTo !== undefined) {
                const result = await forward(
                  config.forwardTo,
                  notice,
                  config.secret,
                  doFetch,
                  config.signal,
                  config.userAgent
                )
                config.onForwarded(notice, result)
              }
            }
          }
          // Advanced only once handled: a drop mid-forward resumes at this notice, not after it.
          lastId = notice.seq ?? notice.event.id
          arm()
        }
      }
    } catch (error) {
      if (config.signal.aborted) break
      if (error instanceof SwitchError) throw error
      const cause = (error as { cause?: { code?: string } }).cause?.code
      reason =
        connection.signal.reason instanceof StreamClosed
          ? `sin señal del servidor en ${Math.round(idleTimeoutMs / 1000)} s`
          : (cause ?? (error instanceof Error ? error.message : String(error)))
    } finally {
      clearTimeout(idle)
      config.signal.removeEventListener("abort", abort)
    }
    if (config.signal.aborted) break
    failures++
    const retryInMs = Math.min(maxBackoffMs, 250 * 2 ** Math.min(failures - 1, 10))
    config.onDisconnect({ reason, retryInMs, attempt: failures })
    await sleep(retryInMs, config.signal)
  }
}
