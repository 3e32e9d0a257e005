/**
 * Delivery attempts, run as graphile-worker jobs (`webhook_entrega`, payload `{id, intento}`).
 *
 * Each job is one numbered attempt. Before sending, one transaction claims the attempt (the
 * row's `intentos` must still be `intento - 1`, so a stale or repeated job does nothing) and
 * schedules the next attempt as a safety net under the delivery's job key: if this process
 * dies mid-attempt, that job runs after the timeout and the backoff. After sending, a second
 * transaction records the outcome and replaces the safety net with the real next attempt at
 * DESIGN's backoff (or removes it). The job itself never fails for a receiver's answer, so
 * graphile-worker's own retries only cover infrastructure faults.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { Settings } from "../Config.js"
import * as Metrics from "../platform/Metrics.js"
import {
  DELIVERY_JOB_MAX_ATTEMPTS,
  DELIVERY_TASK,
  deliveryJobKey,
  envelope,
  type StoredEvent
} from "../platform/Outbox.js"
import * as Sealed from "../platform/Sealed.js"
import { ATTEMPT_TIMEOUT_MS, WebhookSender } from "./Sender.js"
import { signedHeaders } from "./Signature.js"

export const TASK = DELIVERY_TASK

/** DESIGN §5: 6 attempts; delay before each: about immediate, 10 s, 1 min, 10 min, 1 h, 6 h. */
export const BACKOFF_SECONDS = [0, 10, 60, 600, 3_600, 21_600] as const
export const MAX_ATTEMPTS = BACKOFF_SECONDS.length

/** The portal's test notice is tried once, while the merchant watches. */
const attemptsFor = (evento: string): number => (evento === "webhook.test" ? 1 : MAX_ATTEMPTS)

/** Seconds between attempt `n` (1-based) and the next, scaled for tests. */
export const delayAfter = (n: number, escala: number): number => (BACKOFF_SECONDS[n] ?? 0) * escala

export const jobKey = deliveryJobKey

