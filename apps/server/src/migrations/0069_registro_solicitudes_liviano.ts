/**
 * Issue 46: the request log (http/RequestLog.ts) costs each API request less. Every request
 * writes a row, and the row's four btree entries (the `seq` key, the unique `id`, the merchant's
 * index and `created_at`'s) were about a tenth of what Postgres spent on a link creation.
 *
 * An entry's `id` is now a UUIDv7 whose timestamp is the entry's `created_at`, so a cursor is
 * found through the merchant's index (merchant, mode, `created_at`, `id`) and needs no index of
 * its own; pages are ordered by (`created_at`, `id`); housekeeping finds old rows through a BRIN
 * index, which an append-only table keeps for next to nothing. One btree is left.
 *
 * `seq` stays, without its key or default, so a process of the previous release still running
 * while this one migrates can still list (it orders by `seq`, now null).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table solicitudes_api drop constraint solicitudes_api_pkey`
  yield* sql`alter table solicitudes_api drop constraint solicitudes_api_id_key`
  yield* sql`alter table solicitudes_api alter column seq drop default, alter column seq drop not null`
  yield* sql`drop sequence if exists solicitudes_api_seq_seq`
  yield* sql`drop index solicitudes_api_comercio`
  yield* sql`create index solicitudes_api_comercio on solicitudes_api (comercio_id, mode, created_at desc, id desc)`
  yield* sql`drop index solicitudes_api_created`
  yield* sql`create index solicitudes_api_created on solicitudes_api using brin (created_at)`
})
