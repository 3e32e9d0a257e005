/**
 * `ordenes_banco`: what a bank adapter sent, written before it is sent, for banks whose query
 * does not find an operation by our id (Mercantil's `search` wants amount, phones, reference
 * and date). A restart in the middle of an order keeps it, so the query after the restart asks
 * the bank about exactly what was sent (platform/bank/mercantil/Bitacora.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table ordenes_banco (
      operacion_id text primary key,
      adaptador text not null,
      orden jsonb not null,
      created_at timestamptz not null default now()
    )`
})
