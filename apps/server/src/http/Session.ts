/**
 * Portal sessions as the authentication middleware sees them (DESIGN §8): the cookie's token is
 * looked up by its SHA-256, and a live session (not ended, before its absolute expiry, used
 * within its idle time) becomes the caller, with its merchant, its mode and its user. Looking it
 * up touches `last_seen_at`, in the same statement, so idle time counts from the last request.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Caller, Mode, SessionUser } from "@switch/api"
import { Effect, Option } from "effect"

/** A session ends after this long without a request. */
export const IDLE_MINUTES = 30
/** A session ends this long after sign-in, however busy. */
export const ABSOLUTE_HOURS = 12

/** A new random token (the cookie's value) or CSRF token: 32 bytes, base64url. */
export const newToken = () => randomBytes(32).toString("base64url")

/** What the database keeps of a token. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex")

/** Whether a request's CSRF header matches the session's token, in constant time. */
export const csrfMatches = (sent: string | undefined, expected: string) => {
  if (sent === undefined) return false
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

interface SessionRow {
  readonly sesion_id: string
  readonly csrf: string
  readonly mode: Mode
  readonly usuario_id: string
  readonly email: string
  readonly rol: SessionUser["rol"]
  readonly comercio_id: string
  readonly codigo: string
}

/** The caller of a session token; none when unknown, ended, expired or idle too long. */
export const lookupSession = (
  token: string
): Effect.Effect<Option.Option<Caller>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<SessionRow>`
        update sesiones s set last_seen_at = now()
        from usuarios u join comercios c on c.id = u.comercio_id
        where s.token_hash = ${hashToken(token)} and u.id = s.usuario_id
          and s.ended_at is null and s.expires_at > now()
          and s.last_seen_at > now() - make_interval(mins => ${IDLE_MINUTES})
        returning s.id as sesion_id, s.csrf, s.mode, u.id as usuario_id, u.email, u.rol,
          c.id as comercio_id, c.codigo`,
      (rows) => {
        const row = rows[0]
        if (row === undefined) return Option.none<Caller>()
        return Option.some<Caller>({
          comercioId: row.comercio_id,
          codigo: row.codigo,
          mode: row.mode,
          llaveId: `sesion:${row.sesion_id}`,
          sesion: {
            sesionId: row.sesion_id,
            usuarioId: row.usuario_id,
            email: row.email,
            rol: row.rol,
            csrf: row.csrf
          }
        })
      }
    )
  ).pipe(Effect.orDie)
