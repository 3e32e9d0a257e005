/**
 * Codes, grants and tokens (issue 34). A code is single use and lives {@link CODE_SECONDS}; it
 * becomes a grant (what "Aplicaciones conectadas" lists) with an access token of
 * {@link ACCESS_SECONDS} and a refresh token of {@link REFRESH_DAYS}. Every token is kept only
 * as its SHA-256. Refreshing rotates: the used refresh token is marked, a new pair issued; a
 * marked one presented again revokes the grant (reuse detection, the grant being the family).
 *
 * A code presented again revokes the grant its first exchange made, and with it every token
 * issued from it (OAuth 2.1 §4.1.3: a second use means someone else holds the code). The grant's
 * id is derived from the code ({@link grantIdOf}), so the second use finds it without a column
 * linking the two, even once the code's row is pruned; a grant's id (the portal shows it) says
 * nothing of its code.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { Effect } from "effect"
import { hashBearer } from "../http/Bearer.js"
import { redirectHost } from "./Clients.js"

export const CODE_SECONDS = 300
export const ACCESS_SECONDS = 3_600
export const REFRESH_DAYS = 30

const token = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`

/** PKCE S256: BASE64URL(SHA256(verifier)) equals the challenge, in constant time. */
export const pkceMatches = (verifier: string, challenge: string): boolean => {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false
  const a = Buffer.from(createHash("sha256").update(verifier).digest("base64url"))
  const b = Buffer.from(challenge)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The id of the grant a code's exchange makes: a UUID (version 8, RFC 9562) of the code's SHA-256. */
export const grantIdOf = (code: string): string => {
  const bytes = createHash("sha256").update(`oauth_concesion\0${code}`).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export interface CodeInput {
  readonly clientId: string
  readonly comercioId: string
  readonly usuarioId: string
  readonly mode: Mode
  readonly scopes: ReadonlyArray<string>
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: string
}

/** A new authorization code. */
export const issueCode = (input: CodeInput) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const code = token("swac_")
    yield* sql`
      insert into oauth_codigos (hash, client_id, comercio_id, usuario_id, mode, scopes, redirect_uri,
        code_challenge, resource, expires_at)
      values (${hashBearer(code)}, ${input.clientId}, ${input.comercioId}, ${input.usuarioId}, ${input.mode},
        ${input.scopes as Array<string>}, ${input.redirectUri}, ${input.codeChallenge}, ${input.resource},
        now() + make_interval(secs => ${CODE_SECONDS}))`
    return code
  }).pipe(Effect.orDie)

export interface Issued {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

const pair = (concesionId: string, scopes: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const access = token("swat_")
    const refresh = token("swrt_")
    yield* sql`
      insert into oauth_tokens (hash, concesion_id, tipo, expires_at) values
        (${hashBearer(access)}, ${concesionId}, 'acceso', now() + make_interval(secs => ${ACCESS_SECONDS})),
        (${hashBearer(refresh)}, ${concesionId}, 'refresco', now() + make_interval(days => ${REFRESH_DAYS}))`
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_SECONDS,
      refresh_token: refresh,
      scope: scopes.join(" ")
    } satisfies Issued
  })

export type TokenFailure = { readonly error: "invalid_grant" | "invalid_scope"; readonly detail: string }

