/**
 * What an orchestrator and a monitoring system ask of a server process, outside the API's
 * contract (no key, not in /openapi.json):
 *
 * - `GET /healthz`: `200 {estado: "vivo"}` while the process serves at all (liveness).
 * - `GET /readyz`: `200` when the database answers and the job queue's tables are reachable and
 *   the process is not draining (see {@link makeDrain}); otherwise `503` with what failed
 *   (readiness: a balancer stops sending new requests here). Each check gives up after 2 seconds.
 * - `GET /metrics`: Prometheus text (platform/Metrics.ts), with the job queue's depth and age read
 *   at scrape time. With SWITCH_METRICS_TOKEN set it asks for `Authorization: Bearer <token>`;
 *   without it the metrics are open in development and not served in production (404).
 */
import { timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import * as Metrics from "../platform/Metrics.js"

/** Whether this process is draining (shutting down): read by /readyz. */
export class Draining extends Context.Tag("@switch/server/Draining")<
  Draining,
  { readonly now: () => boolean }
>() {}

/**
 * The drain of one server: {@link Draining}, and the layer that, first thing at shutdown (it is
 * built last, so closed first), marks the process draining and waits `drenajeSegundos`
 * (SWITCH_DRENAJE_SEGUNDOS) while everything still answers, so a balancer polling /readyz stops
 * sending requests before the server closes.
 */
export const makeDrain = () => {
  let closing = false
  const DrainingLive = Layer.succeed(Draining, { now: () => closing })
  const DrainOnShutdown = Layer.scopedDiscard(
    Effect.flatMap(Settings, (settings) =>
      Effect.addFinalizer(() =>
        Effect.zipRight(
          Effect.sync(() => {
            closing = true
          }),
          Effect.sleep(Duration.seconds(settings.drenajeSegundos))
        )
      )
    )
  )
  return { DrainingLive, DrainOnShutdown }
}

const CHECK_TIMEOUT = "2 seconds"

const noStore = { "cache-control": "no-store" }

/** Whether `header` is `Bearer <token>`, compared in constant time. */
const bearerMatches = (header: string | undefined, token: string): boolean => {
  const given = Buffer.from(header ?? "")
  const expected = Buffer.from(`Bearer ${token}`)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export const OpsRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const draining = yield* Draining

    /** "ok", or what went wrong in a few words (never a connection string). */
    const check = (query: Effect.Effect<unknown, unknown>) =>
      query.pipe(
        Effect.as("ok"),
        Effect.timeoutFail({ duration: CHECK_TIMEOUT, onTimeout: () => "sin respuesta" }),
        Effect.catchAll((e) => Effect.succeed(typeof e === "string" ? e : "error"))
      )

    yield* router.get(
      "/healthz",
      Effect.succeed(HttpServerResponse.unsafeJson({ estado: "vivo" }, { headers: noStore }))
    )

    yield* router.get(
      "/readyz",
      Effect.gen(function* () {
        const [baseDeDatos, cola] = yield* Effect.all(
          [check(sql`select 1`), check(sql`select 1 from graphile_worker.jobs limit 1`)],
          { concurrency: 2 }
        )
        const drenando = draining.now()
        const listo = baseDeDatos === "ok" && cola === "ok" && !drenando
        return HttpServerResponse.unsafeJson(
          { listo, base_de_datos: baseDeDatos, cola, drenando },
          { status: listo ? 200 : 503, headers: noStore }
        )
      })
    )

    yield* router.get(
      "/metrics",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (Option.isNone(settings.metricsToken)) {
          if (settings.environment === "production")
            return HttpServerResponse.unsafeJson({ error: "not_found" }, { status: 404 })
        } else if (
          !bearerMatches(request.headers.authorization, Redacted.value(settings.metricsToken.value))
        ) {
          return HttpServerResponse.unsafeJson(
            { error: "unauthorized", detail: "Falta el token de métricas (Authorization: Bearer)." },
            { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } }
          )
        }
        const queue = yield* sql<{ waiting: number; oldest: number | null }>`
          select count(*)::int as waiting,
            extract(epoch from now() - min(run_at))::float8 as oldest
          from graphile_worker.jobs
          where locked_at is null and run_at <= now() and attempts < max_attempts`.pipe(
          Effect.timeout(CHECK_TIMEOUT),
          Effect.option
        )
        Option.map(queue, ([row]) => {
          Metrics.jobsWaiting.set(row?.waiting ?? 0)
          Metrics.jobsOldestSeconds.set(row?.oldest ?? 0)
        })
        const text = yield* Effect.promise(() => Metrics.scrape())
        return HttpServerResponse.text(text, {
          contentType: Metrics.registry.contentType,
          headers: noStore
        })
      })
    )
  })
)
