/** The Promise facade: `new Switch({ key, baseUrl })` with one property per API resource. */
import {
  type FetchLike,
  type RequestOptions,
  type SessionState,
  send,
  type TransportConfig
} from "./internal/Transport.js"
import type { RetryConfig } from "./Retry.js"
import { AccionesMasivas } from "./resources/AccionesMasivas.js"
import { Clientes, Config, Llaves, Recibos, Transacciones } from "./resources/Account.js"
import { CuentasAprobadasLista } from "./resources/CuentasAprobadas.js"
import { Cobros, Operaciones, Pagos } from "./resources/Direct.js"
import { ActividadLog, Contrasena, Equipo, Totp } from "./resources/Equipo.js"
import { Eventos } from "./resources/Eventos.js"
import { Links } from "./resources/Links.js"
import { Liquidaciones } from "./resources/Liquidaciones.js"
import { Lotes } from "./resources/Lotes.js"
import { MiPaginaAjustes } from "./resources/MiPagina.js"
import { Resumen } from "./resources/Resumen.js"
import { Sesion } from "./resources/Sesion.js"
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

/**
 * A browser client of the merchant portal: no key; the session's HttpOnly cookie goes with each
 * request (`credentials`) and the CSRF token of `sesion.iniciar()` / `sesion.actual()` in
 * `x-csrf-token`. The mode is the session's.
 */
export interface SwitchSessionConfig {
  readonly session: true
  /** The service's base address; default `""`, the page's own origin. */
  readonly baseUrl?: string
  /** `same-origin` (default) when the page and the service share an origin, else `include`. */
  readonly credentials?: "include" | "same-origin"
  readonly maxRetries?: number
  readonly timeout?: number
  readonly retry?: RetryConfig
  readonly fetch?: FetchLike
}

/**
 * A client holding an OAuth access token of an MCP sign-in (issue 34) instead of a key: sent as
 * `Authorization: Bearer`. The service accepts it only on the routes its scopes open (links,
 * a transaction's query, settlements), for its one merchant and mode.
 */
export interface SwitchTokenConfig {
  readonly accessToken: string
  /** The grant's mode, as the token's introspection says (default `test`). */
  readonly mode?: Mode
  readonly baseUrl?: string
  readonly maxRetries?: number
  readonly timeout?: number
  readonly retry?: RetryConfig
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
  readonly accessToken?: string | undefined
  readonly session?: SessionState | undefined
  readonly baseUrl?: string | undefined
  readonly maxRetries?: number | undefined
  readonly timeout?: number | undefined
  readonly retry?: RetryConfig | undefined
  readonly fetch?: FetchLike | undefined
}): TransportConfig => ({
  key: config.key,
  accessToken: config.accessToken,
  session: config.session,
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

  /**
   * A client for a browser's portal session (no key): sign in with `sesion.iniciar()`, then use
   * every resource as with a key, in the session's mode and within the user's role.
   */
  static sesion(config: Omit<SwitchSessionConfig, "session"> = {}): Switch {
    return new Switch({ ...config, session: true })
  }

  readonly #mode: () => Mode
  /** `test` or `live`: the key's prefix, or the session's mode as last seen. */
  get mode(): Mode {
    return this.#mode()
  }
  /** The portal session's routes (a key client gets `AuthenticationError` from them). */
  readonly sesion: Sesion
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
  readonly liquidaciones: Liquidaciones
  readonly resumen: Resumen
  readonly llaves: Llaves
  /** The merchant's team (a `propietario`'s portal session). */
  readonly equipo: Equipo
  /** One-time password links: "olvidé mi contraseña" and setting a password (public). */
  readonly contrasena: Contrasena
  /** The signed-in user's second factor (portal session). */
  readonly totp: Totp
  /** The users' audit log (a `propietario`'s portal session). */
  readonly actividad: ActividadLog
  /** The merchant's own payment page's settings (portal session; only a `propietario` changes them). */
  readonly miPagina: MiPaginaAjustes
  /** Bulk actions on links chosen by filter (a `propietario`'s portal session). */
  readonly accionesMasivas: AccionesMasivas
  /** Split accounts approved in the portal (portal session; only a `propietario` changes them). */
  readonly cuentasAprobadas: CuentasAprobadasLista

  constructor(config: SwitchConfig | SwitchSessionConfig | SwitchTokenConfig) {
    let transport: TransportConfig
    if ("accessToken" in config && typeof config.accessToken === "string" && config.accessToken !== "") {
      transport = transportFor({ ...config, key: undefined })
      const mode: Mode = config.mode ?? "test"
      this.#mode = () => mode
      this.sesion = new Sesion(transport, { csrf: undefined, mode, credentials: "same-origin" })
    } else if ("session" in config && config.session === true) {
      const state: SessionState = {
        csrf: undefined,
        mode: "test",
        credentials: config.credentials ?? "same-origin"
      }
      transport = transportFor({ ...config, baseUrl: config.baseUrl ?? "", session: state })
      this.#mode = () => state.mode
      this.sesion = new Sesion(transport, state)
    } else {
      const key = (config as SwitchConfig | undefined)?.key
      if (typeof key !== "string" || !KEY_FORMAT.test(key)) {
        throw new TypeError("Switch: `key` must be `<comercio>:sk_test_...` or `<comercio>:sk_live_...`")
      }
      // The key lives only inside the resources' private fields, out of reach of logs and inspection.
      transport = transportFor(config as SwitchConfig)
      const mode: Mode = key.includes(":sk_live_") ? "live" : "test"
      this.#mode = () => mode
      this.sesion = new Sesion(transport, { csrf: undefined, mode, credentials: "same-origin" })
    }
    this.links = new Links(transport)
    this.cuentasAprobadas = new CuentasAprobadasLista(transport)
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
    this.liquidaciones = new Liquidaciones(transport)
    this.resumen = new Resumen(transport)
    this.llaves = new Llaves(transport)
    this.equipo = new Equipo(transport)
    this.contrasena = new Contrasena(transport)
    this.totp = new Totp(transport)
    this.actividad = new ActividadLog(transport)
    this.miPagina = new MiPaginaAjustes(transport)
    this.accionesMasivas = new AccionesMasivas(transport)
  }
}
