import { ConflictError } from "../Errors.js"
import { type RequestOptions, send, type TransportConfig } from "../internal/Transport.js"
import { uuid } from "../internal/uuid.js"
import { ListPromise } from "../Pagination.js"
import type {
  Link,
  LinkCancelResult,
  LinkCreateParams,
  LinkDolares,
  LinkDolaresParams,
  LinkHistorial,
  LinkListParams,
  LinkReembolsos,
  LinkSimulateParams,
  LinkSimulateResult,
  LinksTotal,
  Reembolso,
  ReembolsoParams
} from "../Types.js"

const path = (id: string, suffix = "") => `/switch/v1/links/${encodeURIComponent(id)}${suffix}`

/** Payment links: `POST/GET /links`, `GET /links/{id}`, `/cancelar`, `/simular`. */
export class Links {
  readonly #config: TransportConfig
  constructor(config: TransportConfig) {
    this.#config = config
  }

  /**
   * Creates a link. Without an idempotency key one is generated and kept across retries, so a
   * retried create never makes two links; a repeat answers the same link with `idempotent_replay`.
   */
  async create(params: LinkCreateParams, options: RequestOptions = {}): Promise<Link> {
    const body = { ...params, idempotency_key: options.idempotencyKey ?? params.idempotency_key ?? uuid() }
    const answer = await send<Link>(
      this.#config,
      { method: "POST", path: "/switch/v1/links", body, idempotent: true },
      options
    )
    return answer.body
  }

  /** Links, newest first. Await for the first page; `for await` for all of them. */
  list(params: LinkListParams = {}, options: RequestOptions = {}): ListPromise<Link> {
    const { limit, offset, ...filters } = params
    return new ListPromise<Link>(
      async (from, size, after) =>
        (
          await send<ReadonlyArray<Link>>(
            this.#config,
            {
              method: "GET",
              path: "/switch/v1/links",
              query: {
                ...filters,
                limit: size,
                offset: from,
                ...(after === undefined ? {} : { starting_after: after })
              },
              idempotent: true
            },
            options
          )
        ).body,
      {
        ...(limit === undefined ? {} : { limit }),
        ...(offset === undefined ? {} : { offset }),
        // Another order than newest first pages by offset: the cursor follows only that one.
        cursor: filters.orden === undefined || filters.orden === "reciente"
      }
    )
  }

  /** How many links match `params` (the list's filters; paging aside), e.g. for «1.234 links». */
  async total(
    params: Omit<LinkListParams, "limit" | "offset" | "starting_after"> = {},
    options: RequestOptions = {}
  ): Promise<LinksTotal> {
    return (
      await send<LinksTotal>(
        this.#config,
        { method: "GET", path: "/switch/v1/links/total", query: { ...params }, idempotent: true },
        options
      )
    ).body
  }

  /** One link, with `codigo_verificacion` once paid. */
  async get(id: string, options: RequestOptions = {}): Promise<Link> {
    return (await send<Link>(this.#config, { method: "GET", path: path(id), idempotent: true }, options)).body
  }

  /** The link's history: made, payment attempts, paid, credited, and each notice with its deliveries. */
  async historial(id: string, options: RequestOptions = {}): Promise<LinkHistorial> {
    return (
      await send<LinkHistorial>(
        this.#config,
        { method: "GET", path: path(id, "/historial"), idempotent: true },
        options
      )
    ).body
  }

  /**
   * Creates a link priced in dollars (a portal session only): converted to bolivars at the BCV
   * rate of the moment. The idempotency key is generated when absent and kept across retries.
   */
  async createEnDolares(params: LinkDolaresParams, options: RequestOptions = {}): Promise<Link> {
    const body = { ...params, idempotency_key: options.idempotencyKey ?? params.idempotency_key ?? uuid() }
    return (
      await send<Link>(
        this.#config,
        { method: "POST", path: "/switch/v1/links/dolares", body, idempotent: true },
        options
      )
    ).body
  }

  /** The dollar price of a link and the BCV rate that converted it (a portal session only). */
  async dolares(id: string, options: RequestOptions = {}): Promise<LinkDolares> {
    return (
      await send<LinkDolares>(
        this.#config,
        { method: "GET", path: path(id, "/dolares"), idempotent: true },
        options
      )
    ).body
  }

  /** The link's refunds from the portal (a portal session only): paid, refunded, what is left, each refund. */
  async reembolsos(id: string, options: RequestOptions = {}): Promise<LinkReembolsos> {
    return (
      await send<LinkReembolsos>(
        this.#config,
        { method: "GET", path: path(id, "/reembolsos"), idempotent: true },
        options
      )
    ).body
  }

  /**
   * Refunds all or part of a paid link (a `propietario`'s portal session only). Without an
   * idempotency key one is generated and kept across retries, so a retry never refunds twice.
   */
  async reembolsar(id: string, params: ReembolsoParams, options: RequestOptions = {}): Promise<Reembolso> {
    const body = { ...params, idempotency_key: options.idempotencyKey ?? params.idempotency_key ?? uuid() }
    return (
      await send<Reembolso>(
        this.#config,
        { method: "POST", path: path(id, "/reembolsos"), body, idempotent: true },
        options
      )
    ).body
  }

  /**
   * Cancels a `pendiente` link; `409 no_cancelable` (a {@link ConflictError} with `estado`)
   * otherwise. A retry that finds the link already cancelled by the lost first attempt succeeds.
   */
  async cancel(id: string, options: RequestOptions = {}): Promise<LinkCancelResult> {
    try {
      return (
        await send<LinkCancelResult>(
          this.#config,
          { method: "POST", path: path(id, "/cancelar"), idempotent: true },
          options
        )
      ).body
    } catch (error) {
      if (
        error instanceof ConflictError &&
        error.attempts > 1 &&
        error.code === "no_cancelable" &&
        error.estado === "cancelado"
      ) {
        return { id, estado: "cancelado" }
      }
      throw error
    }
  }

  /** Forces the outcome of a test link: `pagado`, `rechazado` or `expirado`. */
  async simulate(
    id: string,
    params: LinkSimulateParams | LinkSimulateParams["resultado"],
    options: RequestOptions = {}
  ): Promise<LinkSimulateResult> {
    const body = typeof params === "string" ? { resultado: params } : params
    // Not repeated after an ambiguous failure: a second simulate of a paid link is `409 no_simulable`.
    return (
      await send<LinkSimulateResult>(
        this.#config,
        { method: "POST", path: path(id, "/simular"), body, idempotent: false },
        options
      )
    ).body
  }
}
