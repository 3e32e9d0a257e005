import { type RequestOptions, type SessionState, send, type TransportConfig } from "../internal/Transport.js"
import type { IniciarSesionParams, Mode, SesionCerrada, SesionInfo } from "../Types.js"

/**
 * The portal session of a browser client (`Switch.sesion()`): sign in, see the session, switch
 * its mode, sign out. The client keeps the CSRF token each answer brings and sends it on every
 * unsafe request; the session's cookie is HttpOnly and never reaches this code.
 */
export class Sesion {
  readonly #config: TransportConfig
  readonly #state: SessionState
  constructor(config: TransportConfig, state: SessionState) {
    this.#config = config
    this.#state = state
  }

  #keep(info: SesionInfo): SesionInfo {
    this.#state.csrf = info.csrf_token
    this.#state.mode = info.mode
    return info
  }

  /** Signs in with e-mail and password: a new session (the cookie is set by the browser). */
  async iniciar(params: IniciarSesionParams, options: RequestOptions = {}): Promise<SesionInfo> {
    const answer = await send<SesionInfo>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion", body: params, idempotent: false, auth: false },
      options
    )
    return this.#keep(answer.body)
  }

  /** The current session (user, role, merchant, mode, `aprobado`); `AuthenticationError` when there is none. */
  async actual(options: RequestOptions = {}): Promise<SesionInfo> {
    const answer = await send<SesionInfo>(
      this.#config,
      { method: "GET", path: "/switch/v1/sesion", idempotent: true },
      options
    )
    return this.#keep(answer.body)
  }

  /** Switches the session to `test` or `live` (live only once the merchant is approved). */
  async cambiarModo(mode: Mode, options: RequestOptions = {}): Promise<SesionInfo> {
    const answer = await send<SesionInfo>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/modo", body: { mode }, idempotent: true },
      options
    )
    return this.#keep(answer.body)
  }

  /** Signs out of this session. */
  async cerrar(options: RequestOptions = {}): Promise<SesionCerrada> {
    const answer = await send<SesionCerrada>(
      this.#config,
      { method: "DELETE", path: "/switch/v1/sesion", idempotent: true },
      options
    )
    this.#state.csrf = undefined
    return answer.body
  }

  /** Signs out of every session of the user. */
  async cerrarTodas(options: RequestOptions = {}): Promise<SesionCerrada> {
    const answer = await send<SesionCerrada>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/cerrar-todas", idempotent: true },
      options
    )
    this.#state.csrf = undefined
    return answer.body
  }
}
