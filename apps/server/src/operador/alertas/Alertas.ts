/**
 * Operators' alerts (issue 32): an item of money in review older than SWITCH_ALERTA_COLA_MINUTOS,
 * a BCV rate older than SWITCH_TASA_MAX_HORAS or a failing rate source, a BCV rate jump waiting
 * for a second person (issue 41), and a merchant's webhook endpoint failing. They show on the console's home and, when SWITCH_ALERTAS_URL is
 * set, are sent there as a webhook signed like merchants' notices (with SWITCH_ALERTAS_SECRETO,
 * the same headers) through the same SSRF guard.
 *
 * One open alert per `clave` (a unique index), so a condition that holds is not raised twice;
 * when it stops holding the alert is resolved, and it may be raised again later. Raising an
 * alert queues its delivery in the same transaction (the durable job `alerta_envio`, retried by
 * the job runner); the checks run as the durable job `alertas_revisar`, which queues its own
 * next run (one job key, so one schedule however many processes run).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { ServerSettings } from "../../Config.js"
import * as TasaBcv from "../../platform/TasaBcv.js"

export const TASK_ENVIO = "alerta_envio"
export const TASK_REVISAR = "alertas_revisar"
const REVISAR_KEY = "alertas_revisar"

export type Tipo =
  | "cola_antigua"
  | "tasa_vencida"
  | "tasa_fuente_falla"
  | "tasa_salto_pendiente"
  | "webhook_fallando"

export interface Alerta {
  readonly id: number
  readonly clave: string
  readonly tipo: Tipo
  readonly detalle: Record<string, unknown>
  readonly created_at: Date
}

export const alertaJson = (a: Alerta) => ({
  id: a.id,
  tipo: a.tipo,
  clave: a.clave,
  detalle: a.detalle,
  creada_en: a.created_at.toISOString()
})

/** Raises an alert unless the same one is open; queues its delivery when SWITCH_ALERTAS_URL is set. */
export const levantar = (
  sql: SqlClient.SqlClient,
  settings: ServerSettings,
  input: { readonly clave: string; readonly tipo: Tipo; readonly detalle: Record<string, unknown> }
) =>
  sql
    .withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<{ id: number }>`
          insert into alertas (clave, tipo, detalle) values (${input.clave}, ${input.tipo}, ${JSON.stringify(input.detalle)}::jsonb)
          on conflict (clave) where resuelta_at is null do nothing returning id`
        const row = rows[0]
        if (row === undefined) return false
        if ((settings.alertasUrl ?? null) !== null)
          yield* sql`
            select 1 from graphile_worker.add_job(${TASK_ENVIO}, json_build_object('id', ${row.id}::bigint),
              max_attempts := 12, job_key := ${`alerta:${row.id}`})`
        return true
      })
    )
    .pipe(Effect.orDie)

/** A BCV rate jump waits for a second person (platform/TasaBcv.ts): raised with its proposal. */
export const alertarSalto = (
  sql: SqlClient.SqlClient,
  settings: ServerSettings,
  propuesta: TasaBcv.Propuesta
) =>
  Effect.gen(function* () {
    // A newer proposal replaced the one the open alert names: that alert ends, this one is raised.
    yield* sql`
      update alertas set resuelta_at = now()
      where clave = 'tasa:salto' and resuelta_at is null and detalle->>'propuesta_id' <> ${String(propuesta.id)}`.pipe(
      Effect.orDie
    )
    return yield* levantar(sql, settings, {
      clave: "tasa:salto",
      tipo: "tasa_salto_pendiente",
      detalle: {
        propuesta_id: propuesta.id,
        ves_por_usd: propuesta.ves_por_usd,
        anterior: propuesta.anterior,
        salto_pct: propuesta.salto_pct,
        fuente: propuesta.fuente
      }
    })
  })

/** Resolves the open alert of `clave`, if any. */
export const resolver = (sql: SqlClient.SqlClient, clave: string) =>
  sql`update alertas set resuelta_at = now() where clave = ${clave} and resuelta_at is null`.pipe(
    Effect.asVoid,
    Effect.orDie
  )

/** The open alerts, newest first. */
export const abiertas = (sql: SqlClient.SqlClient) =>
  sql<Alerta>`
    select id::int as id, clave, tipo, detalle, created_at from alertas
    where resuelta_at is null order by id desc limit 200`.pipe(Effect.orDie)

/** What sending needs, handed in by the composition (Http.ts): the webhooks' sender and signer. */
export interface Envio {
  readonly send: (input: {
    readonly url: string
    readonly headers: Record<string, string>
    readonly body: string
  }) => Effect.Effect<{ readonly ok: boolean; readonly status: number | null; readonly error: string | null }>
  readonly sign: (input: {
    readonly secret: string
    readonly body: string
    readonly evento: string
    readonly deliveryId: string
    readonly timestamp: number
  }) => Record<string, string>
}

