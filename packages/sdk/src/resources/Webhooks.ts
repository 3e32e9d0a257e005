import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import type {
  Webhook,
  WebhookCreated,
  WebhookCreateParams,
  WebhookDeleteResult,
  WebhookDelivery,
  WebhookUpdateParams
} from "../Types.js"
import { type HeaderSource, type RawBody, type SwitchEvent, type VerifyOptions, verify } from "../Webhooks.js"

const path = (id: string, suffix = "") => `/switch/v1/webhooks/${encodeURIComponent(id)}${suffix}`

/** Webhook endpoints (create, edit and delete need a live key) and notice verification. */
export class Webhooks {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /** The merchant's webhooks, newest first, without secrets. */
  async list(options: RequestOptions = {}): Promise<ReadonlyArray<Webhook>> {
    return (
      await send<ReadonlyArray<Webhook>>(
        this.#config,
        { method: "GET", path: "/switch/v1/webhooks", idempotent: true },
        options
      )
    ).body
  }

  /** Registers an `https` endpoint; the answer carries its `secret`, shown only here. */
  async create(params: WebhookCreateParams, options: RequestOptions = {}): Promise<WebhookCreated> {
    // Not repeated after an ambiguous failure: the route takes no idempotency key.
    return (
      await send<WebhookCreated>(
        this.#config,
        { method: "POST", path: "/switch/v1/webhooks", body: params, idempotent: false },
        options
      )
    ).body
  }

  async get(id: string, options: RequestOptions = {}): Promise<Webhook> {
    return (await send<Webhook>(this.#config, { method: "GET", path: path(id), idempotent: true }, options))
      .body
  }

  /** Changes `url`, `eventos` or `estado` (`activo`/`inactivo`). */
  async update(id: string, params: WebhookUpdateParams, options: RequestOptions = {}): Promise<Webhook> {
    return (
      await send<Webhook>(
        this.#config,
        { method: "PATCH", path: path(id), body: params, idempotent: true },
        options
      )
    ).body
  }

  async delete(id: string, options: RequestOptions = {}): Promise<WebhookDeleteResult> {
    return (
      await send<WebhookDeleteResult>(
        this.#config,
        { method: "DELETE", path: path(id), idempotent: false },
        options
      )
    ).body
  }

  /** The last 50 deliveries (with a test key, only those of test notices). */
  async deliveries(id: string, options: RequestOptions = {}): Promise<ReadonlyArray<WebhookDelivery>> {
    return (
      await send<ReadonlyArray<WebhookDelivery>>(
        this.#config,
        { method: "GET", path: path(id, "/deliveries"), idempotent: true },
        options
      )
    ).body
  }

  /** Sends a `webhook.test` notice now, signed like real ones; resolves with its delivery. */
  async probar(id: string, options: RequestOptions = {}): Promise<WebhookDelivery> {
    return (
      await send<WebhookDelivery>(
        this.#config,
        { method: "POST", path: path(id, "/probar"), idempotent: false },
        options
      )
    ).body
  }

  /** Same as `Switch.webhooks.verify`. */
  verify(
    rawBody: RawBody,
    headers: HeaderSource,
    secret: string,
    options?: VerifyOptions
  ): Promise<SwitchEvent> {
    return verify(rawBody, headers, secret, options)
  }
}
