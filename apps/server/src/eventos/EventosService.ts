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
 */
import { SqlClient } from "@effect/sql"
import type { Caller } from "@switch/api"
import { Chunk, Context, Duration, Effect, Layer, Option, Stream } from "effect"
import type { Page } from "../http/Page.js"
import { envelope, type StoredEvent } from "../platform/Outbox.js"

const POLL = Duration.millis(500)
const HEARTBEAT = Duration.seconds(15)
const BATCH = 100

interface StreamRow extends StoredEvent {
  readonly seq: number
}

/** One SSE message; `data` is the notice's envelope, one line of JSON. */
export const sseMessage = (row: StreamRow): string =>
  `id: ${row.seq}\nevent: ${row.evento}\ndata: ${envelope(row)}\n\n`

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
   * The SSE body: a retry hint and the start as the last event id, the notices as they commit,
   * and a comment every 15 s. The start is fixed before the first byte, so whatever commits after
   * a client sees `: conectado` reaches it, even across a reconnection. It ends with
   * `: llave revocada` once its key is revoked.
   */
  const stream = (caller: Caller, lastEventId: string | undefined): Stream.Stream<string> =>
    Stream.unwrap(
      Effect.map(startAfter(caller, lastEventId), (start) => {
        const notices = Stream.unfoldChunkEffect(start as number | null, (cursor) =>
          Effect.gen(function* () {
            if (cursor === null) return Option.none()
            if (!(yield* keyValid(caller)))
              return Option.some([Chunk.of(": llave revocada\n\n"), null] as const)
            const rows = yield* after(caller, cursor)
            const lastRow = rows[rows.length - 1]
            if (lastRow === undefined) {
              yield* Effect.sleep(POLL)
              return Option.some([Chunk.empty<string>(), cursor] as const)
            }
            return Option.some([Chunk.fromIterable(rows.map(sseMessage)), lastRow.seq] as const)
          })
        )
        const heartbeat = Stream.tick(HEARTBEAT).pipe(Stream.map(() => ": ping\n\n"))
        // The opening block carries the start as the last event id, so a client that loses the
        // connection before its first notice still resumes from here.
        const opening = `retry: 2000\nid: ${start}\n: conectado\n\n`
        return Stream.concat(Stream.make(opening), Stream.merge(notices, heartbeat, { haltStrategy: "left" }))
      })
    )

  return { list, stream }
})

export class EventosService extends Context.Tag("@switch/server/EventosService")<
  EventosService,
  Effect.Effect.Success<typeof make>
>() {}

export const EventosServiceLive = Layer.effect(EventosService, make)
