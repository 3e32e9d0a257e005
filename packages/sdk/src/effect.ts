/**
 * @switch/sdk/effect: the Effect client, derived from the @switch/api contract with
 * HttpApiClient, so every endpoint, payload and typed error is the server's own.
 *
 * ```ts
 * const program = Effect.gen(function* () {
 *   const sw = yield* SwitchClient
 *   return yield* sw.links.list({ urlParams: { estado: "pagado" } })
 * })
 * program.pipe(Effect.provide(SwitchClient.layerFetch({ key, baseUrl })))
 * ```
 */
import { FetchHttpClient, type HttpApi, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { SwitchApi } from "@switch/api"
import { Context, Effect, Layer, Redacted } from "effect"

export * from "@switch/api"
/** Amounts in the payloads are `Money.Cents`; the package has no `@switch/core` of its own to import. */
export { Money } from "@switch/core"

/** Client settings. `key` may be omitted for the public routes only. */
export interface SwitchClientOptions {
  /** `x-switch-key`: `<comercio>:sk_test_...`; a `Redacted` keeps it out of logs. */
  readonly key?: string | Redacted.Redacted<string> | undefined
  /** The service's base address, without `/switch/v1` (default `http://localhost:8080`). */
  readonly baseUrl?: string | URL | undefined
  /** Further changes to the HttpClient (retries, tracing, a proxy). */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

type ApiGroups =
  typeof SwitchApi extends HttpApi.HttpApi<string, infer Groups, infer _E, infer _R> ? Groups : never
type ApiErrors = typeof SwitchApi extends HttpApi.HttpApi<string, infer _G, infer E, infer _R> ? E : never

/** The derived client: `client.links.create({ payload })`, `client.lotes.get({ path: { id } })`, ... */
export type SwitchHttpClient = HttpApiClient.Client<ApiGroups, ApiErrors, never>

/** Builds the derived client with `x-switch-key` on every request. Needs an `HttpClient`. */
export const makeSwitchClient = (
  options: SwitchClientOptions = {}
): Effect.Effect<SwitchHttpClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(SwitchApi, {
    baseUrl: options.baseUrl ?? "http://localhost:8080",
    transformClient: (client) => {
      const key = options.key
      const keyed =
        key === undefined
          ? client
          : HttpClient.mapRequest(
              client,
              HttpClientRequest.setHeader(
                "x-switch-key",
                Redacted.isRedacted(key) ? Redacted.value(key) : key
              )
            )
      return options.transformClient === undefined ? keyed : options.transformClient(keyed)
    }
  })

/** The client's service shape (an interface, so declarations stay small and nameable). */
export interface SwitchService extends SwitchHttpClient {}

/** The client as a service. */
export class SwitchClient extends Context.Tag("@switch/sdk/SwitchClient")<SwitchClient, SwitchService>() {
  /** A layer that needs an `HttpClient` (FetchHttpClient, NodeHttpClient, ...). */
  static readonly layer = (
    options: SwitchClientOptions
  ): Layer.Layer<SwitchClient, never, HttpClient.HttpClient> =>
    Layer.effect(SwitchClient, makeSwitchClient(options))
  /** A layer on the global `fetch`. */
  static readonly layerFetch = (options: SwitchClientOptions): Layer.Layer<SwitchClient> =>
    SwitchClient.layer(options).pipe(Layer.provide(FetchHttpClient.layer))
}

/** Runs {@link makeSwitchClient} on the global `fetch`. */
export const makeSwitchClientFetch = (options: SwitchClientOptions = {}): Effect.Effect<SwitchHttpClient> =>
  makeSwitchClient(options).pipe(Effect.provide(FetchHttpClient.layer))
