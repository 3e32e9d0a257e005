/**
 * The job runners alive, one row per graphile-worker worker id, with the time its process last
 * said so (`webhooks/JobQueue.ts`). A job locked by an id whose heartbeat stopped belongs to a
 * dead process and is unlocked for a live one; an id that still beats is never touched.
 * Logged like every table (a beat every few seconds per process costs next to nothing), so no
 * table of the schema is unlogged and none is emptied by a crash.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table cola_trabajadores (
      worker_id text primary key,
      proceso text not null,
      latido timestamptz not null default now()
    )`
  yield* sql`create index cola_trabajadores_latido on cola_trabajadores (latido)`
})
