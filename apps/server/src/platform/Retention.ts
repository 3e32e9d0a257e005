/**
 * How long the tables that only grow keep their rows (the server's README, "Retention"), applied
 * by housekeeping (Http.ts) a bounded batch at a time so a round never holds long locks:
 *
 * - webhook deliveries in a final state (`entregado`, `fallido`, `cancelado`): 90 days (SPEC
 *   lists only the last 50 of a webhook; a pending or sending one is never removed);
 * - events: 400 days (`GET /eventos`, the stream and `reenviar` reach a year back and a month
 *   more), and never while a delivery of theirs is still pending or sending;
 * - the portal users' audit log (`actividad`): 400 days;
 * - one-time password links (`enlaces_usuario`): 30 days after they were used or expired;
 * - the portal's bulk actions (`acciones_masivas`): an export's CSV 30 days after the action
 *   ended (the action's summary stays; its `archivo` is null from then on), the whole row 400
 *   days after it ended, as the audit log that records it. One still running is never touched.
 *
 * Money records (transactions, payment attempts, links, settlements) are never deleted; rate
 * windows, request logs, sessions and sign-in attempts have their own sweeps.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const DELIVERIES_DAYS = 90
export const EVENTS_DAYS = 400
export const ACTIVITY_DAYS = 400
export const LINKS_DAYS = 30
/** A bulk action's CSV: days after the action ended. */
export const ACCIONES_ARCHIVO_DAYS = 30
/** A bulk action's row: days after the action ended. */
export const ACCIONES_DAYS = 400
/** Rows deleted per table per round, at most. */
export const BATCH = 5_000

/** One round: old final deliveries, old events nothing waits on, old audit rows, spent links, old bulk actions' files and rows; how many of each went. */
export const pruneGrowing = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const deliveries = yield* sql<{ n: string }>`
    with gone as (
      delete from webhook_entregas where id in (
        select id from webhook_entregas
        where estado in ('entregado', 'fallido', 'cancelado')
          and created_at < now() - make_interval(days => ${DELIVERIES_DAYS})
        limit ${BATCH})
      returning 1)
    select count(*) as n from gone`
  const events = yield* sql<{ n: string }>`
    with gone as (
      delete from eventos where id in (
        select v.id from eventos v
        where v.created_at < now() - make_interval(days => ${EVENTS_DAYS})
          and not exists (
            select 1 from webhook_entregas e
            where e.evento_id = v.id and e.estado in ('pendiente', 'enviando'))
        limit ${BATCH})
      returning 1)
    select count(*) as n from gone`
  const activity = yield* sql<{ n: string }>`
    with gone as (
      delete from actividad where id in (
        select id from actividad where created_at < now() - make_interval(days => ${ACTIVITY_DAYS})
        limit ${BATCH})
      returning 1)
    select count(*) as n from gone`
  const userLinks = yield* sql<{ n: string }>`
    with gone as (
      delete from enlaces_usuario
      where coalesce(used_at, expires_at) < now() - make_interval(days => ${LINKS_DAYS})
      returning 1)
    select count(*) as n from gone`
  const accionesArchivos = yield* sql<{ n: string }>`
    with gone as (
      update acciones_masivas set csv = null where id in (
        select id from acciones_masivas
        where csv is not null and estado = 'terminada'
          and terminada_at < now() - make_interval(days => ${ACCIONES_ARCHIVO_DAYS})
        limit ${BATCH})
      returning 1)
    select count(*) as n from gone`
  const acciones = yield* sql<{ n: string }>`
    with gone as (
      delete from acciones_masivas where id in (
        select id from acciones_masivas
        where estado = 'terminada' and terminada_at < now() - make_interval(days => ${ACCIONES_DAYS})
        limit ${BATCH})
      returning 1)
    select count(*) as n from gone`
  return {
    deliveries: Number(deliveries[0]?.n ?? 0),
    events: Number(events[0]?.n ?? 0),
    activity: Number(activity[0]?.n ?? 0),
    userLinks: Number(userLinks[0]?.n ?? 0),
    accionesArchivos: Number(accionesArchivos[0]?.n ?? 0),
    acciones: Number(acciones[0]?.n ?? 0)
  }
}).pipe(Effect.orDie)