/** Exchanges a code (RFC 6749 §4.1.3 with PKCE): a grant and its first tokens. */
export const exchangeCode = (input: {
  readonly code: string
  readonly clientId: string
  readonly redirectUri: string
  readonly verifier: string
  readonly resource: string | undefined
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // Single use: the first exchange marks it; a second finds it used, fails, and revokes
        // what the first one made (its tokens stop at once: each request reads the grant).
        const rows = yield* sql<{
          client_id: string
          comercio_id: string
          usuario_id: string
          mode: Mode
          scopes: ReadonlyArray<string>
          redirect_uri: string
          code_challenge: string
          resource: string
          nombre: string
        }>`
          update oauth_codigos k set usado_at = now()
          from oauth_clientes c
          where k.hash = ${hashBearer(input.code)} and k.usado_at is null and k.expires_at > now()
            and c.id = k.client_id
          returning k.client_id, k.comercio_id, k.usuario_id, k.mode, k.scopes, k.redirect_uri,
            k.code_challenge, k.resource, c.nombre`
        const row = rows[0]
        const bad = (detail: string): TokenFailure => ({ error: "invalid_grant", detail })
        if (row === undefined) {
          const revoked = yield* sql`
            update oauth_concesiones set revoked_at = coalesce(revoked_at, now())
            where id = ${grantIdOf(input.code)} returning id`
          return bad(
            revoked.length > 0
              ? "el código ya se usó: la autorización que dio fue revocada"
              : "el código no existe, expiró o ya se usó"
          )
        }
        if (row.client_id !== input.clientId) return bad("el código es de otro cliente")
        if (row.redirect_uri !== input.redirectUri) return bad("redirect_uri no es el de la autorización")
        if (!pkceMatches(input.verifier, row.code_challenge))
          return bad("code_verifier no corresponde (PKCE)")
        if (input.resource !== undefined && input.resource !== row.resource)
          return bad("resource no es el de la autorización")
        const id = grantIdOf(input.code)
        yield* sql`
          insert into oauth_concesiones (id, comercio_id, usuario_id, client_id, client_nombre, redirect_host,
            mode, scopes, resource)
          values (${id}, ${row.comercio_id}, ${row.usuario_id}, ${row.client_id}, ${row.nombre},
            ${redirectHost(row.redirect_uri)}, ${row.mode}, ${row.scopes as Array<string>}, ${row.resource})`
        return yield* pair(id, row.scopes)
      })
    )
  }).pipe(Effect.orDie)

/** Rotates a refresh token; a reused one revokes its whole grant. */
export const refresh = (input: {
  readonly refreshToken: string
  readonly clientId: string
  readonly scopes: ReadonlyArray<string> | undefined
  readonly resource: string | undefined
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<{
          concesion_id: string
          rotado: boolean
          vigente: boolean
          client_id: string
          scopes: ReadonlyArray<string>
          resource: string
          revoked: boolean
        }>`
          select t.concesion_id, t.rotado_at is not null as rotado, t.expires_at > now() as vigente,
            g.client_id, g.scopes, g.resource, g.revoked_at is not null as revoked
          from oauth_tokens t join oauth_concesiones g on g.id = t.concesion_id
          where t.hash = ${hashBearer(input.refreshToken)} and t.tipo = 'refresco'
          for update of t, g`
        const row = rows[0]
        const bad = (detail: string): TokenFailure => ({ error: "invalid_grant", detail })
        if (row === undefined || row.revoked || !row.vigente) return bad("el refresh_token no es válido")
        if (row.client_id !== input.clientId) return bad("el refresh_token es de otro cliente")
        if (row.rotado) {
          // Reuse of a rotated token: someone holds a copy. End the whole family.
          yield* sql`update oauth_concesiones set revoked_at = now() where id = ${row.concesion_id}`
          return bad("el refresh_token ya se usó: la autorización fue revocada")
        }
        if (input.resource !== undefined && input.resource !== row.resource)
          return bad("resource no es el de la autorización")
        const scopes = input.scopes ?? row.scopes
        // RFC 6749 §6: a scope beyond the grant's is invalid_scope.
        if (!scopes.every((s) => row.scopes.includes(s)))
          return {
            error: "invalid_scope",
            detail: "scope pide más de lo autorizado"
          } satisfies TokenFailure
        yield* sql`update oauth_tokens set rotado_at = now() where hash = ${hashBearer(input.refreshToken)}`
        return yield* pair(row.concesion_id, scopes)
      })
    )
  }).pipe(Effect.orDie)

