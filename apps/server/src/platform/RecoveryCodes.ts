/**
 * A portal user's recovery codes (issue 45): ten one-use codes, each `xxxxx-xxxxx` of letters
 * and digits that cannot be mistaken for one another, shown once when the second factor is
 * confirmed or when the user makes them again (which spends the old ones). Only an HMAC of each
 * (keyed by the server secret, bound to the user's id) is stored; a code signs in once in place
 * of a TOTP code, spent in the same statement that finds it, so two racing sign-ins cannot both
 * use it.
 */
import { createHmac, randomInt } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"

export const COUNT = 10
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
const FORMAT = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/

/** A fresh code: two groups of 5 characters, about 49 bits. */
export const newCode = (): string => {
  let out = ""
  for (let i = 0; i < 10; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return `${out.slice(0, 5)}-${out.slice(5)}`
}

/** A typed code as stored: lower case, without spaces, with its hyphen; undefined if not a code's shape. */
export const normalize = (typed: string): string | undefined => {
  const bare = typed.toLowerCase().replace(/[\s-]/g, "")
  const code = `${bare.slice(0, 5)}-${bare.slice(5)}`
  return FORMAT.test(code) ? code : undefined
}

/** Whether a typed sign-in code looks like a recovery code rather than a 6-digit TOTP code. */
export const looksLikeRecovery = (typed: string): boolean => normalize(typed) !== undefined

const hashOf = (serverSecret: Redacted.Redacted<string>, usuarioId: string, code: string) =>
  createHmac("sha256", Redacted.value(serverSecret)).update(`recuperacion:${usuarioId}:${code}`).digest("hex")

/** Makes the user's ten codes, replacing any earlier ones (used or not); answers them, to show once. */
export const issue = (
  serverSecret: Redacted.Redacted<string>,
  usuarioId: string
): Effect.Effect<ReadonlyArray<string>, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const codes = Array.from({ length: COUNT }, newCode)
    const rows = codes.map((code) => ({ usuario_id: usuarioId, hash: hashOf(serverSecret, usuarioId, code) }))
    yield* sql.withTransaction(
      Effect.all([
        sql`delete from codigos_recuperacion where usuario_id = ${usuarioId}`,
        sql`insert into codigos_recuperacion ${sql.insert(rows)}`
      ])
    )
    return codes
  }).pipe(Effect.orDie)

/** Spends `typed` if it is one of the user's unused codes; whether it was. */
export const spend = (
  serverSecret: Redacted.Redacted<string>,
  usuarioId: string,
  typed: string
): Effect.Effect<boolean, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const code = normalize(typed)
    if (code === undefined) return false
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      update codigos_recuperacion set usado_at = now()
      where usuario_id = ${usuarioId} and hash = ${hashOf(serverSecret, usuarioId, code)} and usado_at is null
      returning usuario_id`
    return rows.length > 0
  }).pipe(Effect.orDie)

/** How many unused codes the user has left. */
export const remaining = (usuarioId: string): Effect.Effect<number, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number }>`
      select count(*)::int as n from codigos_recuperacion where usuario_id = ${usuarioId} and usado_at is null`
    return rows[0]?.n ?? 0
  }).pipe(Effect.orDie)

/** Forgets the user's codes (the second factor was removed). */
export const forget = (usuarioId: string): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`delete from codigos_recuperacion where usuario_id = ${usuarioId}`
  ).pipe(Effect.asVoid, Effect.orDie)
