/**
 * The job runners alive, one row per graphile-worker worker id, with the time its process last
 * said so (`webhooks/JobQueue.ts`). A job locked by an id whose heartbeat stopped belongs to a
 * dead process and is unlocked for a live one; an id that still beats is never touched.
 * Unlogged: after a Postgres crash every live process writes its rows again within a beat.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create unlogged table cola_trabajadores (
      worker_id text primary key,
      proceso text not null,
      latido timestamptz not null default now()
    )`
  yield* sql`create index cola_trabajadores_latido on cola_trabajadores (latido)`
})