/** Queues attempt `intento` of a delivery `seconds` from now, replacing its pending job. */
const schedule = (deliveryId: string, intento: number, seconds: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
      select 1 from graphile_worker.add_job(
        ${TASK},
        json_build_object('id', ${deliveryId}::text, 'intento', ${intento}::int),
        run_at := now() + make_interval(secs => ${seconds}::float8),
        max_attempts := ${DELIVERY_JOB_MAX_ATTEMPTS}::int,
        job_key := ${jobKey(deliveryId)}
      )`
  )

/**
 * Sends an event's notice again to one webhook (`POST /switch/v1/eventos/{id}/reenviar`): a
 * delivery the webhook never had is made, as the outbox makes them; one that ended
 * (delivered, failed, cancelled) is pending again for one more attempt now, numbered after its
 * last; one still pending or being sent is left to its own schedule. Answers the delivery's id.
 */
export const resend = (eventoId: string, webhookId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(resendIn(sql, eventoId, webhookId)))

const resendIn = (sql: SqlClient.SqlClient, eventoId: string, webhookId: string) =>
  Effect.gen(function* () {
    const events = yield* sql<StoredEvent>`
      select id, evento, created_at, data::text as data from eventos where id = ${eventoId}`
    const made =
      events[0] === undefined
        ? []
        : yield* sql<{ id: string }>`
            insert into webhook_entregas (id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, proximo_intento)
            select gen_random_uuid(), ${webhookId}, e.comercio_id, e.id, e.evento, e.mode, ${envelope(events[0])}, now()
            from eventos e where e.id = ${eventoId}
            on conflict (webhook_id, evento_id) do nothing
            returning id`
    if (made[0] !== undefined) {
      yield* schedule(made[0].id, 1, 0)
      return made[0].id
    }
    const reopened = yield* sql<{ id: string; intentos: number }>`
      update webhook_entregas set estado = 'pendiente', proximo_intento = now(), error = null
      where webhook_id = ${webhookId} and evento_id = ${eventoId}
        and estado in ('entregado', 'fallido', 'cancelado')
      returning id, intentos`
    if (reopened[0] !== undefined) {
      yield* schedule(reopened[0].id, reopened[0].intentos + 1, 0)
      return reopened[0].id
    }
    const pending = yield* sql<{ id: string }>`
      select id from webhook_entregas where webhook_id = ${webhookId} and evento_id = ${eventoId}`
    return pending[0]?.id ?? null
  }).pipe(Effect.provideService(SqlClient.SqlClient, sql))

interface Claimed {
  readonly id: string
  readonly cuerpo: string
  readonly evento: string
  readonly url: string
  readonly webhook_id: string
  readonly secret: string
  readonly activo: boolean
}

/** Runs attempt `intento` of delivery `id`; none when the job is stale. */
export const runAttempt = (payload: { readonly id: string; readonly intento: number }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const sender = yield* WebhookSender
    const { id, intento } = payload

    const claimed = yield* Effect.gen(function* () {
      // The notice waits for this commit, not for its flush to disk: were Postgres itself to
      // crash in the few milliseconds before the flush, the claim and the job's lock would both be
      // lost and the attempt would run again, a repeat that receivers dedupe on
      // `x-service-delivery` (DESIGN §5). A process that dies is covered as before.
      yield* sql`set local synchronous_commit = off`
      const rows = yield* sql<Claimed>`
        update webhook_entregas e set intentos = e.intentos + 1, estado = 'enviando', proximo_intento = null
        from webhooks w
        where e.id = ${id} and w.id = e.webhook_id and e.intentos = ${intento - 1}
          and e.estado in ('pendiente', 'enviando')
        returning e.id, e.cuerpo, e.evento, w.id as webhook_id, w.url, w.secret,
          (w.estado = 'activo' and w.deleted_at is null) as activo`
      const row = rows[0]
      if (row === undefined) return Option.none<Claimed>()
      if (!row.activo) {
        yield* sql`
          update webhook_entregas set estado = 'cancelado', intentos = intentos - 1,
            error = 'webhook inactivo o eliminado'
          where id = ${id}`
        return Option.none<Claimed>()
      }
      const secret = Either.try(() => Sealed.open(settings.secret, "webhook", row.webhook_id, row.secret))
      if (Either.isLeft(secret)) {
        // Sealed under another SWITCH_SECRET: no attempt could ever be signed, so it stops here.
        yield* sql`
          update webhook_entregas set estado = 'fallido', error = 'secreto del webhook ilegible (¿cambió SWITCH_SECRET?)'
          where id = ${id}`
        return Option.none<Claimed>()
      }
      if (intento < attemptsFor(row.evento)) {
        const net = ATTEMPT_TIMEOUT_MS / 1000 + 30 + delayAfter(intento, settings.webhookBackoffEscala)
        yield* schedule(id, intento + 1, net)
      }
      return Option.some({ ...row, secret: secret.right })
    }).pipe(sql.withTransaction)
    if (Option.isNone(claimed)) return Option.none<string>()
    const row = claimed.value

    const timestamp = Math.floor(Date.now() / 1000)
    const result = yield* sender.send({
      url: row.url,
      body: row.cuerpo,
      headers: signedHeaders({
        secret: row.secret,
        body: row.cuerpo,
        evento: row.evento,
        deliveryId: row.id,
        timestamp
      })
    })

    const last = intento >= attemptsFor(row.evento)
    Metrics.webhookDeliveries.inc({ outcome: result.ok ? "entregada" : last ? "agotada" : "fallida" })
    yield* Effect.gen(function* () {
      if (result.ok) {
        yield* sql`
          update webhook_entregas set estado = 'entregado', entregado_at = now(), codigo_http = ${result.status},
            error = null, proximo_intento = null
          where id = ${id} and intentos = ${intento}`
        yield* sql`select graphile_worker.remove_job(${jobKey(id)})`
      } else if (last) {
        yield* sql`
          update webhook_entregas set estado = 'fallido', codigo_http = ${result.status}, error = ${result.error},
            proximo_intento = null
          where id = ${id} and intentos = ${intento}`
        yield* sql`select graphile_worker.remove_job(${jobKey(id)})`
      } else {
        const seconds = delayAfter(intento, settings.webhookBackoffEscala)
        const updated = yield* sql`
          update webhook_entregas set estado = 'pendiente', codigo_http = ${result.status}, error = ${result.error},
            proximo_intento = now() + make_interval(secs => ${seconds}::float8)
          where id = ${id} and intentos = ${intento}
          returning id`
        if (updated.length > 0) yield* schedule(id, intento + 1, seconds)
      }
    }).pipe(sql.withTransaction)
    return Option.some(row.id)
  }).pipe(Effect.orDie)
