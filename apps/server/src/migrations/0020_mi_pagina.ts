/**
 * The merchant's own payment page ("mi página", `/p/<codigo>`): one row per merchant with its
 * settings. No row is a page that was never saved: off, with the initial amounts
 * (core's `MiPagina.AJUSTES_INICIALES`). Amounts in cents, as links'.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table mi_pagina (
      comercio_id uuid primary key references comercios(id),
      activa boolean not null,
      mode text not null check (mode in ('test', 'live')),
      monto_min bigint not null check (monto_min > 0),
      monto_max bigint not null check (monto_max >= monto_min),
      concepto_permitido boolean not null,
      updated_at timestamptz not null default now()
    )`
})
