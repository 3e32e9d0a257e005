import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type { CuentaAprobadaParams, CuentasAprobadas } from "../Types.js"

/**
 * The split accounts the merchant approved in the portal (up to 20): a link's `split` names only
 * these. Every role of a portal session reads them; a `propietario`'s session adds and removes.
 */
export class CuentasAprobadasLista {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The approved accounts, each with its `id`. */
  async list(options: RequestOptions = {}): Promise<CuentasAprobadas> {
    return (
      await send<CuentasAprobadas>(
        this.#config,
        { method: "GET", path: "/switch/v1/cuentas-aprobadas", idempotent: true },
        options
      )
    ).body
  }

  /** Approves an account (checked; `409 limite_cuentas` past 20, `409 cuenta_otro_titular`). */
  async add(params: CuentaAprobadaParams, options: RequestOptions = {}): Promise<CuentasAprobadas> {
    return (
      await send<CuentasAprobadas>(
        this.#config,
        { method: "POST", path: "/switch/v1/cuentas-aprobadas", body: params, idempotent: true },
        options
      )
    ).body
  }

  /** Removes the account of `id`; links already made keep theirs, checked again before paying. */
  async remove(id: string, options: RequestOptions = {}): Promise<CuentasAprobadas> {
    return (
      await send<CuentasAprobadas>(
        this.#config,
        {
          method: "DELETE",
          path: `/switch/v1/cuentas-aprobadas/${encodeURIComponent(id)}`,
          idempotent: false
        },
        options
      )
    ).body
  }
}