/**
 * Revocation (RFC 7009) by the client: a refresh token ends its grant, an access token itself.
 * Unknown tokens, or another client's, change nothing (the answer is the same).
 */
export const revokeToken = (tokenValue: string, clientId: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ tipo: string; concesion_id: string; client_id: string }>`
      select t.tipo, t.concesion_id, g.client_id from oauth_tokens t
      join oauth_concesiones g on g.id = t.concesion_id where t.hash = ${hashBearer(tokenValue)}`
    const row = rows[0]
    if (row === undefined || (clientId !== undefined && clientId !== row.client_id)) return
    if (row.tipo === "refresco")
      yield* sql`update oauth_concesiones set revoked_at = coalesce(revoked_at, now()) where id = ${row.concesion_id}`
    else yield* sql`delete from oauth_tokens where hash = ${hashBearer(tokenValue)}`
  }).pipe(Effect.orDie)

export interface GrantView {
  readonly id: string
  readonly client_id: string
  readonly nombre: string
  readonly redirect_host: string
  readonly mode: Mode
  readonly scopes: ReadonlyArray<string>
  readonly usuario_email: string
  readonly created_at: string
  readonly last_used_at: string | null
}

/** The merchant's live grants, newest first; a user who is not `propietario` sees only its own. */
export const listGrants = (comercioId: string, usuarioId: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      id: string
      client_id: string
      client_nombre: string
      redirect_host: string
      mode: Mode
      scopes: ReadonlyArray<string>
      email: string
      created_at: Date
      last_used_at: Date | null
    }>`
      select g.id, g.client_id, g.client_nombre, g.redirect_host, g.mode, g.scopes, u.email, g.created_at,
        g.last_used_at
      from oauth_concesiones g join usuarios u on u.id = g.usuario_id
      where g.comercio_id = ${comercioId} and g.revoked_at is null
        and ${usuarioId === undefined ? sql`true` : sql`g.usuario_id = ${usuarioId}`}
      order by g.created_at desc limit 200`
    return rows.map(
      (r): GrantView => ({
        id: r.id,
        client_id: r.client_id,
        nombre: r.client_nombre,
        redirect_host: r.redirect_host,
        mode: r.mode,
        scopes: r.scopes,
        usuario_email: r.email,
        created_at: new Date(r.created_at).toISOString(),
        last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString()
      })
    )
  }).pipe(Effect.orDie)

/** Revokes a grant of the merchant (a user who is not `propietario`: only its own); whether it was live. */
export const revokeGrant = (comercioId: string, id: string, usuarioId: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false
    const rows = yield* sql`
      update oauth_concesiones set revoked_at = now()
      where id = ${id} and comercio_id = ${comercioId} and revoked_at is null
        and ${usuarioId === undefined ? sql`true` : sql`usuario_id = ${usuarioId}`}
      returning id`
    return rows.length > 0
  }).pipe(Effect.orDie)

/** Self-introspection (RFC 7662 shape) of an access token, for the MCP resource server. */
export const introspect = (tokenValue: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      client_id: string
      scopes: ReadonlyArray<string>
      resource: string
      mode: Mode
      codigo: string
      exp: number
    }>`
      select g.client_id, g.scopes, g.resource, g.mode, c.codigo,
        floor(extract(epoch from t.expires_at))::int as exp
      from oauth_tokens t join oauth_concesiones g on g.id = t.concesion_id
      join comercios c on c.id = g.comercio_id
      where t.hash = ${hashBearer(tokenValue)} and t.tipo = 'acceso' and t.expires_at > now()
        and g.revoked_at is null`
    const row = rows[0]
    if (row === undefined) return { active: false as const }
    return {
      active: true as const,
      client_id: row.client_id,
      scope: row.scopes.join(" "),
      aud: row.resource,
      exp: Number(row.exp),
      token_type: "Bearer",
      comercio: row.codigo,
      mode: row.mode
    }
  }).pipe(Effect.orDie)
