/**
 * MCP sign-in (issue 34, DESIGN §8): the OAuth 2.1 authorization server's state.
 *
 * - `oauth_clientes`: public clients (no secret; PKCE instead), registered by RFC 7591 Dynamic
 *   Client Registration (`origen = 'dcr'`, a random id) or known by a Client ID Metadata
 *   Document (`origen = 'cimd'`, the id is the document's https URL, the row a cache of it).
 * - `oauth_codigos`: authorization codes, by their SHA-256, single use, a few minutes long.
 * - `oauth_concesiones`: a grant, what "Aplicaciones conectadas" lists: a merchant user let a
 *   client act on one merchant in one mode with some scopes for one resource (the MCP server).
 *   Revoking it ends every token of it at once, in every process (each request reads it).
 * - `oauth_tokens`: access and refresh tokens by their SHA-256. Refresh tokens rotate: using one
 *   marks it `rotado_at` and issues the next; a rotated one used again revokes the whole grant
 *   (reuse detection: the family is the grant).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table oauth_clientes (
      id text primary key,
      nombre text not null,
      redirect_uris text[] not null,
      origen text not null check (origen in ('dcr', 'cimd')),
      uri text,
      created_at timestamptz not null default now(),
      fetched_at timestamptz not null default now()
    )`
  yield* sql`
    create table oauth_codigos (
      hash text primary key,
      client_id text not null references oauth_clientes (id) on delete cascade,
      comercio_id uuid not null references comercios (id),
      usuario_id uuid not null references usuarios (id) on delete cascade,
      mode text not null check (mode in ('test', 'live')),
      scopes text[] not null,
      redirect_uri text not null,
      code_challenge text not null,
      resource text not null,
      expires_at timestamptz not null,
      usado_at timestamptz
    )`
  yield* sql`
    create table oauth_concesiones (
      id uuid primary key,
      comercio_id uuid not null references comercios (id),
      usuario_id uuid not null references usuarios (id) on delete cascade,
      client_id text not null references oauth_clientes (id) on delete cascade,
      client_nombre text not null,
      redirect_host text not null,
      mode text not null check (mode in ('test', 'live')),
      scopes text[] not null,
      resource text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`create index oauth_concesiones_comercio on oauth_concesiones (comercio_id, created_at desc)`
  yield* sql`
    create table oauth_tokens (
      hash text primary key,
      concesion_id uuid not null references oauth_concesiones (id) on delete cascade,
      tipo text not null check (tipo in ('acceso', 'refresco')),
      expires_at timestamptz not null,
      rotado_at timestamptz,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index oauth_tokens_concesion on oauth_tokens (concesion_id)`
})
