import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import { ListPromise } from "../Pagination.js"
import type { Liquidacion, LiquidacionesTotal, LiquidacionFiltros, LiquidacionListParams } from "../Types.js"

/** The merchant's settlements (`GET /liquidaciones`): each paid link's net credited, with its state. */
export class Liquidaciones {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Settlements in the key's (or session's) mode, newest first (or by `orden`), filtered, iterable across pages. */
  list(params: LiquidacionListParams = {}, options: RequestOptions = {}): ListPromise<Liquidacion> {
    const { limit: _limit, offset: _offset, ...filters } = params
    return new ListPromise<Liquidacion>(
      async (offset, limit, after) =>
        (
          await send<ReadonlyArray<Liquidacion>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/liquidaciones",
              query: { ...filters, limit, offset, starting_after: after },
              idempotent: true
            },
            options
          )
        ).body,
      // Another order than newest first pages by offset: the cursor follows only that one.
      { ...params, cursor: params.orden === undefined || params.orden === "reciente" }
    )
  }

  /** How many settlements match `filters` (the list's; paging aside), simulated ones included. */
  async total(filters: LiquidacionFiltros = {}, options: RequestOptions = {}): Promise<LiquidacionesTotal> {
    return (
      await send<LiquidacionesTotal>(
        this.#config,
        { method: "GET", path: "/switch/v1/liquidaciones/total", query: { ...filters }, idempotent: true },
        options
      )
    ).body
  }
}
