import { ConnectionError, errorFromResponse } from "../Errors.js"
import { readSse } from "../internal/sse.js"
import { type RequestOptions, send, type TransportConfig, urlFor } from "../internal/Transport.js"
import { ListPromise } from "../Pagination.js"
import type { EventoListParams, WebhookDelivery } from "../Types.js"
import type { SwitchEvent } from "../Webhooks.js"

const FIRST_WAIT_MS = 1_000
const MAX_WAIT_MS = 30_000

/** A change for the portal's open screens: which event, about which link and transaction. */
export interface Cambio {
  readonly evento: string
  readonly link_id: string | null
  readonly txn_id: string | null
}

/** A notice, or none for a keep-alive or other non-JSON message. */
const parseEvent = (data: string): SwitchEvent | undefined => {
  try {
    return JSON.parse(data) as SwitchEvent
  } catch {
    return undefined
  }
}

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((done) => {
    const onAbort = () => {
      clearTimeout(timer)
      done()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      done()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })

/** The merchant's notices (DESIGN §5, for development): a list and a live stream. */
export class Eventos {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /**
   * Notices, newest first, iterable across pages; only those of type `evento` when given, and
   * only those after the notice `starting_after` (older than it) when given.
   */
  list(params: EventoListParams = {}, options: RequestOptions = {}): ListPromise<SwitchEvent> {
    const { evento, starting_after, ...page } = params
    return new ListPromise<SwitchEvent>(
      // The first page starts after `starting_after` when given; the next ones after their last notice.
      async (offset, limit, after = starting_after) =>
        (
          await send<ReadonlyArray<SwitchEvent>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/eventos",
              query: { limit, offset, evento, starting_after: after },
              idempotent: true
            },
            options
          )
        ).body,
      { ...page, cursor: true }
    )
  }

  /**
   * Sends a past notice (`evt_...`, a `webhook.test` one included) again to the active webhooks
   * that receive it; resolves with those deliveries as they stand.
   */
  async reenviar(id: string, options: RequestOptions = {}): Promise<ReadonlyArray<WebhookDelivery>> {
    return (
      await send<ReadonlyArray<WebhookDelivery>>(
        this.#config,
        {
          method: "POST",
          path: `/switch/v1/eventos/${encodeURIComponent(id)}/reenviar`,
          idempotent: false
        },
        options
      )
    ).body
  }

  /**
   * Notices of the key's mode as they happen (server-sent events), until `signal` aborts. When
   * the connection drops or the server ends the stream (a restart, a deploy), it reconnects by
   * itself after a short wait (1 s, doubling up to 30 s) and resumes after the last notice seen
   * (`Last-Event-ID`), so none is lost or repeated; `reconnect: false` ends instead. An error
   * answer (a revoked key, a 4xx) ends it with that error. No timeout applies once connected.
   * With `lastEventId` (the `id` of a notice already seen) the stream starts after it.
   */
  async *stream(
    options: Pick<RequestOptions, "signal"> & {
      readonly lastEventId?: string
      readonly reconnect?: boolean
    } = {}
  ): AsyncGenerator<SwitchEvent> {
    for await (const data of this.#follow("/switch/v1/eventos/stream", options)) {
      const event = parseEvent(data)
      if (event !== undefined) yield event
    }
  }

  /**
   * What changes for the portal's open screens (portal session only, the session's mode): each
   * item names the event and its objects, to be read again through the endpoints the user's role
   * reaches. Reconnects and resumes as {@link stream} does.
   */
  async *cambios(
    options: Pick<RequestOptions, "signal"> & {
      readonly lastEventId?: string
      readonly reconnect?: boolean
    } = {}
  ): AsyncGenerator<Cambio> {
    for await (const data of this.#follow("/switch/v1/sesion/cambios", options)) {
      const cambio = parseEvent(data) as Cambio | undefined
      if (cambio !== undefined && typeof cambio.evento === "string") yield cambio
    }
  }

  /** The `data` of each message of the server-sent events at `path`, reconnecting as told. */
  async *#follow(
    path: string,
    options: Pick<RequestOptions, "signal"> & {
      readonly lastEventId?: string
      readonly reconnect?: boolean
    }
  ): AsyncGenerator<string> {
    const { signal } = options
    const reconnect = options.reconnect ?? true
    let lastEventId = options.lastEventId
    let wait = FIRST_WAIT_MS
    while (!signal?.aborted) {
      const opened = await this.#open(path, lastEventId, signal)
      if (opened === "aborted") return
      if (opened instanceof Response) {
        wait = FIRST_WAIT_MS
        try {
          for await (const message of readSse(opened.body as ReadableStream<Uint8Array>)) {
            if (message.id !== undefined) lastEventId = message.id
            yield message.data
          }
        } catch (error) {
          if (signal?.aborted) return
          if (!reconnect) throw error
        }
      } else if (!reconnect || !opened.retryable) {
        throw opened.error
      }
      if (!reconnect || signal?.aborted) return
      await pause(wait, signal)
      wait = Math.min(wait * 2, MAX_WAIT_MS)
    }
  }

  /** One connection: the open stream, or why it did not open and whether trying again may help. */
  async #open(
    path: string,
    lastEventId: string | undefined,
    signal: AbortSignal | undefined
  ): Promise<Response | "aborted" | { readonly error: Error; readonly retryable: boolean }> {
    const config = this.#config
    const headers: Record<string, string> = { accept: "text/event-stream" }
    if (config.key !== undefined) headers["x-switch-key"] = config.key
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId
    const doFetch = config.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init))
    let response: Response
    try {
      response = await doFetch(urlFor(config.baseUrl, path), {
        method: "GET",
        headers,
        ...(signal === undefined ? {} : { signal })
      })
    } catch (cause) {
      if (signal?.aborted) return "aborted"
      const error = new ConnectionError({
        code: "connection_error",
        message: "No se pudo abrir el flujo de eventos (connection_error)",
        cause
      })
      return { error, retryable: true }
    }
    if (response.ok && response.body !== null) return response
    const text = await response.text()
    const record: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      record[name] = value
    })
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    const error = errorFromResponse(response.status, body, record)
    return { error, retryable: response.status >= 500 || response.status === 429 }
  }
}
