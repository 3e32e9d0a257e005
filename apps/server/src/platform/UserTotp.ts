/**
 * Portal users' second factor (DESIGN §8) over platform/Totp.ts: secrets sealed at rest under
 * the server secret (purpose `totp`, bound to the user's id), and a code accepted only for a step
 * after the last one accepted, recorded in the same statement that checks it, so a code serves
 * once even when two requests race with it.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, type Redacted } from "effect"
import { open, seal } from "./Sealed.js"
import { verifyTotp } from "./Totp.js"

const PURPOSE = "totp"

export const sealTotp = (secret: Redacted.Redacted<string>, usuarioId: string, totp: string) =>
  seal(secret, PURPOSE, usuarioId, totp)

export const openTotp = (secret: Redacted.Redacted<string>, usuarioId: string, sealed: string) =>
  open(secret, PURPOSE, usuarioId, sealed)

/**
 * Whether `code` is the user's current code for the sealed `stored` secret and newer than the
 * last accepted one; when it is, it becomes the last accepted.
 */
export const acceptCode = (
  serverSecret: Redacted.Redacted<string>,
  usuarioId: string,
  stored: string,
  lastStep: number | null,
  code: string
): Effect.Effect<boolean, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const step = verifyTotp(openTotp(serverSecret, usuarioId, stored), code, now, lastStep ?? undefined)
    if (step === undefined) return false
    const rows = yield* sql`
      update usuarios set totp_ultimo_paso = ${step}
      where id = ${usuarioId} and (totp_ultimo_paso is null or totp_ultimo_paso < ${step})
      returning id`
    return rows.length > 0
  }).pipe(Effect.orDie)
