/**
 * Issue 45: the bank's own code and words beside each answer the review queue keeps
 * (`respuestas_banco`), so an explicit rejection the normalised list can only call `DESCONOCIDO`
 * still shows what the bank said.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table respuestas_banco add column codigo_banco text`
  yield* sql`alter table respuestas_banco add column mensaje_banco text`
})
