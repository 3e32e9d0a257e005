/**
 * The card pilot (issue 43): each card form opened for a link is a row of `cargos_tarjeta`, in
 * the states of @switch/core's CardCharge, from the 6-minute form to the processor's nightly
 * credit; at most one form is open per link (a unique partial index, so two racing opens cannot
 * both win). `callbacks_tarjeta` keeps the processor's callback ids, so a callback received
 * twice is applied once. `recargo_tarjeta_bp` is each merchant's surcharge (3 % by default).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table comercios add column recargo_tarjeta_bp integer not null default 300
      check (recargo_tarjeta_bp between 0 and 10000)`
  yield* sql`
    create table cargos_tarjeta (
      id uuid primary key,
      link_id uuid not null references links (id),
      comercio_id uuid not null references comercios (id),
      estado text not null
        check (estado in ('abierto', 'aprobado', 'sin_cobro', 'acreditado', 'faltante', 'cerrado')),
      monto bigint not null,
      propina bigint not null,
      recargo bigint not null,
      total bigint not null,
      referencia text,
      expires_at timestamptz not null,
      aprobado_at timestamptz,
      acreditado_at timestamptz,
      nota text,
      created_at timestamptz not null,
      actualizado_at timestamptz not null
    )`
  yield* sql`create unique index cargos_tarjeta_uno_abierto on cargos_tarjeta (link_id) where estado = 'abierto'`
  yield* sql`create index cargos_tarjeta_link on cargos_tarjeta (link_id, created_at desc)`
  yield* sql`create index cargos_tarjeta_pendientes on cargos_tarjeta (estado) where estado in ('abierto', 'aprobado', 'faltante')`
  yield* sql`
    create table callbacks_tarjeta (
      id text primary key,
      cargo_id uuid not null,
      recibido_at timestamptz not null
    )`
})
