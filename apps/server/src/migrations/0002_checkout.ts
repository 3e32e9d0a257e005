/**
 * The payer checkout: one row per payment attempt on a link (what the bank was asked, how it
 * answered; the source of `/estado`), and the sandbox bank's test debits, kept in Postgres so a
 * delayed test confirmation (codes 22222222, 33333333) survives a restart or another process.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table intentos_pago (
      id uuid primary key,
      link_id uuid not null references links(id),
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      estado text not null,
      motivo_rechazo text,
      referencia_banco text,
      huella text,
      created_at timestamptz not null default now(),
      actualizado_at timestamptz not null default now()
    )`
  yield* sql`create index intentos_pago_link on intentos_pago (link_id, created_at desc)`
  yield* sql`create index intentos_pago_abiertos on intentos_pago (created_at)
    where estado in ('ENVIANDO', 'ACEPTADA', 'PENDIENTE', 'DESCONOCIDA', 'ERROR')`
  yield* sql`create index intentos_pago_recientes on intentos_pago (mode, actualizado_at)`
  yield* sql`
    create table banco_prueba (
      operacion_id text primary key,
      estado text not null,
      motivo_rechazo text,
      referencia_banco text,
      confirma_en timestamptz,
      created_at timestamptz not null default now()
    )`
})
