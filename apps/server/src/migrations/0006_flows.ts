/** WhatsApp Flows bindings and the per-flow_token sessions that make collection idempotent. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table flow_bindings (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      flow_secret_mac text not null,
      cuenta jsonb not null,
      concepto text,
      monto_fijo bigint,
      monto_secret text,
      app_secret text not null,
      private_key text,
      public_key text not null,
      definicion jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`
  yield* sql`create index flow_bindings_comercio on flow_bindings (comercio_id)`
  yield* sql`
    create table flow_sesiones (
      binding_id uuid not null references flow_bindings(id),
      flow_token_mac text not null,
      idempotency_key uuid not null,
      monto bigint not null,
      pagador jsonb not null,
      telefono text not null,
      estado text not null default 'codigo_pedido',
      resultado jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (binding_id, flow_token_mac)
    )`
})
