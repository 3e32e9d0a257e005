/**
 * One HTTP call with the client's policy: the key header, JSON in and out, a timeout per
 * attempt, the caller's AbortSignal, retries with backoff, and SPEC errors mapped to the
 * {@link SwitchError} hierarchy. Uses only `fetch`, so it runs on Node 20+ and edge runtimes.
 */
import { ConnectionError, errorFromResponse, type SwitchError, TimeoutError } from "../Errors.js"
import { type RetryConfig, retryDecision } from "../Retry.js"

/** Per-call options, always the last argument of a resource method. */
export interface RequestOptions {
  /** Idempotency key for creates; generated (UUID) when absent and kept across retries. */
  readonly idempotencyKey?: string | undefined
  /** Timeout of each attempt in ms; overrides the client's. */
  readonly timeout?: number | undefined
  /** Aborts the call, its retries and their waits. */
  readonly signal?: AbortSignal | undefined
  /** Retries for this call; overrides the client's `maxRetries`. */
  readonly maxRetries?: number | undefined
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/**
 * A browser session's state: the cookie travels by itself (`credentials`), and the CSRF token
 * the service gave at sign-in (or `sesion.actual()`) goes in `x-csrf-token` on unsafe methods.
 */
export interface SessionState {
  csrf: string | undefined
  mode: "test" | "live"
  readonly credentials: "include" | "same-origin"
}

export interface TransportConfig {
  readonly key: string | undefined
  /** Set for a portal session (no key). */
  readonly session?: SessionState | undefined
  /** An OAuth access token, sent as `Authorization: Bearer` (no key). */
  readonly accessToken?: string | undefined
  readonly baseUrl: string
  readonly maxRetries: number
  readonly timeout: number
  readonly retry: RetryConfig
  readonly fetch: FetchLike | undefined
}

export type QueryValue = string | number | boolean | Date | ReadonlyArray<string> | null | undefined

export interface RequestSpec {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"
  readonly path: string
  readonly query?: Readonly<Record<string, QueryValue>> | undefined
  readonly body?: unknown
  /** Safe to send again after an ambiguous failure (see {@link retryDecision}). */
  readonly idempotent: boolean
  /** Send `x-switch-key` (false on public routes). */
  readonly auth?: boolean
}

/** A successful answer: the parsed body and what came with it. */
export interface Answer<T> {
  readonly body: T
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly attempts: number
}

const encodeQuery = (query: Readonly<Record<string, QueryValue>> | undefined): string => {
  if (query === undefined) return ""
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    if (value instanceof Date) params.set(name, value.toISOString())
    else if (Array.isArray(value)) params.set(name, value.join(","))
    else params.set(name, String(value))
  }
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

const headersOf = (response: Response): Record<string, string> => {
  const out: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    out[name.toLowerCase()] = value
  })
  return out
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })

const parseBody = (text: string): unknown => {
  if (text === "") return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The request URL: `baseUrl` (with or without a trailing slash) plus the path and query. */
export const urlFor = (baseUrl: string, path: string, query?: Readonly<Record<string, QueryValue>>) =>
  `${baseUrl.replace(/\/+$/, "")}${path}${encodeQuery(query)}`

/**
 * One attempt. The timer covers the whole exchange, body included, so a server that sends
 * headers and then stalls still times out.
 */
const attemptOnce = async (
  config: TransportConfig,
  spec: RequestSpec,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  attempt: number
): Promise<Answer<unknown> | SwitchError> => {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const onAbort = () => controller.abort(signal?.reason)
  signal?.addEventListener("abort", onAbort, { once: true })
  const headers: Record<string, string> = { accept: "application/json" }
  if (spec.auth !== false && config.key !== undefined) headers["x-switch-key"] = config.key
  if (spec.auth !== false && config.accessToken !== undefined)
    headers.authorization = `Bearer ${config.accessToken}`
  const session = config.session
  if (session?.csrf !== undefined && spec.method !== "GET") headers["x-csrf-token"] = session.csrf
  if (spec.body !== undefined) headers["content-type"] = "application/json"
  const doFetch = config.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init))
  try {
    const response = await doFetch(urlFor(config.baseUrl, spec.path, spec.query), {
      method: spec.method,
      headers,
      signal: controller.signal,
      ...(session === undefined ? {} : { credentials: session.credentials }),
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) })
    })
    const text = await response.text()
    const responseHeaders = headersOf(response)
    const body = parseBody(text)
    if (response.ok) return { body, status: response.status, headers: responseHeaders, attempts: attempt + 1 }
    return errorFromResponse(response.status, body, responseHeaders, attempt + 1)
  } catch (cause) {
    if (signal?.aborted) throw signal.reason
    if (timedOut) {
      return new TimeoutError({
        code: "timeout",
        message: `Switch no respondió ${spec.method} ${spec.path} en ${timeoutMs} ms; pudo haberse procesado: reintente con la misma idempotency_key (timeout)`,
        attempts: attempt + 1,
        cause
      })
    }
    return new ConnectionError({
      code: "connection_error",
      message: `No se pudo conectar con Switch en ${config.baseUrl} (${spec.method} ${spec.path}): ${
        cause instanceof Error
          ? cause.cause instanceof Error
            ? cause.cause.message
            : cause.message
          : String(cause)
      }; revise la dirección y la red, y reintente (connection_error)`,
      attempts: attempt + 1,
      cause
    })
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener("abort", onAbort)
  }
}

/** Sends `spec`, retrying per the client's policy; resolves with the 2xx answer or rejects with a {@link SwitchError}. */
export const send = async <T>(
  config: TransportConfig,
  spec: RequestSpec,
  options: RequestOptions = {}
): Promise<Answer<T>> => {
  const maxRetries = options.maxRetries ?? config.maxRetries
  const timeout = options.timeout ?? config.timeout
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw options.signal.reason
    const outcome = await attemptOnce(config, spec, timeout, options.signal, attempt)
    if (!(outcome instanceof Error)) return outcome as Answer<T>
    const decision = retryDecision({
      error: outcome,
      attempt,
      maxRetries,
      idempotent: spec.idempotent,
      config: config.retry
    })
    if (!decision.retry) throw outcome
    await sleep(decision.delayMs, options.signal)
  }
}
