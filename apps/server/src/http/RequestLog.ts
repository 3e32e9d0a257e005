/**
 * The merchant's request log (`GET /switch/v1/logs`, `switch logs tail`): one entry per
 * authenticated API request, with the merchant, mode, method, path without its query, status,
 * duration and request id; never a body, a key, a query or payer data.
 *
 * Recording must cost the request nothing it waits for: `record` only pushes the entry into
 * this process's buffer (no fiber, no I/O, callable from the lanes), and a fiber writes the
 * buffer every second as one `insert … select from unnest(…)`. A list flushes this process's
 * buffer first, so a merchant sees its own last requests. Past {@link MAX_BUFFER} entries
 * waiting (Postgres unreachable), the oldest are dropped: the log is a diagnostic, never money.
 * Housekeeping deletes entries older than {@link RETENTION_DAYS}.
 *
 * An entry's id is a UUIDv7 carrying its `created_at` ({@link entryId}), so a cursor is found
 * through the merchant's index and the table keeps one btree (migration 0069).
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { type Caller, ValidationError } from "@switch/api"
import { Context, Effect, Either, Layer, Schedule } from "effect"
import { PgPool } from "../platform/Sql.js"

export const RETENTION_DAYS = 7
/** The log's own route: its reads are not logged. */
export const LOGS_PATH = "/switch/v1/logs"
const MAX_BUFFER = 10_000
const MAX_PATH = 512

/** One answered request, as the HTTP layer saw it. */
export interface Entry {
  readonly caller: Caller
  readonly method: string
  /** The request's URL; its query is cut off here. */
  readonly url: string
  readonly status: number
  readonly durationMs: number
  readonly requestId: string
  readonly at: number
}

/** An entry as `GET /switch/v1/logs` shows it. */
export interface Solicitud {
  readonly id: string
  readonly created_at: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly duration_ms: number
  readonly request_id: string
}

export interface LogsPage {
  readonly limit: number
  readonly startingAfter: string | undefined
}

export class RequestLog extends Context.Tag("@switch/server/RequestLog")<
  RequestLog,
  {
    /** Queues an entry; returns at once. */
    readonly record: (entry: Entry) => void
    /** Writes what this process has queued. */
    readonly flush: Effect.Effect<void>
    /** The caller's merchant and mode's entries, newest first; `400` for a cursor not of theirs. */
    readonly list: (
      caller: Caller,
      page: LogsPage
    ) => Effect.Effect<ReadonlyArray<Solicitud>, ValidationError>
    /** Deletes entries past the retention; how many. */
    readonly prune: Effect.Effect<number>
  }
>() {}

