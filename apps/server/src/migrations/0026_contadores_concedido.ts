/**
 * `contadores.concedido`: what the last claim on a rate window was granted (platform/RateLimiter.ts).
 * A claim adds what it asks for up to the limit and returns how much it got, worked out from the
 * row as it was under the row's lock, so a window's `cuenta` is what it granted and never passes
 * the limit; a process can then give back what it claimed and did not spend.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table contadores add column concedido integer not null default 0`
})
