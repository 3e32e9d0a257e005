import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type { AccionMasiva, AccionMasivaParams } from "../Types.js"

/**
 * Bulk actions on up to 5,000 links chosen by the filters of `GET /links` (a `propietario`'s
 * portal session): a durable job cancels the open ones or exports them as CSV.
 */
export class AccionesMasivas {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Makes the action; it runs as a job: follow it with {@link get}. */
  async crear(params: AccionMasivaParams, options: RequestOptions = {}): Promise<AccionMasiva> {
    const answer = await send<AccionMasiva>(
      this.#config,
      { method: "POST", path: "/switch/v1/acciones-masivas", body: params, idempotent: false },
      options
    )
    return answer.body
  }

  /** An action's progress and, once `terminada`, its summary (and its CSV's `archivo`). */
  async get(id: string, options: RequestOptions = {}): Promise<AccionMasiva> {
    const answer = await send<AccionMasiva>(
      this.#config,
      { method: "GET", path: `/switch/v1/acciones-masivas/${encodeURIComponent(id)}`, idempotent: true },
      options
    )
    return answer.body
  }
}
