/**
 * OAuth access tokens as the authentication middleware sees them (DESIGN §8, issue 34): the
 * `Authorization: Bearer` token is looked up by its SHA-256 with its grant, in Postgres on every
 * request, so revoking a grant (oauth/) ends its tokens at once in every process. A live token
 * becomes a caller of its grant's merchant in its grant's one mode; the route must be one its
 * scopes open (`OAuth.tokenAllows` in @switch/api) and its audience the MCP server.
 * Looking it up notes the grant's last use, at most once a minute.
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Caller, Mode } from "@switch/api"
import { Effect, Option } from "effect"

/** What the database keeps of a token. */
export const hashBearer = (token: string) => createHash("sha256").update(token).digest("hex")

/** A live access token's grant. */
export interface TokenGrant {
  readonly caller: Caller
  readonly concesionId: string
  readonly clientId: string
  readonly scopes: ReadonlyArray<string>
  readonly resource: string
  readonly expiresAt: Date
}

interface Row {
  readonly concesion_id: string
  readonly client_id: string
  readonly mode: Mode
  readonly scopes: ReadonlyArray<string>
  readonly resource: string
  readonly expires_at: Date
  readonly comercio_id: string
  readonly codigo: string
}

/** The grant of a live access token; none when unknown, expired, or its grant revoked. */
export const lookupAccessToken = (
  token: string
): Effect.Effect<Option.Option<TokenGrant>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<Row>`
        with found as (
          select g.id as concesion_id, g.client_id, g.mode, g.scopes, g.resource, t.expires_at,
            c.id as comercio_id, c.codigo, g.last_used_at
          from oauth_tokens t
          join oauth_concesiones g on g.id = t.concesion_id
          join comercios c on c.id = g.comercio_id
          where t.hash = ${hashBearer(token)} and t.tipo = 'acceso' and t.expires_at > now()
            and g.revoked_at is null),
        touched as (
          update oauth_concesiones set last_used_at = now()
          where id in (select concesion_id from found
            where last_used_at is null or last_used_at < now() - interval '60 seconds'))
        select concesion_id, client_id, mode, scopes, resource, expires_at, comercio_id, codigo from found`,
      (rows) => {
        const row = rows[0]
        if (row === undefined) return Option.none<TokenGrant>()
        return Option.some<TokenGrant>({
          caller: {
            comercioId: row.comercio_id,
            codigo: row.codigo,
            mode: row.mode,
            llaveId: `oauth:${row.concesion_id}`
          },
          concesionId: row.concesion_id,
          clientId: row.client_id,
          scopes: row.scopes,
          resource: row.resource,
          expiresAt: new Date(row.expires_at)
        })
      }
    )
  ).pipe(Effect.orDie)
