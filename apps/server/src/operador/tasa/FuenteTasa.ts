/**
 * The BCV rate from a source (SWITCH_TASA_FUENTE_URL), fetched every SWITCH_TASA_FUENTE_MINUTOS
 * by the durable job `tasa_fuente`, which queues its own next run (one job key: one schedule
 * however many processes run; a process killed mid-run leaves the job to the runner's retry).
 *
 * The source answers JSON with `ves_por_usd` (a number or its text, e.g.
 * `{"ves_por_usd": "36.5012"}`) or the bare number as text. Each rate fetched is a new row of
 * `tasas_bcv` with `fuente` `url`, so the history says where every rate came from. A source that
 * fails (no answer in 10 s, not 2xx, or no valid rate) raises the alert `tasa_fuente_falla`,
 * resolved by the next good fetch; a stale rate is the checks' own alert (alertas/Alertas.ts).
 *
 * A rate further than SWITCH_TASA_SALTO_MAX_PCT from the one in force is not recorded but proposed
 * (platform/TasaBcv.ts, issue 41): it raises the alert `tasa_salto_pendiente` and waits, unused,
 * for a `tesoreria` operator to confirm or reject it in the console. Fetching the same value again
 * keeps that one proposal; the rate in force meanwhile is the last one recorded.
 */
import { SqlClient } from "@effect/sql"
import { Money } from "@switch/core"
import { Effect, Either } from "effect"
import type { ServerSettings } from "../../Config.js"
import * as TasaBcv from "../../platform/TasaBcv.js"
import * as Alertas from "../alertas/Alertas.js"

export const TASK = "tasa_fuente"
const KEY = "tasa_fuente"
const TIMEOUT_MS = 10_000

/** The rate in a source's answer, or why there is none. */
export const parse = (contentType: string, text: string): Either.Either<Money.Rate, string> => {
  let raw: unknown = text.trim()
  if (contentType.includes("json")) {
    try {
      const body = JSON.parse(text) as unknown
      raw = typeof body === "object" && body !== null ? (body as Record<string, unknown>).ves_por_usd : body
    } catch {
      return Either.left("la respuesta no es JSON válido")
    }
  }
  if (typeof raw === "number") raw = String(raw)
  if (typeof raw !== "string" || !/^\d{1,12}(\.\d{1,8})?$/.test(raw))
    return Either.left("la respuesta no trae ves_por_usd válido")
  const rate = Money.rate(raw)
  return Either.isLeft(rate) ? Either.left("la tasa no es válida") : Either.right(rate.right)
}

/** Fetches the source once; the rate recorded, or the alert raised. */
export const fetchOnce = (sql: SqlClient.SqlClient, settings: ServerSettings) =>
  Effect.gen(function* () {
    const url = settings.tasaFuenteUrl ?? null
    if (url === null) return Either.left("SWITCH_TASA_FUENTE_URL no está configurada")
    const got = yield* Effect.tryPromise(async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" })
      const text = await response.text()
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      return { contentType: response.headers.get("content-type") ?? "", text: text.slice(0, 10_000) }
    }).pipe(
      Effect.mapError((e) => (e.error instanceof Error ? e.error.message : "sin respuesta")),
      Effect.either
    )
    const rate = Either.flatMap(got, (r) => parse(r.contentType, r.text))
    if (Either.isLeft(rate)) {
      yield* Alertas.levantar(sql, settings, {
        clave: "tasa:fuente",
        tipo: "tasa_fuente_falla",
        detalle: { motivo: rate.left }
      })
      yield* Effect.logWarning(`la fuente de la tasa BCV falló: ${rate.left}`)
      return Either.left(rate.left)
    }
    const done = yield* TasaBcv.proponer(
      rate.right,
      { fuente: "url", operadorId: null, actor: "fuente" },
      settings.tasaSaltoMaxPct ?? TasaBcv.SALTO_MAX_PCT
    ).pipe(Effect.provideService(SqlClient.SqlClient, sql))
    if (done._tag === "Pendiente") {
      yield* Alertas.alertarSalto(sql, settings, done.propuesta)
      yield* Effect.logWarning(
        `la fuente trae una tasa BCV ${done.propuesta.salto_pct} % lejos de la vigente: queda por confirmar`
      )
    }
    yield* Alertas.resolver(sql, "tasa:fuente")
    return Either.right({ rate: rate.right, resultado: done })
  })

/** Queues the next fetch (`replace`: from a run; `preserve_run_at`: at start-up, keeping one already due). */
export const programar = (sql: SqlClient.SqlClient, segundos: number, mode: "replace" | "preserve_run_at") =>
  sql`
    select 1 from graphile_worker.add_job(${TASK}, '{}'::json,
      run_at := now() + make_interval(secs => ${segundos}::float8), job_key := ${KEY},
      job_key_mode := ${mode}, max_attempts := 3)`.pipe(Effect.asVoid, Effect.orDie)

/** The `tasa_fuente` job: fetch, then queue the next run. */
export const run = (sql: SqlClient.SqlClient, settings: ServerSettings) =>
  Effect.gen(function* () {
    if ((settings.tasaFuenteUrl ?? null) === null) return
    yield* fetchOnce(sql, settings)
    yield* programar(sql, (settings.tasaFuenteMinutos ?? 60) * 60, "replace")
  })
