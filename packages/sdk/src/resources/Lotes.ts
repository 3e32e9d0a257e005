import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import { uuid } from "../internal/uuid.js"
import { ListPromise } from "../Pagination.js"
import type { Lote, LoteCancelResult, LoteCreateParams, LoteSummary, PageParams } from "../Types.js"

const path = (id: string, suffix = "") => `/switch/v1/lotes/${encodeURIComponent(id)}${suffix}`

/** Batches: up to 500 links created all-or-nothing. */
export class Lotes {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Creates a batch; the idempotency key (body `idempotency_key`) is generated when absent. */
  async create(params: LoteCreateParams, options: RequestOptions = {}): Promise<Lote> {
    const body = { ...params, idempotency_key: options.idempotencyKey ?? params.idempotency_key ?? uuid() }
    return (
      await send<Lote>(
        this.#config,
        { method: "POST", path: "/switch/v1/lotes", body, idempotent: true },
        options
      )
    ).body
  }

  /** Batches with their summary, newest first; iterable across pages. */
  list(params: PageParams = {}, options: RequestOptions = {}): ListPromise<LoteSummary> {
    return new ListPromise<LoteSummary>(
      async (offset, limit, after) =>
        (
          await send<ReadonlyArray<LoteSummary>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/lotes",
              query: { limit, offset, starting_after: after },
              idempotent: true
            },
            options
          )
        ).body,
      { ...params, cursor: true }
    )
  }

  /** One batch with its items and summary. */
  async get(id: string, options: RequestOptions = {}): Promise<Lote> {
    return (await send<Lote>(this.#config, { method: "GET", path: path(id), idempotent: true }, options)).body
  }

  /** Cancels the items still `pendiente`; safe to repeat. */
  async cancel(id: string, options: RequestOptions = {}): Promise<LoteCancelResult> {
    return (
      await send<LoteCancelResult>(
        this.#config,
        { method: "POST", path: path(id, "/cancelar"), idempotent: true },
        options
      )
    ).body
  }
}
