import { ConnectionError, errorFromResponse } from "../Errors.js"
import { readSse } from "../internal/sse.js"
import { type RequestOptions, send, type TransportConfig, urlFor } from "../internal/Transport.js"
import { ListPromise } from "../Pagination.js"
import type { PageParams } from "../Types.js"
import type { SwitchEvent } from "../Webhooks.js"

/** The merchant's notices (DESIGN §5, for development): a list and a live stream. */
export class Eventos {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Notices, newest first, iterable across pages. */
  list(params: PageParams = {}, options: RequestOptions = {}): ListPromise<SwitchEvent> {
    return new ListPromise<SwitchEvent>(
      async (offset, limit) =>
        (
          await send<ReadonlyArray<SwitchEvent>>(
            this.#config,
            { method: "GET", path: "/switch/v1/eventos", query: { limit, offset }, idempotent: true },
            options
          )
        ).body,
      params
    )
  }

  /**
   * Notices of the key's mode as they happen (server-sent events), until `signal` aborts or
   * the server closes the stream. No timeout applies once connected. With `lastEventId` (the
   * `id` of the last message seen) the stream resumes after it.
   */
  async *stream(
    options: Pick<RequestOptions, "signal"> & { readonly lastEventId?: string } = {}
  ): AsyncGenerator<SwitchEvent> {
    const config = this.#config
    const headers: Record<string, string> = { accept: "text/event-stream" }
    if (config.key !== undefined) headers["x-switch-key"] = config.key
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId
    const doFetch = config.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init))
    let response: Response
    try {
      response = await doFetch(urlFor(config.baseUrl, "/switch/v1/eventos/stream"), {
        method: "GET",
        headers,
        ...(options.signal === undefined ? {} : { signal: options.signal })
      })
    } catch (cause) {
      if (options.signal?.aborted) return
      throw new ConnectionError({
        code: "connection_error",
        message: "Could not open the event stream",
        cause
      })
    }
    if (!response.ok || response.body === null) {
      const text = await response.text()
      const record: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        record[name] = value
      })
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {}
      throw errorFromResponse(response.status, body, record)
    }
    try {
      for await (const message of readSse(response.body)) {
        try {
          yield JSON.parse(message.data) as SwitchEvent
        } catch {
          // A keep-alive or non-JSON message is not an event.
        }
      }
    } catch (error) {
      if (options.signal?.aborted) return
      throw error
    }
  }
}
