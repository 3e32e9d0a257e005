/** The direct API for contracted partners: collect with a one-time code, pay out, query. */

import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import { uuid } from "../internal/uuid.js"
import type { CobroParams, CobroTokenParams, CobroTokenResult, PagoParams, Resultado } from "../Types.js"

const withKey = <P extends { readonly idempotency_key?: string }>(params: P, options: RequestOptions) => ({
  ...params,
  idempotency_key: options.idempotencyKey ?? params.idempotency_key ?? uuid()
})

/** `POST /cobrar/token` and `POST /cobrar`. */
export class Cobros {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /**
   * Asks the payer's bank to send the one-time code (`ACEPTADA` means it was sent). The result
   * carries the `idempotency_key` used: pass it to {@link Cobros.cobrar}.
   */
  async solicitarToken(params: CobroTokenParams, options: RequestOptions = {}): Promise<CobroTokenResult> {
    const body = withKey(params, options)
    const answer = await send<Resultado>(
      this.#config,
      { method: "POST", path: "/switch/v1/cobrar/token", body, idempotent: true },
      options
    )
    return { ...answer.body, idempotency_key: body.idempotency_key }
  }

  /**
   * Collects with the payer's code. Read `estado`: `LIQUIDADA` money entered, `ACEPTADA` not yet
   * confirmed (do not deliver yet), `RECHAZADA` see `motivo_rechazo`.
   */
  async cobrar(params: CobroParams, options: RequestOptions = {}): Promise<Resultado> {
    return (
      await send<Resultado>(
        this.#config,
        { method: "POST", path: "/switch/v1/cobrar", body: withKey(params, options), idempotent: true },
        options
      )
    ).body
  }
}

/** `POST /pagar` (payouts; needs enablement, else `403 pagar_no_habilitado`). */
export class Pagos {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Sends money; both `ACEPTADA` and `LIQUIDADA` are normal answers. */
  async pagar(params: PagoParams, options: RequestOptions = {}): Promise<Resultado> {
    return (
      await send<Resultado>(
        this.#config,
        { method: "POST", path: "/switch/v1/pagar", body: withKey(params, options), idempotent: true },
        options
      )
    ).body
  }
}

/** `POST /consultar`. */
export class Operaciones {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The current state of an operation; query before any refund when the outcome was `DESCONOCIDA`. */
  async consultar(id: string | { readonly id: string }, options: RequestOptions = {}): Promise<Resultado> {
    const body = typeof id === "string" ? { id } : { id: id.id }
    return (
      await send<Resultado>(
        this.#config,
        { method: "POST", path: "/switch/v1/consultar", body, idempotent: true },
        options
      )
    ).body
  }
}
