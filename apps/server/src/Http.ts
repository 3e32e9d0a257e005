/** The HTTP application: the public API, its docs, internal and admin routes, and the server. */
import { createServer } from "node:http"
import { HttpApiBuilder, HttpApiScalar, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SwitchApi } from "@switch/api"
import { Effect, Layer, Schedule } from "effect"
import { AdminRoutesLive } from "./admin/AdminRoutes.js"
import { Settings } from "./Config.js"
import { AuthenticationLive } from "./http/Auth.js"
import { InternalRoutesLive } from "./http/Internal.js"
import { KeyCacheLive } from "./http/KeyCache.js"
import { withBoundary } from "./http/Middleware.js"
import { LinksApiLive } from "./links/LinksApi.js"
import { LinksService, LinksServiceLive } from "./links/LinksService.js"
import { LotesApiLive } from "./lotes/LotesApi.js"
import { LotesServiceLive } from "./lotes/LotesService.js"
import { ConfigApiLive, LlavesApiLive, RegistroApiLive } from "./merchants/MerchantsApi.js"
import { MerchantsServiceLive } from "./merchants/MerchantsService.js"
import { RateLimiter, RateLimiterLive } from "./platform/RateLimiter.js"
import { RecibosApiLive, TransaccionesApiLive } from "./recibos/RecibosApi.js"

const GroupsLive = Layer.mergeAll(
  LinksApiLive,
  LotesApiLive,
  RecibosApiLive,
  TransaccionesApiLive,
  RegistroApiLive,
  LlavesApiLive,
  ConfigApiLive
)

export const ApiLive = HttpApiBuilder.api(SwitchApi).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(AuthenticationLive)
)

export const ServicesLive = Layer.mergeAll(LinksServiceLive, LotesServiceLive, MerchantsServiceLive).pipe(
  Layer.provideMerge(RateLimiterLive)
)

/** Housekeeping every process runs: expiring links, dropping closed rate windows. Safe to race. */
export const HousekeepingLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const links = yield* LinksService
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    const round = Effect.all([links.expireDue, limiter.sweep]).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("housekeeping failed", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(round, Schedule.spaced(`${settings.housekeepingSeconds} seconds`)))
  })
)

/** The whole HTTP side, listening on `port` (0 picks a free one) on `host`. */
export const HttpLive = (options: { readonly port: number; readonly host?: string }) =>
  HttpApiBuilder.serve(withBoundary).pipe(
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(InternalRoutesLive),
    Layer.provide(AdminRoutesLive),
    Layer.provide(ApiLive),
    HttpServer.withLogAddress,
    Layer.provideMerge(HousekeepingLive),
    Layer.provideMerge(KeyCacheLive),
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "0.0.0.0" })
    )
  )
