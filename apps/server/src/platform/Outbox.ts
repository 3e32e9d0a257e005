/**
 * The outbox: the one writer of events. A notice a merchant receives starts here, in the
 * transaction of the change it tells: its `data` is encoded with its schema (@switch/api
 * Events.ts, refused before anything is written when it does not fit), the `eventos` row is
 * written, and, when the row is new, one delivery per matching active webhook with its
 * graphile-worker job, then `pg_notify('switch_eventos', ...)` for the live streams. All of it
 * commits or rolls back with the caller's change.
 *
 * Here, below the features (not in `eventos/`), because links, settlement and the direct API all
 * write notices and no feature imports another. The envelope every subscriber receives is built
 * by {@link envelope} alone, from the stored row: webhooks, the event list and the stream.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Events, type Mode, type Webhooks } from "@switch/api"
import { Data, Effect, ParseResult, Schema } from "effect"

/** The graphile-worker task that runs one delivery attempt (webhooks/Deliveries.ts). */
export const DELIVERY_TASK = "webhook_entrega"

/** A delivery's job key: one pending job per delivery, replaced by each schedule. */
export const deliveryJobKey = (deliveryId: string) => `entrega:${deliveryId}`

/** graphile-worker's own retries of a delivery job (infrastructure faults only). */
export const DELIVERY_JOB_MAX_ATTEMPTS = 5

/** The channel the live streams listen on; the payload is `<comercio_id>:<mode>`. */
export const EVENTS_CHANNEL = "switch_eventos"

/** A notice whose `data` does not fit its event's schema: a bug, refused before writing. */
export class NoticeRefused extends Data.TaggedError("NoticeRefused")<{
  readonly evento: string
  readonly message: string
}> {}

/** An event row as stored; `data` is the stored jsonb's text. */
export interface StoredEvent {
  readonly id: string
  readonly evento: string
  readonly created_at: Date
  readonly data: string
}

/**
 * The notice body exactly as subscribers receive it (DESIGN §5):
 * `{"id" : "evt_<uuid>", "evento" : ..., "creado_en" : <ISO, ms, Z>, "data" : <data>}`, byte for
 * byte the text Postgres' `json_build_object` gave before this module built it, with `data` as
 * the stored jsonb prints itself.
 */
export const envelope = (event: StoredEvent): string =>
  `{"id" : ${JSON.stringify(`evt_${event.id}`)}, "evento" : ${JSON.stringify(event.evento)}, ` +
  `"creado_en" : ${JSON.stringify(event.created_at.toISOString())}, "data" : ${event.data}}`

/** Encodes a notice's `data` with its event's schema; an unknown field is refused too. */
export const encodeData = <E extends Webhooks.EventName>(evento: E, data: Events.EventDataOf<E>) =>
  Schema.encode(Events.EventData[evento] as unknown as Schema.Schema<unknown, unknown>, {
    onExcessProperty: "error"
  })(data).pipe(
    Effect.mapError(
      (error) => new NoticeRefused({ evento, message: ParseResult.TreeFormatter.formatErrorSync(error) })
    )
  )

export interface Notice<E extends Webhooks.EventName> {
  readonly comercioId: string
  readonly mode: Mode
  readonly evento: E
  readonly data: Events.EventDataOf<E>
  /** A repeated write with the same `dedupe` is a no-op: no row, no delivery, no notification. */
  readonly dedupe: string | null
  readonly at: Date
}

/**
 * Writes a notice: the event row, its deliveries and their jobs, and the stream notification, in
 * the caller's transaction (a savepoint there), or in its own. A `data` that fails its schema
 * dies with {@link NoticeRefused} before any statement runs. Answers the event id, or null when
 * `dedupe` had already been written.
 */
export const write = <E extends Webhooks.EventName>(notice: Notice<E>) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const data = yield* Effect.orDie(encodeData(notice.evento, notice.data))
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const id = randomUUID()
        const rows = yield* sql<StoredEvent & { readonly comercio_id: string }>`
          insert into eventos (id, comercio_id, mode, evento, data, dedupe, created_at)
          values (${id}, ${notice.comercioId}, ${notice.mode}, ${notice.evento}, ${sql.json(data)}, ${notice.dedupe}, ${notice.at})
          on conflict (dedupe) do nothing
          returning id, comercio_id::text as comercio_id, evento, created_at, data::text as data`
        const row = rows[0]
        if (row === undefined) return null
        const cuerpo = envelope(row)
        const hooks = yield* sql<{ id: string }>`
          select id from webhooks
          where comercio_id = ${notice.comercioId} and deleted_at is null and estado = 'activo'
            and (${notice.evento} = any(eventos) or '*' = any(eventos))`
        for (const hook of hooks) {
          const delivery = randomUUID()
          yield* sql`
            insert into webhook_entregas (id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, proximo_intento)
            values (${delivery}, ${hook.id}, ${notice.comercioId}, ${row.id}, ${notice.evento}, ${notice.mode}, ${cuerpo}, now())`
          yield* sql`
            select 1 from graphile_worker.add_job(
              ${DELIVERY_TASK},
              json_build_object('id', ${delivery}::uuid, 'intento', 1),
              job_key := ${deliveryJobKey(delivery)},
              max_attempts := ${DELIVERY_JOB_MAX_ATTEMPTS}::int
            )`
        }
        yield* sql`select pg_notify(${EVENTS_CHANNEL}, ${`${row.comercio_id}:${notice.mode}`})`
        return row.id
      })
    )
  })
