/**
 * Events by link. A link's events are read by `data->>'link_id'` within the merchant's mode: the
 * link's history (historial/HistorialApi.ts: from the link's creation on) and a bulk resend's
 * last notice of each link (links/AccionesMasivas.ts: newest first per link). Without an index
 * both scan every event of the merchant's mode; this expression index, merchant and mode first
 * as those queries filter, answers them from the link's own events.
 *
 * And, for housekeeping's retention of bulk actions (platform/Retention.ts), ended actions by age.
 *
 * Built plainly (not concurrently) because migrations run in a transaction: on a large existing
 * `eventos`, build it by hand with `create index concurrently` first (docs/deploy.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create index if not exists eventos_link on eventos (comercio_id, mode, (data->>'link_id'), created_at desc)`
  yield* sql`
    create index if not exists acciones_masivas_terminada on acciones_masivas (terminada_at)
    where estado = 'terminada'`
})
