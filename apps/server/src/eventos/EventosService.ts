/**
 * The merchant's notices for development (DESIGN §5): a list (newest first) and a server-sent
 * event stream, both of the key's mode, in the exact envelope webhooks receive.
 *
 * The stream reads `eventos` by `seq`, only below the oldest running transaction
 * (`pg_snapshot_xmin`), so a row that commits late with a smaller `seq` is never skipped. It
 * polls Postgres, so it sees events written by any server process. The SSE `id` is the `seq`;
 * `Last-Event-ID` (a `seq` or an `evt_` id) resumes right after that notice.
 *
 * A key is checked when a stream opens, like any request, and again before each read: once it
 * is revoked (in any process) the stream sends nothing more and ends, and a reconnection with
 * it gets `401`.
 *
 * `cambios` is the portal's stream of what changed (issue 45): the same reading, but each
 * message names only the event and its objects (`link_id`, `txn_id`), so an open screen reloads
 * them through the endpoints its role reaches. A session keeps at most {@link MAX_FLUJOS} of
 * them open, counted in Postgres (`flujos_sesion`) so every server process sees the same count;
 * a stream renews its row with each heartbeat, and a row not renewed for a while (its process
 * died) stops counting.
 */
import { SqlClient } from "@effect/sql"
import { type Caller, TooManyRequests } from "@switch/api"
import { Chunk, Context, Duration, Effect, Layer, Option, Stream } from "effect"
import type { Page } from "../http/Page.js"
import { envelope, type StoredEvent } from "../platform/Outbox.js"

const POLL = Duration.millis(500)
const HEARTBEAT = Duration.seconds(15)
const BATCH = 100
/**
 * Streams of changes a portal session may keep open at once (its tabs). A browser keeps about 6
 * connections per host over HTTP/1.1 and each stream holds one, so 4 leave room for the screens'
 * own requests.
 */
export const MAX_FLUJOS = 4
/** A stream's row stops counting when not renewed for this long (three heartbeats). */
const FLUJO_VENCE_S = 45

interface StreamRow extends StoredEvent {
  readonly seq: number
}

/** One SSE message; `data` is the notice's envelope, one line of JSON. */
export const sseMessage = (row: StreamRow): string =>
  `id: ${row.seq}\nevent: ${row.evento}\ndata: ${envelope(row)}\n\n`

