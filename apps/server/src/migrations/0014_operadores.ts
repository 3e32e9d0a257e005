/**
 * Operators (issue 32, DESIGN §8): the service's own staff, apart from merchants' users. An
 * operator signs in with e-mail, password and TOTP, always; its role says what it may do
 * (`soporte` reads, `riesgo` approves, reviews and suspends merchants, `tesoreria` resolves money
 * in review and sets the BCV rate). Operator sessions are their own table and cookie.
 *
 * `auditoria` keeps every operator action (who, when, which object, before, after, the note) and
 * is append-only: a trigger refuses UPDATE, DELETE and TRUNCATE on it.
 *
 * `pagos_revision`: paying a settlement in review through the bank port, with four eyes: one
 * operator asks, another confirms (below the configured amount one is enough). The row's id is
 * the bank order's id (its own idempotency), written before the order is sent; one open request
 * per settlement.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table operadores (
      id uuid primary key,
      email text not null,
      hash text not null,
      totp_secret text not null,
      totp_ultimo_paso bigint not null default 0,
      rol text not null check (rol in ('soporte', 'riesgo', 'tesoreria')),
      activo boolean not null default true,
      created_at timestamptz not null default now()
    )`
  yield* sql`create unique index operadores_email on operadores (lower(email))`
  yield* sql`
    create table sesiones_operador (
      id uuid primary key,
      token_hash text not null unique,
      operador_id uuid not null references operadores (id) on delete cascade,
      csrf text not null,
      ip text not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ended_at timestamptz
    )`
  yield* sql`create index sesiones_operador_operador on sesiones_operador (operador_id) where ended_at is null`
  yield* sql`
    create table intentos_operador (
      id bigserial primary key,
      email text not null,
      ip text not null,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index intentos_operador_email on intentos_operador (email, created_at)`
  yield* sql`create index intentos_operador_ip on intentos_operador (ip, created_at)`
  yield* sql`
    create table auditoria (
      id bigserial primary key,
      operador_id uuid references operadores (id),
      actor text not null,
      accion text not null,
      objeto_tipo text not null,
      objeto_id text not null,
      antes jsonb,
      despues jsonb,
      nota text,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index auditoria_objeto on auditoria (objeto_tipo, objeto_id, id)`
  yield* sql`
    create function auditoria_inmutable() returns trigger language plpgsql as $$
    begin
      raise exception 'auditoria es solo de agregar: % no permitido', tg_op using errcode = 'P0001';
    end
    $$`
  yield* sql`
    create trigger auditoria_sin_cambios before update or delete on auditoria
    for each row execute function auditoria_inmutable()`
  yield* sql`
    create trigger auditoria_sin_truncate before truncate on auditoria
    for each statement execute function auditoria_inmutable()`
  yield* sql`
    create table pagos_revision (
      id uuid primary key,
      transaccion_id uuid not null references transacciones (id),
      monto bigint not null,
      solicitado_por uuid not null references operadores (id),
      confirmado_por uuid references operadores (id),
      estado text not null check (estado in ('pendiente', 'enviado', 'pagado', 'fallido')),
      respuesta jsonb,
      created_at timestamptz not null default now(),
      confirmado_at timestamptz,
      check (confirmado_por <> solicitado_por)
    )`
  yield* sql`
    create unique index pagos_revision_abierto on pagos_revision (transaccion_id)
    where estado in ('pendiente', 'enviado')`
})
