/** The HTTP application: the public API, its docs, internal and admin routes, and the server. */
import {
  FileSystem,
  HttpApiBuilder,
  HttpApiScalar,
  HttpIncomingMessage,
  HttpRouter,
  HttpServer
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { SwitchApi } from "@switch/api"
import { Effect, Layer, Option, Schedule } from "effect"
import { ActividadApiLive } from "./actividad/ActividadApi.js"
import { AdminRoutesLive } from "./admin/AdminRoutes.js"
import { AdminService, AdminServiceLive } from "./admin/AdminService.js"
import { Settings } from "./Config.js"
import { BotonLive } from "./checkout/Boton.js"
import { CheckoutRoutesLive } from "./checkout/CheckoutRoutes.js"
import { CheckoutLive, CheckoutReconcilerLive } from "./checkout/CheckoutService.js"
import { LinksEnRevisionLive } from "./checkout/EnRevision.js"
import { StatusPageLive } from "./checkout/StatusPage.js"
import { TarjetaRoutesLive } from "./checkout/TarjetaRoutes.js"
import {
  CargosTarjetaLive,
  TarjetaCierreLive,
  TarjetaExpiryLive,
  TarjetaLive
} from "./checkout/TarjetaService.js"
import { ClientesApiLive } from "./clientes/ClientesApi.js"
import { DevCorreosRoutesLive } from "./correos/DevCorreosRoutes.js"
import { ResumenDiarioApiLive } from "./correos/ResumenDiarioApi.js"
import { CuentasAprobadasApiLive } from "./cuentas/CuentasAprobadasApi.js"
import { DirectApiLive } from "./direct/DirectApi.js"
import { FlowCollectorLive } from "./direct/FlowCollectorLive.js"
import { ReconcilerLive } from "./direct/Reconcile.js"
import { ReembolsosApiLive } from "./direct/ReembolsosApi.js"
import { ContrasenaApiLive, EquipoApiLive } from "./equipo/EquipoApi.js"
import { EquipoServiceLive } from "./equipo/EquipoService.js"
import { EventosApiLive } from "./eventos/EventosApi.js"
import { EventosServiceLive } from "./eventos/EventosService.js"
import { FlowsApiLive, FlowsSetupApiLive } from "./flows/FlowsApi.js"
import { FlowsServiceLive } from "./flows/FlowsService.js"
import { HistorialApiLive } from "./historial/HistorialApi.js"
import { ApiErrorsLive } from "./http/ApiErrors.js"
import { AuthenticationLive } from "./http/Auth.js"
import { ROUTER_CONFIG } from "./http/Canonical.js"
import { behindProxies, trustList } from "./http/ClientAddress.js"
import { Lanes, makeLanes, withLanes } from "./http/Edge.js"
import { GRACE_MS, gracefulServer } from "./http/GracefulServer.js"
import { InternalRoutesLive } from "./http/Internal.js"
import { JsonBodyLive } from "./http/JsonBody.js"
import { KeyCacheLive } from "./http/KeyCache.js"
import { withBoundary } from "./http/Middleware.js"
import { RequestLog, RequestLogLive } from "./http/RequestLog.js"
import { MAX_BODY_BYTES } from "./http/Respond.js"
import * as AccionesMasivas from "./links/AccionesMasivas.js"
import { AccionesMasivasApiLive } from "./links/AccionesMasivasApi.js"
import { CreateLinkLaneLive, CreateLinkLive } from "./links/CreateLink.js"
import { DolaresApiLive } from "./links/LinkDolares.js"
import { LinkQrRoutesLive } from "./links/LinkQr.js"
import { LinksApiLive } from "./links/LinksApi.js"
import { LinksService, LinksServiceLive } from "./links/LinksService.js"
import { LiquidacionesApiLive } from "./liquidaciones/LiquidacionesApi.js"
import { LogsApiLive } from "./logs/LogsApi.js"
import { LotesApiLive } from "./lotes/LotesApi.js"
import { LotesServiceLive } from "./lotes/LotesService.js"
import { ConfigApiLive, LlavesApiLive, RegistroApiLive } from "./merchants/MerchantsApi.js"
import { MerchantsServiceLive } from "./merchants/MerchantsService.js"
import { MiPaginaApiLive } from "./mipagina/MiPaginaApi.js"
import { MiPaginaRoutesLive } from "./mipagina/MiPaginaRoutes.js"
import { OAuthRoutesLive } from "./oauth/OAuthRoutes.js"
import { pruneOAuth } from "./oauth/Prune.js"
import * as Alertas from "./operador/alertas/Alertas.js"
import { ComercioAcciones } from "./operador/Comercios.js"
import { listarCola } from "./operador/cola/Fuentes.js"
import { ConciliadorLive as LiquidacionesConciliadorLive } from "./operador/cola/Liquidaciones.js"
import { OperadorPageLive } from "./operador/OperadorPage.js"
import { OperadorRoutesLive } from "./operador/OperadorRoutes.js"
import { OperadorService, OperadorServiceLive } from "./operador/OperadorService.js"
import * as FuenteTasa from "./operador/tasa/FuenteTasa.js"
import { makeDrain, OpsRoutesLive } from "./ops/OpsRoutes.js"
import { PanelRoutesLive } from "./panel/PanelRoutes.js"
import * as AvisosDueno from "./platform/AvisosDueno.js"
import { Banks, BanksLive } from "./platform/bank/Banks.js"
import { SandboxBankLive } from "./platform/bank/SandboxBank.js"
import { CardProcessorLive } from "./platform/card/HttpCard.js"
import { Mailer, MailerLive } from "./platform/Mailer.js"
import { RateLimiter, RateLimiterLive } from "./platform/RateLimiter.js"
import * as ResumenDiario from "./platform/ResumenDiario.js"
import { pruneGrowing } from "./platform/Retention.js"
import { PropinasApiLive } from "./propinas/PropinasApi.js"
import { RecibosApiLive, TransaccionesApiLive } from "./recibos/RecibosApi.js"
import { ResumenApiLive } from "./resumen/ResumenApi.js"
import { TotpApiLive } from "./seguridad/TotpApi.js"
import { SesionApiLive, SesionPublicApiLive } from "./sesiones/SesionesApi.js"
import { SesionesService, SesionesServiceLive } from "./sesiones/SesionesService.js"
import { RepartoReconcilerLive } from "./settlement/RepartoLive.js"
import * as Settlement from "./settlement/Settlement.js"
import { JobQueueLive, type JobTask, unlockAbandoned } from "./webhooks/JobQueue.js"
import { WebhookSender, WebhookSenderLive } from "./webhooks/Sender.js"
import { signedHeaders } from "./webhooks/Signature.js"
import { WebhooksApiLive } from "./webhooks/WebhooksApi.js"
import { WebhooksService, WebhooksServiceLive } from "./webhooks/WebhooksService.js"

/** The console acts on merchants through the admin service, under the same rules. */
const ComercioAccionesLive = Layer.effect(ComercioAcciones, AdminService).pipe(
  Layer.provide(AdminServiceLive)
)

const GroupsLive = Layer.mergeAll(
  LinksApiLive,
  LotesApiLive,
  RecibosApiLive,
  TransaccionesApiLive,
  RegistroApiLive,
  LlavesApiLive,
  ConfigApiLive,
  ClientesApiLive,
  LiquidacionesApiLive,
  ResumenApiLive,
  WebhooksApiLive,
  EventosApiLive,
  DirectApiLive,
  FlowsSetupApiLive,
  FlowsApiLive,
  LogsApiLive,
  SesionPublicApiLive,
  SesionApiLive,
  HistorialApiLive,
  ContrasenaApiLive,
  EquipoApiLive,
  TotpApiLive,
  ActividadApiLive,
  MiPaginaApiLive,
  AccionesMasivasApiLive,
  ReembolsosApiLive,
  DolaresApiLive,
  PropinasApiLive,
  ResumenDiarioApiLive,
  CuentasAprobadasApiLive
)

export const ApiLive = HttpApiBuilder.api(SwitchApi).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(AuthenticationLive),
  Layer.provide(JsonBodyLive)
)

