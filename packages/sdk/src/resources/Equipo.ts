import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type {
  Actividad,
  CodigosRecuperacion,
  ContrasenaDefinida,
  CorreoVerificado,
  DefinirContrasenaParams,
  InvitarParams,
  OlvidoResult,
  Rol,
  TotpActivado,
  TotpEstado,
  TotpInscripcion,
  Usuario,
  UsuarioEliminado
} from "../Types.js"

/** The merchant's team (a `propietario`'s portal session): list, invite, change a role, remove. */
export class Equipo {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The merchant's users, oldest first. */
  async list(options: RequestOptions = {}): Promise<ReadonlyArray<Usuario>> {
    const answer = await send<ReadonlyArray<Usuario>>(
      this.#config,
      { method: "GET", path: "/switch/v1/equipo", idempotent: true },
      options
    )
    return answer.body
  }

  /** Invites a user by e-mail with a role; the mail carries a one-time link to set the password. */
  async invitar(params: InvitarParams, options: RequestOptions = {}): Promise<Usuario> {
    const answer = await send<Usuario>(
      this.#config,
      { method: "POST", path: "/switch/v1/equipo", body: params, idempotent: false },
      options
    )
    return answer.body
  }

  /** Changes a user's role (the last active owner stays one: `ultimo_propietario`). */
  async cambiarRol(id: string, rol: Rol, options: RequestOptions = {}): Promise<Usuario> {
    const answer = await send<Usuario>(
      this.#config,
      {
        method: "PATCH",
        path: `/switch/v1/equipo/${encodeURIComponent(id)}`,
        body: { rol },
        idempotent: true
      },
      options
    )
    return answer.body
  }

  /** Removes a user; its sessions end at once. */
  async eliminar(id: string, options: RequestOptions = {}): Promise<UsuarioEliminado> {
    const answer = await send<UsuarioEliminado>(
      this.#config,
      { method: "DELETE", path: `/switch/v1/equipo/${encodeURIComponent(id)}`, idempotent: true },
      options
    )
    return answer.body
  }
}

/** The one-time password links' public ends: ask for one, and set the password with one. */
export class Contrasena {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** "Olvidé mi contraseña": the same answer whether or not the e-mail has a user. */
  async olvido(email: string, options: RequestOptions = {}): Promise<OlvidoResult> {
    const answer = await send<OlvidoResult>(
      this.#config,
      {
        method: "POST",
        path: "/switch/v1/contrasena/olvido",
        body: { email },
        idempotent: false,
        auth: false
      },
      options
    )
    return answer.body
  }

  /** Sets the password with the link's token (once; `enlace_invalido` when used or expired). */
  async definir(params: DefinirContrasenaParams, options: RequestOptions = {}): Promise<ContrasenaDefinida> {
    const answer = await send<ContrasenaDefinida>(
      this.#config,
      { method: "POST", path: "/switch/v1/contrasena", body: params, idempotent: false, auth: false },
      options
    )
    return answer.body
  }

  /** Confirms the e-mail with the link mailed at sign-up (once; `enlace_invalido` when used or expired). */
  async verificarCorreo(token: string, options: RequestOptions = {}): Promise<CorreoVerificado> {
    const answer = await send<CorreoVerificado>(
      this.#config,
      {
        method: "POST",
        path: "/switch/v1/correo/verificar",
        body: { token },
        idempotent: false,
        auth: false
      },
      options
    )
    return answer.body
  }
}

/** The signed-in user's own second factor (TOTP): enrol, confirm, new recovery codes, remove. */
export class Totp {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** A new secret, shown once, with its `otpauth://` URI; active once {@link confirmar} takes a code. */
  async inscribir(options: RequestOptions = {}): Promise<TotpInscripcion> {
    const answer = await send<TotpInscripcion>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/totp", idempotent: false },
      options
    )
    return answer.body
  }

  /**
   * Confirms the new secret with a code of the app (`codigo_invalido` when wrong or used); answers
   * the ten recovery codes, shown once.
   */
  async confirmar(codigo: string, options: RequestOptions = {}): Promise<TotpActivado> {
    const answer = await send<TotpActivado>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/totp/confirmar", body: { codigo }, idempotent: false },
      options
    )
    return answer.body
  }

  /** Ten new recovery codes, shown once, with a code of the app; the old ones stop working. */
  async recuperacion(codigo: string, options: RequestOptions = {}): Promise<CodigosRecuperacion> {
    const answer = await send<CodigosRecuperacion>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/totp/recuperacion", body: { codigo }, idempotent: false },
      options
    )
    return answer.body
  }

  /** Removes the second factor, with a code of the app. */
  async desactivar(codigo: string, options: RequestOptions = {}): Promise<TotpEstado> {
    const answer = await send<TotpEstado>(
      this.#config,
      { method: "POST", path: "/switch/v1/sesion/totp/desactivar", body: { codigo }, idempotent: false },
      options
    )
    return answer.body
  }
}

/** The users' audit log, newest first (a `propietario`'s portal session). */
export class ActividadLog {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** One page: up to `limit` (1-200, 50) entries, after the entry `starting_after` when given. */
  async list(
    params: { readonly limit?: number; readonly starting_after?: string } = {},
    options: RequestOptions = {}
  ): Promise<ReadonlyArray<Actividad>> {
    const answer = await send<ReadonlyArray<Actividad>>(
      this.#config,
      { method: "GET", path: "/switch/v1/actividad", query: params, idempotent: true },
      options
    )
    return answer.body
  }
}
