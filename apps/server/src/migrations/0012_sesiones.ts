/**
 * Portal users and sessions (DESIGN §8). A user belongs to one merchant and has one role; its
 * e-mail is unique across merchants (case folded), so signing in needs no merchant code. A
 * session is found by the SHA-256 of its random token (the cookie), never by the token itself,
 * and ends at its absolute expiry, after its idle time, or when `ended_at` is set. Failed
 * sign-ins are kept a while to limit guessing per account and per address.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table usuarios (
      id uuid primary key,
      comercio_id uuid not null references comercios (id),
      email text not null,
      hash text not null,
      rol text not null check (rol in ('propietario', 'cajero', 'lectura')),
      created_at timestamptz not null default now()
    )`
  yield* sql`create unique index usuarios_email on usuarios (lower(email))`
  yield* sql`create index usuarios_comercio on usuarios (comercio_id)`
  yield* sql`
    create table sesiones (
      id uuid primary key,
      token_hash text not null unique,
      usuario_id uuid not null references usuarios (id) on delete cascade,
      csrf text not null,
      mode text not null default 'test' check (mode in ('test', 'live')),
      ip text not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ended_at timestamptz
    )`
  yield* sql`create index sesiones_usuario on sesiones (usuario_id) where ended_at is null`
  yield* sql`
    create table intentos_ingreso (
      id bigserial primary key,
      email text not null,
      ip text not null,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index intentos_ingreso_email on intentos_ingreso (email, created_at)`
  yield* sql`create index intentos_ingreso_ip on intentos_ingreso (ip, created_at)`
})
