/**
 * The portal's team (DESIGN §8): a user may have no password yet (an owner who signed up without
 * one, an invited user) until a one-time link sets it. A link is found by the SHA-256 of its
 * token, never by the token; it serves once (`used_at`) and before `expires_at`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table usuarios alter column hash drop not null`
  yield* sql`
    create table enlaces_usuario (
      id uuid primary key,
      token_hash text not null unique,
      usuario_id uuid not null references usuarios (id) on delete cascade,
      proposito text not null check (proposito in ('activar', 'invitacion', 'restablecer')),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`
  yield* sql`
    alter table usuarios
      add column totp_secreto text,
      add column totp_pendiente text,
      add column totp_ultimo_paso bigint`
  yield* sql`
    create table actividad (
      id bigserial primary key,
      comercio_id uuid not null references comercios (id),
      usuario_id uuid,
      email text not null,
      accion text not null,
      objeto text,
      ip text not null,
      resultado int not null,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index actividad_comercio on actividad (comercio_id, id desc)`
  yield* sql`create index enlaces_usuario_usuario on enlaces_usuario (usuario_id) where used_at is null`
})
