/**
 * A portal user's recovery codes (issue 45): ten one-use codes made when the second factor is
 * confirmed (or made again), shown once, kept only as keyed hashes. Each one signs in once in
 * place of a TOTP code; `usado_at` marks it spent.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table codigos_recuperacion (
      usuario_id uuid not null references usuarios (id) on delete cascade,
      hash text not null,
      usado_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (usuario_id, hash)
    )`
})