/**
 * The banks: the sandbox for test mode, the live bank for live mode. The live bank (LiveBank)
 * is the server's to be given: the HTTP bank (platform/bank/HttpBank.ts) in main.ts, a test's own in tests.
 */
const BanksLayer = BanksLive.pipe(Layer.provideMerge(SandboxBankLive))

export const ServicesLive = Layer.mergeAll(
  LinksServiceLive.pipe(Layer.provideMerge(CreateLinkLive)),
  LotesServiceLive,
  MerchantsServiceLive,
  CheckoutLive,
  CargosTarjetaLive.pipe(Layer.provideMerge(TarjetaLive.pipe(Layer.provide(CardProcessorLive)))),
  LinksEnRevisionLive,
  WebhooksServiceLive,
  EventosServiceLive,
  SesionesServiceLive,
  OperadorServiceLive,
  EquipoServiceLive,
  FlowsServiceLive.pipe(Layer.provide(FlowCollectorLive))
).pipe(
  Layer.provideMerge(WebhookSenderLive),
  Layer.provideMerge(Settlement.SettlementsLive),
  Layer.provideMerge(BanksLayer),
  Layer.provideMerge(RateLimiterLive),
  Layer.provideMerge(RequestLogLive),
  Layer.provideMerge(KeyCacheLive),
  Layer.provideMerge(MailerLive)
)