/** The path of a request URL: no query (it may carry anything), bounded in length. */
export const pathOf = (url: string): string => {
  const cut = url.search(/[?#]/)
  return (cut === -1 ? url : url.slice(0, cut)).slice(0, MAX_PATH)
}

const INSERT = `
  insert into solicitudes_api (id, comercio_id, mode, method, path, status, duration_ms, request_id, created_at)
  select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[],
    $8::text[], $9::timestamptz[])`

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * An entry's id: a UUIDv7 (RFC 9562) whose 48-bit timestamp is the entry's time in ms, the
 * rest random. Its other 74 bits are a random UUID's, variant included.
 */
export const entryId = (atMs: number): string => {
  const time = Math.max(0, Math.floor(atMs)).toString(16).padStart(12, "0")
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`
}

/** The time an entry's id carries (ms), or `undefined` for an id of before migration 0069. */
export const entryTime = (id: string): number | undefined =>
  UUID.test(id) && id[14] === "7" ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : undefined

/** `limit` (1-200, default 50) and `starting_after` (an entry's id) of `GET /logs`. */
export const parseLogsPage = (params: {
  readonly limit?: string | undefined
  readonly starting_after?: string | undefined
}): Either.Either<LogsPage, ValidationError> => {
  const text = params.limit
  const limit = text === undefined || text === "" ? 50 : /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!(limit >= 1 && limit <= 200)) {
    return Either.left(
      new ValidationError({ parametro: "limit", detail: "limit debe ser un entero entre 1 y 200" })
    )
  }
  const cursor = params.starting_after === "" ? undefined : params.starting_after
  if (cursor !== undefined && !UUID.test(cursor)) return Either.left(unknownCursor)
  return Either.right({ limit, startingAfter: cursor?.toLowerCase() })
}

const unknownCursor = new ValidationError({
  parametro: "starting_after",
  detail: "starting_after debe ser el id de una entrada del registro"
})

export const RequestLogLive = Layer.scoped(
  RequestLog,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pool = yield* PgPool
    let buffer: Array<Entry> = []
    let dropped = 0

    const record = (entry: Entry) => {
      if (buffer.length >= MAX_BUFFER) {
        buffer.shift()
        dropped++
      }
      buffer.push(entry)
    }

    const write = (entries: ReadonlyArray<Entry>) =>
      Effect.tryPromise(() =>
        pool.run(INSERT, [
          entries.map((e) => entryId(e.at)),
          entries.map((e) => e.caller.comercioId),
          entries.map((e) => e.caller.mode),
          entries.map((e) => e.method),
          entries.map((e) => pathOf(e.url)),
          entries.map((e) => e.status),
          entries.map((e) => Math.max(0, Math.round(e.durationMs))),
          entries.map((e) => e.requestId),
          entries.map((e) => new Date(e.at).toISOString())
        ])
      )

    const flush = Effect.suspend(() => {
      if (buffer.length === 0) return Effect.void
      const taken = buffer
      buffer = []
      const lost = dropped
      dropped = 0
      return write(taken).pipe(
        Effect.tap(() =>
          lost === 0
            ? Effect.void
            : Effect.logWarning(`registro de solicitudes: ${lost} entradas descartadas`)
        ),
        // Kept for the next round (the buffer's bound still holds); a diagnostic never fails a request.
        Effect.catchAll((error) =>
          Effect.sync(() => {
            buffer = [...taken, ...buffer].slice(-MAX_BUFFER)
          }).pipe(Effect.zipRight(Effect.logWarning("registro de solicitudes no escrito", String(error))))
        )
      )
    })

    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced("1 second")))
    yield* Effect.addFinalizer(() => flush)

    const list = (caller: Caller, page: LogsPage) =>
      Effect.gen(function* () {
        yield* flush
        const since = sql`created_at > now() - make_interval(days => ${RETENTION_DAYS})`
        let after = sql``
        if (page.startingAfter !== undefined) {
          const id = page.startingAfter
          // Through the merchant's index at the time the id carries; failing that (an id of
          // before migration 0069), by a scan of the merchant's entries.
          const find = (time: number | undefined) =>
            sql<{ at: string }>`
              select created_at::text as at from solicitudes_api
              where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
                ${time === undefined ? sql`` : sql`and created_at = ${new Date(time)}`} and id = ${id}`.pipe(
              Effect.orDie
            )
          const time = entryTime(id)
          const row = (time === undefined ? undefined : (yield* find(time))[0]) ?? (yield* find(undefined))[0]
          if (row === undefined) return yield* Effect.fail(unknownCursor)
          // As Postgres keeps it (to the microsecond), not as a JS Date (to the millisecond).
          after = sql`and (created_at, id) < (${row.at}::timestamptz, ${id}::uuid)`
        }
        const rows = yield* sql<{
          id: string
          created_at: Date
          method: string
          path: string
          status: number
          duration_ms: number
          request_id: string
        }>`
          select id, created_at, method, path, status, duration_ms, request_id from solicitudes_api
          where comercio_id = ${caller.comercioId} and mode = ${caller.mode} and ${since} ${after}
          order by created_at desc, id desc
          limit ${page.limit}`.pipe(Effect.orDie)
        return rows.map(
          (row): Solicitud => ({
            id: row.id,
            created_at: new Date(row.created_at).toISOString(),
            method: row.method,
            path: row.path,
            status: row.status,
            duration_ms: row.duration_ms,
            request_id: row.request_id
          })
        )
      })

    const prune = sql<{ n: string }>`
      with gone as (
        delete from solicitudes_api where created_at < now() - make_interval(days => ${RETENTION_DAYS}) returning 1
      )
      select count(*) as n from gone`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.orDie
    )

    return { record, flush, list, prune }
  })
)