/** One change for the portal: the event's name and its objects, never its amounts or payer data. */
export const cambioMessage = (row: StreamRow): string => {
  let data: Record<string, unknown> = {}
  try {
    data = JSON.parse(row.data) as Record<string, unknown>
  } catch {}
  const id = (value: unknown) => (typeof value === "string" ? value : null)
  const cambio = { evento: row.evento, link_id: id(data.link_id), txn_id: id(data.txn_id) }
  return `id: ${row.seq}\nevent: cambio\ndata: ${JSON.stringify(cambio)}\n\n`
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** The notices as a JSON array text, newest first; only those of type `evento` when given. */
  const list = (caller: Caller, page: Page, evento: string | null = null) =>
    sql<StoredEvent>`
      select id, evento, created_at, data::text as data from eventos
      where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
        and (${evento}::text is null or evento = ${evento})
        ${
          page.startingAfter === null
            ? sql``
            : sql`and seq < (select seq from eventos
                where id = ${page.startingAfter} and comercio_id = ${caller.comercioId} and mode = ${caller.mode})`
        }
      order by seq desc
      limit ${page.limit} offset ${page.offset}`.pipe(
      Effect.map((rows) => `[${rows.map(envelope).join(",")}]`),
      Effect.orDie
    )

  /** Where a stream starts: after `Last-Event-ID`, else after everything already committed. */
  const startAfter = (caller: Caller, lastEventId: string | undefined) =>
    Effect.gen(function* () {
      const last = lastEventId?.trim() ?? ""
      if (/^\d{1,15}$/.test(last)) return Number(last)
      const byId = /^evt_([0-9a-f-]{36})$/i.exec(last)?.[1]
      if (byId !== undefined) {
        const rows = yield* sql<{ seq: number }>`
          select seq from eventos where id = ${byId} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`
        if (rows[0] !== undefined) return rows[0].seq
      }
      const rows = yield* sql<{ seq: number | null }>`
        select max(seq) as seq from eventos
        where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
          and xid < pg_snapshot_xmin(pg_current_snapshot())`
      return rows[0]?.seq ?? 0
    }).pipe(Effect.orDie)

  /** Whether the stream's key (or portal session: not ended, not expired) is still in force. */
  const keyValid = (caller: Caller) =>
    (caller.sesion === undefined
      ? sql<{ id: string }>`
          select id from llaves where id = ${caller.llaveId} and revoked_at is null
            and (expira_at is null or expira_at > now())`
      : sql<{ id: string }>`
          select id from sesiones where id = ${caller.sesion.sesionId} and ended_at is null and expires_at > now()`
    ).pipe(
      Effect.map((rows) => rows.length > 0),
      Effect.orDie
    )

  const after = (caller: Caller, cursor: number) =>
    sql<StreamRow>`
      select seq, id, evento, created_at, data::text as data from eventos
      where comercio_id = ${caller.comercioId} and mode = ${caller.mode} and seq > ${cursor}
        and xid < pg_snapshot_xmin(pg_current_snapshot())
      order by seq
      limit ${BATCH}`.pipe(Effect.orDie)

  /**
   * The SSE body: a retry hint and the start as the last event id, the notices as they commit
   * (each written by `message`), and a comment every 15 s. The start is fixed before the first
   * byte, so whatever commits after a client sees `: conectado` reaches it, even across a
   * reconnection. It ends with `: llave revocada` once `alive` says no (a revoked key, an ended
   * session); `beat` runs with each heartbeat.
   */
  const sse = (
    caller: Caller,
    lastEventId: string | undefined,
    message: (row: StreamRow) => string,
    alive: Effect.Effect<boolean>,
    beat: Effect.Effect<void> = Effect.void
  ): Stream.Stream<string> =>
    Stream.unwrap(
      Effect.map(startAfter(caller, lastEventId), (start) => {
        const notices = Stream.unfoldChunkEffect(start as number | null, (cursor) =>
          Effect.gen(function* () {
            if (cursor === null) return Option.none()
            if (!(yield* alive)) return Option.some([Chunk.of(": llave revocada\n\n"), null] as const)
            const rows = yield* after(caller, cursor)
            const lastRow = rows[rows.length - 1]
            if (lastRow === undefined) {
              yield* Effect.sleep(POLL)
              return Option.some([Chunk.empty<string>(), cursor] as const)
            }
            return Option.some([Chunk.fromIterable(rows.map(message)), lastRow.seq] as const)
          })
        )
        const heartbeat = Stream.tick(HEARTBEAT).pipe(Stream.mapEffect(() => Effect.as(beat, ": ping\n\n")))
        // The opening block carries the start as the last event id, so a client that loses the
        // connection before its first notice still resumes from here.
        const opening = `retry: 2000\nid: ${start}\n: conectado\n\n`
        return Stream.concat(Stream.make(opening), Stream.merge(notices, heartbeat, { haltStrategy: "left" }))
      })
    )

  /** The notices of the key's (or session's) mode, each in the webhook envelope. */
  const stream = (caller: Caller, lastEventId: string | undefined): Stream.Stream<string> =>
    sse(caller, lastEventId, sseMessage, keyValid(caller))

  /**
   * Takes one of the session's stream places, or fails with `429` when {@link MAX_FLUJOS} are
   * taken. The count and the insert run under a lock on the session, so two processes opening at
   * once cannot both take the last place.
   */
  const abrirFlujo = (sesionId: string) =>
    sql
      .withTransaction(
        Effect.gen(function* () {
          yield* sql`select pg_advisory_xact_lock(hashtext(${`flujos:${sesionId}`}))`
          yield* sql`
            delete from flujos_sesion
            where sesion_id = ${sesionId} and visto_at < now() - make_interval(secs => ${FLUJO_VENCE_S})`
          const rows = yield* sql<{ n: number }>`
            select count(*)::int as n from flujos_sesion where sesion_id = ${sesionId}`
          if ((rows[0]?.n ?? 0) >= MAX_FLUJOS) return null
          const inserted = yield* sql<{ id: string }>`
            insert into flujos_sesion (sesion_id) values (${sesionId}) returning id::text as id`
          return inserted[0]?.id ?? null
        })
      )
      .pipe(
        Effect.orDie,
        Effect.flatMap((id) =>
          id === null
            ? Effect.fail(
                new TooManyRequests({
                  detail: `Tienes ${MAX_FLUJOS} pantallas del panel recibiendo cambios; cierra alguna o espera.`,
                  reintentar_en: 10
                })
              )
            : Effect.succeed(id)
        )
      )

  const cerrarFlujo = (id: string) => sql`delete from flujos_sesion where id = ${id}`.pipe(Effect.ignore)

  const renovarFlujo = (id: string) =>
    sql`update flujos_sesion set visto_at = now() where id = ${id}`.pipe(Effect.ignore)

  /**
   * The portal's changes for a session, in its mode: `event: cambio` messages. It takes one of
   * the session's places before answering (else `429`) and gives it back when it ends.
   */
  const cambios = (caller: Caller, lastEventId: string | undefined) =>
    Effect.gen(function* () {
      const sesion = caller.sesion
      if (sesion === undefined) return yield* Effect.dieMessage("cambios sin sesión")
      const flujo = yield* abrirFlujo(sesion.sesionId)
      return sse(caller, lastEventId, cambioMessage, keyValid(caller), renovarFlujo(flujo)).pipe(
        Stream.ensuring(cerrarFlujo(flujo))
      )
    })

  return { list, stream, cambios }
})

export class EventosService extends Context.Tag("@switch/server/EventosService")<
  EventosService,
  Effect.Effect.Success<typeof make>
>() {}

export const EventosServiceLive = Layer.effect(EventosService, make)
