/**
 * What one person alone should not do (issue 41):
 *
 * - `operadores.totp_enrolar`: a `riesgo` operator reset this operator's TOTP; the new secret is
 *   shown to the operator itself, after its password, at its next sign-in (never to `riesgo`).
 * - `acciones_pendientes`: marking an item of the review queue paid, or closing it without paying,
 *   from SWITCH_CUATRO_OJOS_DESDE waits here for a second `tesoreria` operator; the request's
 *   body is kept so the confirmation applies exactly what was asked. One pending action per item
 *   (a partial unique index), and the database refuses a confirmation by the one who asked.
 * - `tasas_bcv_propuestas`: a BCV rate more than SWITCH_TASA_SALTO_MAX_PCT away from the one in
 *   force waits here, unused, until a `tesoreria` operator other than its proposer confirms it
 *   (it then becomes a row of `tasas_bcv`). One pending proposal at a time: a newer one replaces
 *   it (`reemplazada`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table operadores add column totp_enrolar boolean not null default false`
  yield* sql`
    create table acciones_pendientes (
      id uuid primary key,
      objeto_tipo text not null,
      objeto_id text not null,
      accion text not null check (accion in ('marcar_pagada', 'cerrar')),
      monto bigint not null,
      cuerpo jsonb not null,
      solicitado_por uuid not null references operadores (id),
      estado text not null default 'pendiente' check (estado in ('pendiente', 'confirmada', 'anulada')),
      resuelto_por uuid references operadores (id),
      created_at timestamptz not null default now(),
      resuelto_at timestamptz,
      check (estado <> 'confirmada' or resuelto_por <> solicitado_por)
    )`
  yield* sql`
    create unique index acciones_pendientes_abierta on acciones_pendientes (objeto_tipo, objeto_id)
    where estado = 'pendiente'`
  yield* sql`
    create table tasas_bcv_propuestas (
      id bigserial primary key,
      ves_por_usd numeric(20, 8) not null check (ves_por_usd > 0),
      anterior numeric(20, 8) not null check (anterior > 0),
      fuente text not null check (fuente in ('token', 'operador', 'url')),
      operador_id uuid references operadores (id),
      actor text,
      nota text,
      estado text not null default 'pendiente'
        check (estado in ('pendiente', 'confirmada', 'rechazada', 'reemplazada')),
      resuelta_por uuid references operadores (id),
      resuelta_at timestamptz,
      tasa_id bigint references tasas_bcv (id),
      created_at timestamptz not null default now(),
      check (estado <> 'confirmada' or operador_id is null or resuelta_por <> operador_id)
    )`
  yield* sql`
    create unique index tasas_bcv_propuesta_abierta on tasas_bcv_propuestas ((true)) where estado = 'pendiente'`
})
