/**
 * A key's roll (`POST /llaves/{id}/rotar`): `expira_at`, when a rolled key stops working (the
 * overlap its owner chose, up to 7 days), and `rotada_a`, the key that replaced it. A key
 * without `expira_at` works until revoked.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table llaves add column expira_at timestamptz, add column rotada_a uuid`
})
