/**
 * The insert of a new link, with the rows of concurrent creations committed together
 * (Coalesce.ts): one statement, one transaction, one answer per row.
 *
 * A row is not inserted, and its answer is `undefined`, when its merchant is suspended or its
 * idempotency key already names a link (the caller then looks that link up). In a statement
 * with keys, rows go in the order of their merchant and key, so two statements racing for the
 * same keys wait on each other in one order and never deadlock (a lote's items go in the same
 * order, LotesService.ts).
 *
 * Ids are drawn before the insert and are the table's primary key, so no row is ever added
 * twice. A row whose statement failed is looked up by its id before it is inserted again: the
 * statement may have committed before its answer was lost, and then the row is this request's
 * own link, answered as created.
 */
import type { LinkRequest } from "@switch/core"
import { coalesce } from "../platform/Coalesce.js"
import type { PgPool } from "../platform/Sql.js"
import type { LinkRow } from "./LinkView.js"

/** A link's columns as the insert takes them; JSON columns as text. */
export interface NewLink {
  readonly id: string
  readonly comercioId: string
  readonly mode: "test" | "live"
  readonly monto: number
  readonly concepto: string
  readonly expiresAt: Date
  readonly successUrl: string | null
  readonly failureUrl: string | null
  readonly metadata: string
  readonly idempotencyKey: string | null
  readonly split: string | null
  readonly busqueda: string
  readonly createdAt: Date
  /** Where the link was made; the API's own routes make `api`. */
  readonly origen: LinkRequest.Origen
}

/** The JSON columns as Postgres keeps them (its key order), as every later read shows them. */
export type Inserted = Pick<LinkRow, "metadata" | "split">

const COLUMNS = `
  insert into links (id, comercio_id, mode, monto, concepto, expires_at, success_url, failure_url,
    metadata, idempotency_key, split, busqueda, created_at, origen)`

const ONE_ROW = `
  select $1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::jsonb, $12, $13, $14
  where not exists (select 1 from comercios where id = $2 and estado = 'suspendido')`

const ROWS = `
  select t.id, t.comercio_id, t.mode, t.monto, t.concepto, t.expires_at, t.success_url,
    t.failure_url, t.metadata::jsonb, t.idempotency_key, t.split::jsonb, t.busqueda, t.created_at,
    t.origen
  from unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[],
    $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[],
    $14::text[])
    as t(id, comercio_id, mode, monto, concepto, expires_at, success_url, failure_url, metadata,
      idempotency_key, split, busqueda, created_at, origen)
  where not exists (select 1 from comercios c where c.id = t.comercio_id and c.estado = 'suspendido')`

const CONFLICT = `
  on conflict (comercio_id, idempotency_key) where idempotency_key is not null do nothing`

/**
 * The statements, with and without an idempotency key among their rows. Without one no row can
 * conflict, so Postgres is spared the speculative insertion ON CONFLICT makes of every row and
 * the sort that orders keys (about 3.5 µs of its CPU per row in statements of six).
 */
const ONE = `${COLUMNS} ${ONE_ROW} ${CONFLICT} returning metadata, split`
const ONE_UNKEYED = `${COLUMNS} ${ONE_ROW} returning metadata, split`
const MANY = `${COLUMNS} ${ROWS}
  order by t.comercio_id, t.idempotency_key ${CONFLICT}
  returning id, metadata, split`
const MANY_UNKEYED = `${COLUMNS} ${ROWS} returning id, metadata, split`

const OWN = "select metadata, split from links where id = $1"

const values = (l: NewLink) => [
  l.id,
  l.comercioId,
  l.mode,
  l.monto,
  l.concepto,
  l.expiresAt,
  l.successUrl,
  l.failureUrl,
  l.metadata,
  l.idempotencyKey,
  l.split,
  l.busqueda,
  l.createdAt,
  l.origen
]

/** Rows per statement: enough for every connection a worker serves at once. */
const MAX_ROWS = 256
/**
 * Statements under way at once, of the pool's connections (20): a flood of creations leaves
 * the rest to every other query, and its rows wait for the next statement instead.
 */
const IN_FLIGHT = 4

export const makeLinkInsert = (pool: PgPool["Type"]) => {
  const one = async (link: NewLink) =>
    (await pool.run<Inserted>(link.idempotencyKey === null ? ONE_UNKEYED : ONE, values(link)))[0]
  const own = async (link: NewLink) => (await pool.run<Inserted>(OWN, [link.id]))[0]
  return coalesce<NewLink, Inserted | undefined>({
    max: MAX_ROWS,
    inFlight: IN_FLIGHT,
    one,
    // Still unknown when the insert fails on the id itself: a statement cut off mid-commit.
    retry: async (link) =>
      (await own(link)) ?? one(link).catch(async (e) => (await own(link)) ?? Promise.reject(e)),
    many: async (links) => {
      const rowsIn = links.map(values)
      const columns = Array.from({ length: 14 }, (_, i) => rowsIn.map((row) => row[i]))
      const keyed = links.some((l) => l.idempotencyKey !== null)
      const rows = await pool.run<Inserted & { id: string }>(keyed ? MANY : MANY_UNKEYED, columns)
      const byId = new Map(rows.map((r) => [r.id, r]))
      return links.map((l) => {
        const row = byId.get(l.id)
        return row === undefined ? undefined : { metadata: row.metadata, split: row.split }
      })
    }
  })
}
