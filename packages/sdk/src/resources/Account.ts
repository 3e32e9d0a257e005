/** Smaller resources: receipts, transactions, configuration, customers and keys. */
import { NotFoundError } from "../Errors.js"
import { type RequestOptions, send, type TransportConfig, urlFor } from "../internal/Transport.js"
import { ListPromise } from "../Pagination.js"
import type {
  Cliente,
  ClienteListParams,
  ConfigView,
  Llave,
  LlaveCreada,
  LlaveCreateParams,
  LlaveRollParams,
  LlaveRotada,
  PropinasConfig,
  PropinasParams,
  ResumenDiarioConfig,
  ResumenDiarioParams,
  Transaccion,
  TransaccionesTotal,
  TransaccionFiltros,
  TransaccionListParams,
  Verificacion,
  VerificacionNoEncontrada
} from "../Types.js"

/** Public receipt verification. */
export class Recibos {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /**
   * Whether a receipt code (`SW-XXXXX-XXXXX`) is authentic. An unknown code is an answer, not
   * an error: it resolves with `valido: false`. No key is sent (the route is public).
   */
  async verificar(
    codigo: string,
    options: RequestOptions = {}
  ): Promise<Verificacion | VerificacionNoEncontrada> {
    try {
      return (
        await send<Verificacion>(
          this.#config,
          {
            method: "GET",
            path: `/switch/v1/verificar/${encodeURIComponent(codigo)}`,
            idempotent: true,
            auth: false
          },
          options
        )
      ).body
    } catch (error) {
      const raw = error instanceof NotFoundError ? (error.raw as { valido?: unknown } | null) : null
      if (raw !== null && raw.valido === false) return raw as VerificacionNoEncontrada
      throw error
    }
  }
}

/** `GET /transacciones`. */
export class Transacciones {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The merchant's transactions in the key's mode, newest first, filtered, iterable across pages. */
  list(params: TransaccionListParams = {}, options: RequestOptions = {}): ListPromise<Transaccion> {
    const { limit: _limit, offset: _offset, ...filters } = params
    return new ListPromise<Transaccion>(
      async (offset, limit, after) =>
        (
          await send<ReadonlyArray<Transaccion>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/transacciones",
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

  /** How many transactions match `filters` (the list's; paging aside). */
  async total(filters: TransaccionFiltros = {}, options: RequestOptions = {}): Promise<TransaccionesTotal> {
    return (
      await send<TransaccionesTotal>(
        this.#config,
        { method: "GET", path: "/switch/v1/transacciones/total", query: { ...filters }, idempotent: true },
        options
      )
    ).body
  }

  /**
   * The address of `GET /transacciones/exportar` (CSV of every matching transaction, streamed):
   * in the portal's session mode a link to it downloads the file as it comes; with a key, fetch
   * it sending `x-switch-key` and read its body as a stream.
   */
  exportarUrl(filters: TransaccionFiltros = {}): string {
    return urlFor(this.#config.baseUrl, "/switch/v1/transacciones/exportar", filters)
  }
}

/** `GET /config`: the read-only configuration view. */
export class Config {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  async get(options: RequestOptions = {}): Promise<ConfigView> {
    return (
      await send<ConfigView>(
        this.#config,
        { method: "GET", path: "/switch/v1/config", idempotent: true },
        options
      )
    ).body
  }

  /** Tips on the payment page: whether offered and their cap (a portal session only). */
  async propinas(options: RequestOptions = {}): Promise<PropinasConfig> {
    return (
      await send<PropinasConfig>(
        this.#config,
        { method: "GET", path: "/switch/v1/propinas", idempotent: true },
        options
      )
    ).body
  }

  /** Turns tips on with a cap in % (at most 100; never over Bs 100,000), or off (a `propietario`'s session). */
  async setPropinas(params: PropinasParams, options: RequestOptions = {}): Promise<PropinasConfig> {
    return (
      await send<PropinasConfig>(
        this.#config,
        { method: "PUT", path: "/switch/v1/propinas", body: params, idempotent: true },
        options
      )
    ).body
  }

  /** Whether the owners get the daily summary mail (a `propietario`'s session). */
  async resumenDiario(options: RequestOptions = {}): Promise<ResumenDiarioConfig> {
    return (
      await send<ResumenDiarioConfig>(
        this.#config,
        { method: "GET", path: "/switch/v1/resumen-diario", idempotent: true },
        options
      )
    ).body
  }

  /** Turns the daily summary mail on or off (a `propietario`'s session). */
  async setResumenDiario(
    params: ResumenDiarioParams,
    options: RequestOptions = {}
  ): Promise<ResumenDiarioConfig> {
    return (
      await send<ResumenDiarioConfig>(
        this.#config,
        { method: "PUT", path: "/switch/v1/resumen-diario", body: params, idempotent: true },
        options
      )
    ).body
  }
}

/** `GET /clientes`: payers who became the merchant's customers. */
export class Clientes {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Customers in the key's mode, newest first, iterable across pages. */
  list(params: ClienteListParams = {}, options: RequestOptions = {}): ListPromise<Cliente> {
    return new ListPromise<Cliente>(
      async (offset, limit, after) =>
        (
          await send<ReadonlyArray<Cliente>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/clientes",
              query: { limit, offset, starting_after: after },
              idempotent: true
            },
            options
          )
        ).body,
      { ...params, cursor: true }
    )
  }
}

/** API keys: list, create (the key is shown once), revoke. */
export class Llaves {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  async list(options: RequestOptions = {}): Promise<ReadonlyArray<Llave>> {
    return (
      await send<ReadonlyArray<Llave>>(
        this.#config,
        { method: "GET", path: "/switch/v1/llaves", idempotent: true },
        options
      )
    ).body
  }

  async create(params: LlaveCreateParams, options: RequestOptions = {}): Promise<LlaveCreada> {
    return (
      await send<LlaveCreada>(
        this.#config,
        { method: "POST", path: "/switch/v1/llaves", body: params, idempotent: false },
        options
      )
    ).body
  }

  async revoke(
    id: string,
    options: RequestOptions = {}
  ): Promise<{ readonly id: string; readonly revocada: true }> {
    return (
      await send<{ readonly id: string; readonly revocada: true }>(
        this.#config,
        { method: "POST", path: `/switch/v1/llaves/${encodeURIComponent(id)}/revocar`, idempotent: false },
        options
      )
    ).body
  }

  /**
   * Rolls a key: a new key of the same label and mode (`api_key`, shown once); the old one keeps
   * working `solapamiento_horas` (0 to 168, up to 7 days) and then answers `401`.
   */
  async roll(id: string, params: LlaveRollParams, options: RequestOptions = {}): Promise<LlaveRotada> {
    return (
      await send<LlaveRotada>(
        this.#config,
        {
          method: "POST",
          path: `/switch/v1/llaves/${encodeURIComponent(id)}/rotar`,
          body: params,
          idempotent: false
        },
        options
      )
    ).body
  }
}
