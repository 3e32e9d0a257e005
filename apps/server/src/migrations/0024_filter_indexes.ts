/**
 * The filters of the other lists answer from an index too (issue: big merchants), as `GET
 * /links`'s do since 0017: a rare or absent value no longer reads all of a merchant's rows.
 *
 * - `GET /transacciones?estado=` and `?operacion=` (and the export's same filters): the state or
 *   the operation, then the list's order (newest first, id as the tie), so one value's page is
 *   read in order and a value no row has is answered at once;
 * - `GET /eventos?evento=`: the notice's type, then the list's order (`seq`, newest first);
 * - `GET /links?min=&max=` (amounts): the amount, so a narrow range reads only its links (a wide
 *   one still walks the newest first, which finds its page at once);
 * - a webhook's deliveries for a live key (both modes, newest first): the webhook, then time,
 *   so the 50 newest are read in order instead of sorting every delivery of both modes.
 *
 * Built plainly (not concurrently) because migrations run in a transaction: on a large existing
 * table, build them by hand with `create index concurrently` first (docs/deploy.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create index if not exists transacciones_by_estado
    on transacciones (comercio_id, mode, estado, created_at desc, id desc)`
  yield* sql`create index if not exists transacciones_by_operacion
    on transacciones (comercio_id, mode, operacion, created_at desc, id desc)`
  yield* sql`create index if not exists eventos_by_evento on eventos (comercio_id, mode, evento, seq desc)`
  yield* sql`create index if not exists links_by_monto on links (comercio_id, mode, monto)`
  yield* sql`create index if not exists webhook_entregas_newest on webhook_entregas (webhook_id, created_at desc, id desc)`
})
