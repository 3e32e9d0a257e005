/**
 * The last refund items of issue 33:
 *
 * - `comercios.reembolsos_habilitado`: the portal's refunds are a pilot, off by default and turned
 *   on per merchant by an operator (like `split_habilitado` and `tarjeta_habilitada`).
 * - `repartos_detenidos`: a link whose split was stopped by a refund before any part was paid
 *   (SPEC "Split states": "If a refund happens before the split is paid, the split stops and goes
 *   to review"). The row is written in the refund's transaction, under the link's row lock; while
 *   it is there no part of that split is sent to the bank (the console's "pagar" refuses it), a
 *   person closes the parts (or records a payment made elsewhere).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table comercios add column reembolsos_habilitado boolean not null default false`
  yield* sql`
    create table repartos_detenidos (
      link_id uuid primary key references links (id),
      transaccion_id uuid not null,
      created_at timestamptz not null default now()
    )`
})
