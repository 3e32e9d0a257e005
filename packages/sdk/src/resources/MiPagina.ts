import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type { MiPagina, MiPaginaParams } from "../Types.js"

/**
 * The merchant's own payment page (`{base_url}/p/<codigo>`): its settings, read by any role of
 * a portal session and changed by a `propietario`'s.
 */
export class MiPaginaAjustes {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The page's settings, its address and its QR's address. */
  async get(options: RequestOptions = {}): Promise<MiPagina> {
    const answer = await send<MiPagina>(
      this.#config,
      { method: "GET", path: "/switch/v1/mi-pagina", idempotent: true },
      options
    )
    return answer.body
  }

  /** Turns the page on or off and sets its amounts; its links are made in the session's mode. */
  async guardar(params: MiPaginaParams, options: RequestOptions = {}): Promise<MiPagina> {
    const answer = await send<MiPagina>(
      this.#config,
      { method: "PUT", path: "/switch/v1/mi-pagina", body: params, idempotent: true },
      options
    )
    return answer.body
  }
}
