import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type { Resumen as ResumenView } from "../Types.js"

/** `GET /resumen`: the merchant's home figures in the key's (or session's) mode. */
export class Resumen {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** Today's and the week's collections, open links, the latest payments and settlements by state. */
  async get(options: RequestOptions = {}): Promise<ResumenView> {
    return (
      await send<ResumenView>(
        this.#config,
        { method: "GET", path: "/switch/v1/resumen", idempotent: true },
        options
      )
    ).body
  }
}
