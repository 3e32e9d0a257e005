/**
 * A portal user's own second factor (DESIGN §8): enrol (a new secret shown once with its QR
 * code, drawn here as an SVG, kept pending until a code confirms it), confirm (which answers ten
 * recovery codes, shown once: platform/RecoveryCodes.ts), new recovery codes with a code, and
 * remove with a code. A code is accepted once (platform/UserTotp.ts); a wrong one is `400
 * codigo_invalido`.
 *
 * Removal and new recovery codes are what a stolen session would try codes on, so their wrong
 * codes are limited per user (platform/Guesses.ts `TOTP_DESACTIVAR`), each attempt claimed
 * before its code is checked: past the limit even the right code is `429` until the window passes.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import {
  BadRequest,
  type Caller,
  Conflict,
  CurrentCaller,
  SwitchApi,
  TooManyRequests,
  Unauthorized
} from "@switch/api"
import { Effect, Option } from "effect"
import QRCode from "qrcode"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { noStore } from "../http/Respond.js"
import * as Guesses from "../platform/Guesses.js"
import * as RecoveryCodes from "../platform/RecoveryCodes.js"
import { newTotpSecret, totpUri } from "../platform/Totp.js"
import { acceptCode, sealTotp } from "../platform/UserTotp.js"

const onlySession = () =>
  new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." })

const invalid = () =>
  new BadRequest({
    error: "codigo_invalido",
    detail: "El código no es válido o ya se usó. Espera el siguiente."
  })

const locked = () =>
  new TooManyRequests({
    detail: `Demasiados intentos fallidos. Espera ${Guesses.TOTP_DESACTIVAR.windowMinutes} minutos e intenta de nuevo.`,
    reintentar_en: Guesses.TOTP_DESACTIVAR.windowMinutes * 60
  })

export const TotpApiLive = HttpApiBuilder.group(SwitchApi, "totp", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const userOf = (caller: Caller) =>
      Effect.gen(function* () {
        if (caller.sesion === undefined) return yield* Effect.fail(onlySession())
        const [row] = yield* sql<{
          id: string
          email: string
          totp_secreto: string | null
          totp_pendiente: string | null
          totp_ultimo_paso: string | null
        }>`select id, email, totp_secreto, totp_pendiente, totp_ultimo_paso from usuarios where id = ${caller.sesion.usuarioId}`
        if (row === undefined) return yield* Effect.fail(onlySession())
        return row
      }).pipe(Effect.orDie)
    const accept = (id: string, stored: string, last: string | null, code: string) =>
      Effect.provideService(
        acceptCode(settings.secret, id, stored, last === null ? null : Number(last), code),
        SqlClient.SqlClient,
        sql
      )
    return handlers
      .handle("inscribir", () =>
        Effect.gen(function* () {
          // The secret is shown this once: no cache keeps it.
          yield* noStore
          const user = yield* userOf(yield* CurrentCaller)
          if (user.totp_secreto !== null)
            return yield* Effect.fail(
              new Conflict({
                error: "totp_ya_activo",
                detail: "Ya tienes un segundo factor activo; quítalo antes de inscribir otro."
              })
            )
          const secreto = newTotpSecret()
          yield* sql`update usuarios set totp_pendiente = ${sealTotp(settings.secret, user.id, secreto)} where id = ${user.id}`.pipe(
            Effect.orDie
          )
          const otpauth_uri = totpUri(secreto, user.email)
          const qr_svg = yield* Effect.promise(() =>
            QRCode.toString(otpauth_uri, { type: "svg", errorCorrectionLevel: "M", margin: 4 })
          )
          return { secreto, otpauth_uri, qr_svg }
        })
      )
      .handle("confirmar", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* userOf(yield* CurrentCaller)
          if (user.totp_pendiente === null) return yield* Effect.fail(invalid())
          if (!(yield* accept(user.id, user.totp_pendiente, user.totp_ultimo_paso, payload.codigo)))
            return yield* Effect.fail(invalid())
          // The recovery codes are shown this once: no cache keeps them.
          yield* noStore
          yield* sql`
            update usuarios set totp_secreto = totp_pendiente, totp_pendiente = null
            where id = ${user.id} and totp_pendiente = ${user.totp_pendiente}`.pipe(Effect.orDie)
          const codigos_recuperacion = yield* Effect.provideService(
            RecoveryCodes.issue(settings.secret, user.id),
            SqlClient.SqlClient,
            sql
          )
          return { totp: true, codigos_recuperacion }
        })
      )
      .handle("recuperacion", ({ payload }) =>
        Effect.gen(function* () {
          yield* noStore
          const user = yield* userOf(yield* CurrentCaller)
          if (user.totp_secreto === null) return yield* Effect.fail(invalid())
          const guess = yield* Effect.provideService(
            Guesses.claim(Guesses.TOTP_DESACTIVAR, user.email.toLowerCase(), yield* clientIp),
            SqlClient.SqlClient,
            sql
          )
          if (Option.isNone(guess)) return yield* Effect.fail(locked())
          if (!(yield* accept(user.id, user.totp_secreto, user.totp_ultimo_paso, payload.codigo)))
            return yield* Effect.fail(invalid())
          yield* Effect.provideService(
            Guesses.release(Guesses.TOTP_DESACTIVAR, guess.value),
            SqlClient.SqlClient,
            sql
          )
          const codigos_recuperacion = yield* Effect.provideService(
            RecoveryCodes.issue(settings.secret, user.id),
            SqlClient.SqlClient,
            sql
          )
          return { codigos_recuperacion }
        })
      )
      .handle("desactivar", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* userOf(yield* CurrentCaller)
          if (user.totp_secreto === null) return { totp: false }
          const guess = yield* Effect.provideService(
            Guesses.claim(Guesses.TOTP_DESACTIVAR, user.email.toLowerCase(), yield* clientIp),
            SqlClient.SqlClient,
            sql
          )
          if (Option.isNone(guess)) return yield* Effect.fail(locked())
          // The claim stays as a wrong code unless this one is right.
          if (!(yield* accept(user.id, user.totp_secreto, user.totp_ultimo_paso, payload.codigo)))
            return yield* Effect.fail(invalid())
          yield* Effect.provideService(
            Guesses.release(Guesses.TOTP_DESACTIVAR, guess.value),
            SqlClient.SqlClient,
            sql
          )
          // Without a second factor no session of the user stays in live mode (an owner needs one there).
          yield* sql
            .withTransaction(
              Effect.all([
                sql`update usuarios set totp_secreto = null, totp_pendiente = null where id = ${user.id}`,
                sql`delete from codigos_recuperacion where usuario_id = ${user.id}`,
                sql`update sesiones set mode = 'test' where usuario_id = ${user.id} and ended_at is null and mode = 'live'
                and exists (select 1 from usuarios where id = ${user.id} and rol = 'propietario')`
              ])
            )
            .pipe(Effect.orDie)
          return { totp: false }
        })
      )
  })
)
