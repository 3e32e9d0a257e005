/**
 * Rate counters need no durability: after a crash a window simply starts again. As an
 * unlogged table their upserts write no WAL, so their commits skip the WAL flush; every API
 * request updates its merchant's one hot counter row, and waiting for a flush while holding
 * that row's lock serialised all requests of a merchant behind the disk.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table contadores set unlogged`
})
