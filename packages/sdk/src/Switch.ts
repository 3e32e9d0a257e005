/** The Promise facade: `new Switch({ key, baseUrl })` with one property per API resource. */
import { type FetchLike, type RequestOptions, send, type TransportConfig } from "./internal/Transport.js"
import type { RetryConfig } from "./Retry.js"
import { Clientes, Config, Llaves, Recibos, Transacciones } from "./resources/Account.js"
import { Cobros, Operaciones, Pagos } from "./resources/Direct.js"
import { Eventos } from "./resources/Eventos.js"
import { Links } from "./resources/Links.js"
import { Lotes } from "./resources/Lotes.js"
import { Webhooks } from "./resources/Webhooks.js"
import type { Mode, RegistroParams, RegistroResult } from "./Types.js"
import { generateTestHeader, signatureHeaders, verify } from "./Webhooks.js"

/** The SDK's version, as published. */
export const VERSION = "0.1.0"
/** `npm start`'s address; set `baseUrl` for any other server. */
export const DEFAULT_BASE_URL = "http://localhost:8080"

/** Client settings. Only `key` is required. */
export interface SwitchConfig {
  /** `x-switch-key`: `<comercio>:sk_test_...` or `<comercio>:sk_live_...`. */
  readonly key: string
  /** The service's base address, without `/switch/v1` (default `http://localhost:8080`). */
  readonly baseUrl?: string
  /** Retries after network errors, 429, 503 and 5xx (default 2). */
  readonly maxRetries?: number
  /** Timeout of each attempt, in ms (default 30000). */
  readonly timeout?: number
  /** Backoff settings (initial delay, ceiling, longest `Retry-After` honoured). */
  readonly retry?: RetryConfig
  /** A `fetch` to use instead of `globalThis.fetch` (proxies, tests, instrumentation). */
  readonly fetch?: FetchLike
}

/** Options of the public, keyless calls (`Switch.registrar`). */
export interface PublicCallOptions extends RequestOptions {
  readonly baseUrl?: string
  readonly fetch?: FetchLike
}

const KEY_FORMAT = /^[^:\s]+:sk_(test|live)_\S+$/

const transportFor = (config: {
  readonly key?: string | undefined
  readonly baseUrl?: string | undefined
  readonly maxRetries?: number | undefined
  readonly timeout?: number | undefined
  readonly retry?: RetryConfig | undefined
  readonly fetch?: FetchLike | undefined
}): TransportConfig => ({
  key: config.key,
  baseUrl: config.baseUrl ?? DEFAULT_BASE_URL,
  maxRetries: config.maxRetries ?? 2,
  timeout: config.timeout ?? 30_000,
  retry: config.retry ?? {},
  fetch: config.fetch
})

/** The Switch client. */
export class Switch {
  /** Webhook notice verification, usable without a client (no key needed). */
  static readonly webhooks = { verify, generateTestHeader, signatureHeaders } as const

  /**
   * Public self-signup (`POST /comercios/registrar`, no key). Resolves with the new merchant
   * and its test key, shown once; `key` is the ready-made `x-switch-key` value.
   */
  static async registrar(
    params: RegistroParams,
    options: PublicCallOptions = {}
  ): Promise<RegistroResult & { readonly key: string }> {
    const answer = await send<RegistroResult>(
      transportFor({ baseUrl: options.baseUrl, fetch: options.fetch, maxRetries: options.maxRetries }),
      // Not repeated after an ambiguous failure: a second signup is `409 comercio_duplicado`.
      {
        method: "POST",
        path: "/switch/v1/comercios/registrar",
        body: params,
        idempotent: false,
        auth: false
      },
      options
    )
    return { ...answer.body, key: `${answer.body.codigo}:${answer.body.api_key}` }
  }

  /** `test` or `live`, from the key's prefix. */
  readonly mode: Mode
  readonly links: Links
  readonly lotes: Lotes
  readonly cobros: Cobros
  readonly pagos: Pagos
  readonly operaciones: Operaciones
  readonly transacciones: Transacciones
  readonly webhooks: Webhooks
  readonly eventos: Eventos
  readonly recibos: Recibos
  readonly config: Config
  readonly clientes: Clientes
  readonly llaves: Llaves

  constructor(config: SwitchConfig) {
    if (typeof config?.key !== "string" || !KEY_FORMAT.test(config.key)) {
      throw new TypeError("Switch: `key` must be `<comercio>:sk_test_...` or `<comercio>:sk_live_...`")
    }
    // The key lives only inside the resources' private fields, out of reach of logs and inspection.
    const transport = transportFor(config)
    this.mode = config.key.includes(":sk_live_") ? "live" : "test"
    this.links = new Links(transport)
    this.lotes = new Lotes(transport)
    this.cobros = new Cobros(transport)
    this.pagos = new Pagos(transport)
    this.operaciones = new Operaciones(transport)
    this.transacciones = new Transacciones(transport)
    this.webhooks = new Webhooks(transport)
    this.eventos = new Eventos(transport)
    this.recibos = new Recibos(transport)
    this.config = new Config(transport)
    this.clientes = new Clientes(transport)
    this.llaves = new Llaves(transport)
  }
}
