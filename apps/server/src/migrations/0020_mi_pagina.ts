/**
 * The merchant's own payment page ("mi página", `/p/<codigo>`): one row per merchant with its
 * settings. No row is a page that was never saved: off, with the initial amounts
 * (core's `MiPagina.AJUSTES_INICIALES`). Amounts in cents, as links'.
 *
 * And the portal's bulk actions on links (links/AccionesMasivas.ts): the links chosen (frozen
 * when the action is made, up to 5,000), the job's progress and its summary; the job commits
 * each part's effect with its progress, so it resumes where it was after a restart.
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
  yield* sql`
    create table acciones_masivas (
      id uuid primary key,
      comercio_id uuid not null references comercios(id),
      mode text not null check (mode in ('test', 'live')),
      usuario_id uuid,
      email text not null,
      accion text not null check (accion in ('cancelar', 'exportar', 'reenviar')),
      filtros jsonb not null,
      ids uuid[] not null,
      estado text not null default 'en_cola' check (estado in ('en_cola', 'en_curso', 'terminada')),
      procesados integer not null default 0,
      hechos integer not null default 0,
      omitidos jsonb not null default '{}',
      csv text,
      created_at timestamptz not null default now(),
      terminada_at timestamptz
    )`
  yield* sql`create index acciones_masivas_comercio on acciones_masivas (comercio_id, created_at desc)`
})
