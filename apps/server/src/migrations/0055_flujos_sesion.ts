/**
 * `flujos_sesion`: the portal's open streams of changes, one row each, so that every server
 * process counts the same streams against a session's cap (eventos/EventosService.ts). A stream
 * renews `visto_at` with each heartbeat; a row left by a process that died stops counting once
 * it is old. A deleted session takes its rows with it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table flujos_sesion (
      id uuid primary key default gen_random_uuid(),
      sesion_id uuid not null references sesiones (id) on delete cascade,
      visto_at timestamptz not null default now()
    )`
  yield* sql`create index flujos_sesion_sesion on flujos_sesion (sesion_id)`
})
