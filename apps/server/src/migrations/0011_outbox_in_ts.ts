/**
 * The outbox moves out of SQL: `platform/Outbox.ts` writes each event's deliveries, their jobs
 * and the `switch_eventos` notification itself, in the writer's transaction, and builds the
 * notice body in TypeScript (`envelope`, the same bytes `switch_evento_sobre` gave). So the
 * trigger of migration 0003 and its two functions go. Events already written keep working: their
 * deliveries hold their bodies, and the list, the stream and a resend build the body from the row.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`drop trigger if exists eventos_entregas on eventos`
  yield* sql`drop function if exists switch_encolar_entregas()`
  yield* sql`drop function if exists switch_evento_sobre(eventos)`
})
