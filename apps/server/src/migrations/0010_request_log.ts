/**
 * The merchant's request log (`GET /switch/v1/logs`): one row per authenticated API request,
 * written in batches after the answers went out (http/RequestLog.ts) and deleted by housekeeping
 * after 7 days. Logged like every table of the schema (one insert a second per process costs next
 * to nothing). Read newest first per merchant and mode, so the index leads with them.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table solicitudes_api (
      seq bigserial primary key,
      id uuid not null unique,
      comercio_id uuid not null,
      mode text not null,
      method text not null,
      path text not null,
      status int not null,
      duration_ms int not null,
      request_id text not null,
      created_at timestamptz not null
    )`
  yield* sql`create index solicitudes_api_comercio on solicitudes_api (comercio_id, mode, created_at desc, seq desc)`
  yield* sql`create index solicitudes_api_created on solicitudes_api (created_at)`
})
