/**
 * Indexes that keep `GET /links` fast for a merchant with millions of links (issue: big
 * merchants): every filter answers from an index instead of a scan of the merchant's links.
 *
 * - newest first, and the `starting_after` cursor: (comercio_id, mode, created_at, id);
 * - `estado`: the same with the state first, so one state's page is read in order;
 * - `desde`/`hasta` (payment date, else creation date): an index on that expression;
 * - `q`: a trigram index over `busqueda` (the normalised concept and id), which `like '%w%'`
 *   uses for words of three characters or more (pg_trgm, a trusted extension since PG 13).
 *
 * And, for housekeeping's retention (platform/Retention.ts), the age of deliveries and events.
 *
 * Built plainly (not concurrently) because migrations run in a transaction: on a large existing
 * table, build them by hand with `create index concurrently` first (docs/deploy.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create extension if not exists pg_trgm`
  yield* sql`create index if not exists links_newest on links (comercio_id, mode, created_at desc, id desc)`
  yield* sql`drop index if exists links_list`
  yield* sql`create index if not exists links_by_estado on links (comercio_id, mode, estado, created_at desc, id desc)`
  yield* sql`create index if not exists links_by_fecha on links (comercio_id, mode, (coalesce(paid_at, created_at)))`
  yield* sql`create index if not exists links_busqueda on links using gin (busqueda gin_trgm_ops)`
  // Housekeeping's retention (platform/Retention.ts) finds old rows by age.
  yield* sql`create index if not exists webhook_entregas_age on webhook_entregas (created_at)
    where estado in ('entregado', 'fallido', 'cancelado')`
  yield* sql`create index if not exists eventos_age on eventos (created_at)`
  yield* sql`create index if not exists actividad_age on actividad (created_at)`
})