/** The `alerta_envio` job: sends one alert once; a failure fails the job, which the runner retries. */
export const enviar = (sql: SqlClient.SqlClient, settings: ServerSettings, envio: Envio, id: number) =>
  Effect.gen(function* () {
    const url = settings.alertasUrl ?? null
    if (url === null) return
    const [alerta] = yield* sql<Alerta & { enviada_at: Date | null }>`
      select id::int as id, clave, tipo, detalle, created_at, enviada_at from alertas where id = ${id}`.pipe(
      Effect.orDie
    )
    if (alerta === undefined || alerta.enviada_at !== null) return
    const evento = `alerta.${alerta.tipo}`
    const body = JSON.stringify({
      id: `alerta_${alerta.id}`,
      evento,
      created_at: alerta.created_at.toISOString(),
      data: alertaJson(alerta)
    })
    const result = yield* envio.send({
      url,
      body,
      headers: envio.sign({
        secret: settings.alertasSecreto ?? "",
        body,
        evento,
        deliveryId: `alerta_${alerta.id}`,
        timestamp: Math.floor(Date.now() / 1000)
      })
    })
    if (!result.ok)
      return yield* Effect.fail(new Error(`alerta ${alerta.id}: ${result.error ?? `HTTP ${result.status}`}`))
    yield* sql`update alertas set enviada_at = now() where id = ${alerta.id}`.pipe(Effect.orDie)
  })

/** Queues the next run of the checks (one job key: one schedule across processes). */
export const programar = (sql: SqlClient.SqlClient, segundos: number, mode: "replace" | "preserve_run_at") =>
  sql`
    select 1 from graphile_worker.add_job(${TASK_REVISAR}, '{}'::json,
      run_at := now() + make_interval(secs => ${segundos}::float8), job_key := ${REVISAR_KEY},
      job_key_mode := ${mode}, max_attempts := 3)`.pipe(Effect.asVoid, Effect.orDie)

/**
 * The checks, once: raises what holds and resolves what no longer does. Queue items come from
 * `enCola` (the queue as the console lists it, with each item's age).
 */
export const revisar = (
  sql: SqlClient.SqlClient,
  settings: ServerSettings,
  enCola: ReadonlyArray<{ readonly tipo: string; readonly id: string; readonly edad_segundos: number }>
) =>
  Effect.gen(function* () {
    const umbral = (settings.alertaColaMinutos ?? 60) * 60
    const viejas = enCola.filter((i) => i.edad_segundos >= umbral)
    const claves = new Set<string>()
    for (const item of viejas) {
      const clave = `cola:${item.tipo}:${item.id}`
      claves.add(clave)
      yield* levantar(sql, settings, {
        clave,
        tipo: "cola_antigua",
        detalle: { tipo: item.tipo, id: item.id, edad_segundos: item.edad_segundos, umbral_segundos: umbral }
      })
    }
    const open = yield* sql<{ clave: string }>`
      select clave from alertas where resuelta_at is null and tipo = 'cola_antigua'`.pipe(Effect.orDie)
    for (const { clave } of open) if (!claves.has(clave)) yield* resolver(sql, clave)

    // The BCV rate: missing or older than SWITCH_TASA_MAX_HORAS.
    const [tasa] = yield* sql<{
      created_at: Date
    }>`select created_at from tasas_bcv order by id desc limit 1`.pipe(Effect.orDie)
    const vencida =
      tasa === undefined || Date.now() - tasa.created_at.getTime() > settings.tasaMaxHoras * 3600 * 1000
    if (vencida)
      yield* levantar(sql, settings, {
        clave: "tasa:vencida",
        tipo: "tasa_vencida",
        detalle: {
          actualizada_en: tasa?.created_at.toISOString() ?? null,
          max_horas: settings.tasaMaxHoras
        }
      })
    else yield* resolver(sql, "tasa:vencida")

    // A rate jump waiting for a second person, whoever proposed it (the admin token included).
    const salto = yield* TasaBcv.pendiente.pipe(Effect.provideService(SqlClient.SqlClient, sql))
    if (Option.isSome(salto)) yield* alertarSalto(sql, settings, salto.value)
    else yield* resolver(sql, "tasa:salto")

    // Merchants' endpoints: the last finished delivery of the day failed, or one is still retrying after 2 failures.
    const failing = yield* sql<{ id: string; comercio: string; url: string }>`
      select w.id::text as id, c.codigo as comercio, w.url from webhooks w join comercios c on c.id = w.comercio_id
      where w.deleted_at is null and w.estado = 'activo' and (
        (select e.estado from webhook_entregas e where e.webhook_id = w.id and e.estado in ('entregado', 'fallido')
           and e.created_at > now() - interval '1 day' order by e.created_at desc limit 1) = 'fallido'
        or exists (select 1 from webhook_entregas e where e.webhook_id = w.id and e.estado = 'pendiente'
           and e.intentos >= 2 and e.created_at > now() - interval '1 day'))`.pipe(Effect.orDie)
    const hooks = new Set(failing.map((w) => `webhook:${w.id}`))
    for (const w of failing)
      yield* levantar(sql, settings, {
        clave: `webhook:${w.id}`,
        tipo: "webhook_fallando",
        detalle: { webhook_id: w.id, comercio: w.comercio, host: safeHost(w.url) }
      })
    const openHooks = yield* sql<{ clave: string }>`
      select clave from alertas where resuelta_at is null and tipo = 'webhook_fallando'`.pipe(Effect.orDie)
    for (const { clave } of openHooks) if (!hooks.has(clave)) yield* resolver(sql, clave)
  })

const safeHost = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return null
  }
}