/**
 * Housekeeping every process runs: expiring links, dropping closed rate windows, deleting
 * request log entries past their 7 days, forgetting old sign-in failures and sessions, old
 * deliveries and events past their retention (platform/Retention.ts), freeing jobs of runners
 * that died. Safe to race.
 */
export const HousekeepingLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const links = yield* LinksService
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    const sql = yield* SqlClient.SqlClient
    const requestLog = yield* RequestLog
    const sesiones = yield* SesionesService
    const operadores = yield* OperadorService
    const round = Effect.all([
      links.expireDue,
      limiter.sweep,
      requestLog.prune,
      sesiones.prune,
      Effect.provideService(pruneGrowing, SqlClient.SqlClient, sql),
      operadores.prune,
      Effect.provideService(unlockAbandoned, SqlClient.SqlClient, sql),
      Effect.provideService(pruneOAuth, SqlClient.SqlClient, sql)
    ]).pipe(Effect.catchAllCause((cause) => Effect.logWarning("housekeeping failed", cause)))
    yield* Effect.forkScoped(Effect.repeat(round, Schedule.spaced(`${settings.housekeepingSeconds} seconds`)))
  })
)

/**
 * Serves the API behind the boundary, with clients' addresses seen through trusted proxies and
 * bodies read up to 10 MB (the platform's server sets its own limit only while it starts, so
 * handlers would not see it). The router matches paths as written, case and slashes exact
 * (http/Canonical.ts).
 */
const ServeLive = Layer.unwrapEffect(
  Effect.map(Settings, (settings) => {
    const behind = behindProxies(trustList(settings.proxiesConfiables))
    const limit = Option.some(FileSystem.Size(MAX_BODY_BYTES))
    return HttpApiBuilder.serve((app) =>
      withBoundary(behind(Effect.provideService(app, HttpIncomingMessage.MaxBodySize, limit)))
    )
  })
).pipe(Layer.locally(HttpRouter.currentRouterConfig, ROUTER_CONFIG))

/**
 * The reference at /docs: Scalar's bundle is inlined in the page, and its fonts would come from
 * fonts.scalar.com, so the system's fonts are used and nothing is loaded from another host.
 * It opens with the `x-switch-key` scheme selected, ready for a key.
 */
const DOCS_CONFIG = {
  withDefaultFonts: false,
  authentication: { preferredSecurityScheme: "x-switch-key" }
} as HttpApiScalar.ScalarConfig

/**
 * The console's durable jobs (issue 32): the BCV rate's source (operador/tasa/FuenteTasa.ts) and
 * the operators' alerts, checked and sent (operador/alertas/Alertas.ts); each check queues its
 * next run, and every process queues the first one at start-up (one job key: one schedule).
 */
const consolaTasks: Readonly<Record<string, JobTask>> = {
  [FuenteTasa.TASK]: () =>
    Effect.gen(function* () {
      yield* FuenteTasa.run(yield* SqlClient.SqlClient, yield* Settings)
    }),
  [Alertas.TASK_REVISAR]: () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings
      yield* Alertas.revisar(sql, settings, yield* listarCola(sql, settings))
      yield* Alertas.programar(sql, settings.alertasRevisarSegundos ?? 60, "replace")
    }),
  [Alertas.TASK_ENVIO]: (p) =>
    Effect.gen(function* () {
      const sender = yield* WebhookSender
      yield* Alertas.enviar(
        yield* SqlClient.SqlClient,
        yield* Settings,
        { send: sender.send, sign: signedHeaders },
        Number(p.id)
      )
    })
}

const ConsolaJobsStartLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const start = Effect.gen(function* () {
      yield* Alertas.programar(sql, Math.min(5, settings.alertasRevisarSegundos ?? 60), "preserve_run_at")
      if ((settings.tasaFuenteUrl ?? null) !== null) yield* FuenteTasa.programar(sql, 0, "preserve_run_at")
      // The daily summary: a run now catches up a day missed while no process ran; one already queued stays.
      yield* ResumenDiario.programar(sql, 0, "preserve_run_at")
    })
    // graphile-worker creates its schema as the runner starts: until then, try again.
    yield* Effect.forkScoped(
      start.pipe(
        Effect.sandbox,
        Effect.retry(Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(60)))),
        Effect.catchAllCause((cause) =>
          Effect.logWarning("no se pudieron programar los trabajos de la consola", cause)
        )
      )
    )
  })
)

/** The job runner, with its tasks besides the webhook deliveries: immediate settlement, bulk actions, the console's jobs. */
const JobsLive = Layer.unwrapEffect(
  Effect.map(Effect.all([Banks, WebhooksService, Mailer]), ([banks, webhooks, mailer]) => {
    // A bulk action's resend goes through the webhooks' own (links imports no other feature).
    // It runs in the part's transaction, so its deliveries commit with the part's progress.
    const reenviar: AccionesMasivas.Reenviar = (owner, eventoId) =>
      Effect.map(webhooks.reenviar({ ...owner, codigo: "", llaveId: "" }, eventoId), (sent) => sent.length)
    const tasks: Readonly<Record<string, JobTask>> = {
      [Settlement.TASK]: (p) =>
        Settlement.runSettlement({ link_id: String(p.link_id), consulta: Number(p.consulta ?? 0) }).pipe(
          Effect.provideService(Banks, banks)
        ),
      [AccionesMasivas.TASK]: AccionesMasivas.runAccion(reenviar),
      // The owners' notices (platform/AvisosDueno.ts): a mail server down fails the job, retried.
      [AvisosDueno.TASK]: (p) =>
        Effect.gen(function* () {
          yield* AvisosDueno.enviar(yield* SqlClient.SqlClient, mailer, yield* Settings, p)
        }),
      // The owners' opt-in daily summary (platform/ResumenDiario.ts): queues its own next run.
      [ResumenDiario.TASK]: () =>
        Effect.gen(function* () {
          yield* ResumenDiario.run(yield* SqlClient.SqlClient, mailer, yield* Settings)
        }),
      ...consolaTasks
    }
    return JobQueueLive(tasks)
  })
)

/** The routes outside the public API's contract: internal and admin, pages, the portal and the console. */
const PagesLive = Layer.mergeAll(
  InternalRoutesLive,
  AdminRoutesLive,
  CheckoutRoutesLive,
  TarjetaRoutesLive,
  LinkQrRoutesLive,
  StatusPageLive,
  BotonLive,
  PanelRoutesLive,
  DevCorreosRoutesLive,
  OperadorPageLive,
  OperadorRoutesLive.pipe(Layer.provide(ComercioAccionesLive)),
  OAuthRoutesLive,
  MiPaginaRoutesLive,
  ConsolaJobsStartLive
)

/**
 * The whole HTTP side, listening on `port` (0 picks a free one) on `host`, given the live bank. Link creation, the
 * hottest route, is served as a lane (http/Edge.ts, links/CreateLink.ts) in front of the HttpApi app.
 */
export const HttpLive = (options: { readonly port: number; readonly host?: string }) => {
  const lanes = makeLanes()
  const drain = makeDrain()
  const served = ServeLive.pipe(
    Layer.provide(OpsRoutesLive.pipe(Layer.provide(drain.DrainingLive))),
    Layer.provide(HttpApiScalar.layer({ path: "/docs", scalar: DOCS_CONFIG })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(ApiErrorsLive),
    Layer.provide(PagesLive),
    Layer.provide(ApiLive),
    Layer.provide(CreateLinkLaneLive.pipe(Layer.provide(Layer.succeed(Lanes, lanes)))),
    HttpServer.withLogAddress,
    Layer.provideMerge(HousekeepingLive),
    Layer.provideMerge(JobsLive),
    Layer.provideMerge(CheckoutReconcilerLive),
    Layer.provideMerge(TarjetaExpiryLive),
    Layer.provideMerge(TarjetaCierreLive),
    Layer.provideMerge(ReconcilerLive),
    Layer.provideMerge(RepartoReconcilerLive),
    Layer.provideMerge(LiquidacionesConciliadorLive),
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(
      NodeHttpServer.layer(() => withLanes(lanes, gracefulServer(GRACE_MS)()), {
        port: options.port,
        host: options.host ?? "127.0.0.1"
      })
    )
  )
  return drain.DrainOnShutdown.pipe(Layer.provideMerge(served))
}
