/**
 * Portal sign-in and sessions (DESIGN §8): sign in with e-mail and password, see the session,
 * switch its mode, sign out here or everywhere.
 *
 * Guessing is limited per account (the e-mail as typed, folded) from one address, per account
 * from every address and per address (platform/Guesses.ts `PORTAL`). Each attempt is claimed
 * before its password is checked, so concurrent attempts cannot all slip under the limit; past a
 * limit every attempt is refused with one message, whether or not the e-mail has a user, and so
 * is a wrong password for an unknown e-mail (with the same scrypt work spent). A sign-in that
 * passes takes its claim back. A sign-in always makes a new session with a
 * new token and ends the one the request came with, so a token planted before sign-in is
 * worth nothing after it (session fixation).
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { type Caller, Forbidden, type Mode, type Sesiones, TooManyRequests, Unauthorized } from "@switch/api"
import { Context, Effect, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import { ABSOLUTE_HOURS, hashToken, newToken } from "../http/Session.js"
import { recordActivity } from "../platform/Activity.js"
import * as Guesses from "../platform/Guesses.js"
import { verifyNone, verifyPassword } from "../platform/Passwords.js"
import * as RecoveryCodes from "../platform/RecoveryCodes.js"
import { acceptCode } from "../platform/UserTotp.js"

type SesionView = typeof Sesiones.Sesion.Type

const wrong = () => new Unauthorized({ detail: "Correo o contraseña incorrectos." })
const locked = () =>
  new TooManyRequests({
    detail: `Demasiados intentos fallidos. Espera ${Guesses.PORTAL.windowMinutes} minutos e intenta de nuevo.`,
    reintentar_en: Guesses.PORTAL.windowMinutes * 60
  })

export interface SignedIn {
  readonly token: string
  readonly sesion: SesionView
}

export class SesionesService extends Context.Tag("@switch/server/SesionesService")<
  SesionesService,
  {
    readonly iniciar: (
      body: typeof Sesiones.IniciarSesionBody.Type,
      ip: string,
      previousToken: string | undefined
    ) => Effect.Effect<SignedIn, Unauthorized | Forbidden | TooManyRequests>
    readonly actual: (caller: Caller) => Effect.Effect<SesionView, Unauthorized>
    readonly cerrar: (caller: Caller) => Effect.Effect<number, Unauthorized>
    readonly cerrarTodas: (caller: Caller) => Effect.Effect<number, Unauthorized>
    readonly modo: (caller: Caller, mode: Mode) => Effect.Effect<SesionView, Unauthorized | Forbidden>
    /**
     * Housekeeping: forgets failed sign-ins, wrong codes given to turn TOTP off, and sessions
     * over for more than a day.
     */
    readonly prune: Effect.Effect<void>
  }
>() {}

interface ViewRow {
  readonly usuario_id: string
  readonly email: string
  readonly rol: SesionView["usuario"]["rol"]
  readonly codigo: string
  readonly nombre: string
  readonly estado: string
  readonly aprobado_at: Date | null
  readonly totp: boolean
  readonly mode: Mode
  readonly csrf: string
  readonly expires_at: Date
}

const toView = (row: ViewRow): SesionView => ({
  usuario: { id: row.usuario_id, email: row.email, rol: row.rol },
  comercio: { codigo: row.codigo, nombre: row.nombre, estado: row.estado },
  mode: row.mode,
  aprobado: approved(row),
  totp: row.totp,
  csrf_token: row.csrf,
  expira_en: row.expires_at.toISOString()
})

/** Live mode opens once an operator approved the merchant, and not while it is suspended. */
const approved = (row: { readonly aprobado_at: Date | null; readonly estado: string }) =>
  row.aprobado_at !== null && row.estado === "activo"

const onlySession = () =>
  new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." })

const sessionOf = (caller: Caller) =>
  caller.sesion === undefined ? Effect.fail(onlySession()) : Effect.succeed(caller.sesion)

export const SesionesServiceLive = Layer.effect(
  SesionesService,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings

    const provideSql = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql)

    const view = (sesionId: string) =>
      Effect.map(
        sql<ViewRow>`
          select u.id as usuario_id, u.email, u.rol, c.codigo, c.nombre, c.estado, c.aprobado_at,
            u.totp_secreto is not null as totp, s.mode, s.csrf, s.expires_at
          from sesiones s join usuarios u on u.id = s.usuario_id join comercios c on c.id = u.comercio_id
          where s.id = ${sesionId}`,
        (rows) => toView(rows[0] as ViewRow)
      ).pipe(Effect.orDie)

    const iniciar = (
      body: typeof Sesiones.IniciarSesionBody.Type,
      ip: string,
      previous: string | undefined
    ) =>
      Effect.gen(function* () {
        const email = body.email.trim().toLowerCase()
        const users = yield* sql<{
          id: string
          comercio_id: string
          email: string
          hash: string | null
          totp_secreto: string | null
          totp_ultimo_paso: string | null
        }>`
          select id, comercio_id, email, hash, totp_secreto, totp_ultimo_paso from usuarios where lower(email) = ${email}`
        const user = users[0]
        // The audit log of a known user's sign-ins; an unknown e-mail belongs to no merchant.
        const audit = (accion: string, resultado: number) =>
          user === undefined
            ? Effect.void
            : provideSql(
                recordActivity({
                  comercioId: user.comercio_id,
                  usuarioId: user.id,
                  email: user.email,
                  accion,
                  objeto: null,
                  ip,
                  resultado
                })
              )
        const claimed = yield* provideSql(Guesses.claim(Guesses.PORTAL, email, ip))
        if (Option.isNone(claimed)) {
          yield* audit("ingreso_bloqueado", 429)
          return yield* Effect.fail(locked())
        }
        // The claim stays as this attempt's failure unless it signs in (or only lacks its code).
        const giveBack = provideSql(Guesses.release(Guesses.PORTAL, claimed.value))
        // A user without a password yet (invited, or an owner who signed up without one) cannot sign in.
        const hash = user?.hash ?? null
        const ok = yield* Effect.promise(() =>
          hash === null ? verifyNone(body.password) : verifyPassword(body.password, hash)
        )
        if (!ok || user === undefined) {
          yield* audit("ingreso_fallido", 401)
          return yield* Effect.fail(wrong())
        }
        // The second factor, after the password: a wrong or replayed code counts as a failed sign-in.
        if (user.totp_secreto !== null) {
          if (body.codigo === undefined || body.codigo === "") {
            yield* giveBack
            return yield* Effect.fail(
              new Forbidden({
                error: "codigo_requerido",
                detail: "Escribe el código de 6 dígitos de tu app de autenticación."
              })
            )
          }
          const last = user.totp_ultimo_paso === null ? null : Number(user.totp_ultimo_paso)
          // A recovery code serves once in place of the app's code, under the same limits.
          const recovery = RecoveryCodes.looksLikeRecovery(body.codigo)
          const accepted = yield* provideSql(
            recovery
              ? RecoveryCodes.spend(settings.secret, user.id, body.codigo)
              : acceptCode(settings.secret, user.id, user.totp_secreto, last, body.codigo)
          )
          if (accepted && recovery) yield* audit("ingreso_codigo_recuperacion", 200)
          if (!accepted) {
            yield* audit("ingreso_fallido_codigo", 401)
            return yield* Effect.fail(
              new Unauthorized({ detail: "El código no es válido o ya se usó. Espera el siguiente." })
            )
          }
        }
        yield* giveBack
        const id = randomUUID()
        const token = newToken()
        yield* sql.withTransaction(
          Effect.gen(function* () {
            if (previous !== undefined && previous !== "")
              yield* sql`update sesiones set ended_at = now() where token_hash = ${hashToken(previous)} and ended_at is null`
            yield* sql`
              insert into sesiones (id, token_hash, usuario_id, csrf, ip, expires_at)
              values (${id}, ${hashToken(token)}, ${user.id}, ${newToken()}, ${ip},
                now() + make_interval(hours => ${ABSOLUTE_HOURS}))`
          })
        )
        yield* audit("ingreso", 200)
        return { token, sesion: yield* view(id) }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const actual = (caller: Caller) => Effect.flatMap(sessionOf(caller), (s) => view(s.sesionId))

    const cerrar = (caller: Caller) =>
      Effect.flatMap(sessionOf(caller), (s) =>
        Effect.map(
          sql`update sesiones set ended_at = now() where id = ${s.sesionId} and ended_at is null returning id`,
          (rows) => rows.length
        ).pipe(Effect.orDie)
      )

    const cerrarTodas = (caller: Caller) =>
      Effect.flatMap(sessionOf(caller), (s) =>
        Effect.map(
          sql`update sesiones set ended_at = now() where usuario_id = ${s.usuarioId} and ended_at is null returning id`,
          (rows) => rows.length
        ).pipe(Effect.orDie)
      )

    const modo = (caller: Caller, mode: Mode) =>
      Effect.gen(function* () {
        const s = yield* sessionOf(caller)
        if (mode === "live") {
          const [merchant] = yield* sql<{ aprobado_at: Date | null; estado: string }>`
            select aprobado_at, estado from comercios where id = ${caller.comercioId}`
          if (merchant === undefined || !approved(merchant))
            return yield* Effect.fail(
              new Forbidden({
                error: "comercio_no_aprobado",
                detail: "El modo live se habilita cuando Switch aprueba el comercio."
              })
            )
          // Live mode only for an e-mail shown to be the user's (issue 45): the link mailed at sign-up.
          const [user] = yield* sql<{ rol: string; totp: boolean; verificado: boolean }>`
            select rol, totp_secreto is not null as totp, correo_verificado_at is not null as verificado
            from usuarios where id = ${s.usuarioId}`
          if (user !== undefined && !user.verificado)
            return yield* Effect.fail(
              new Forbidden({
                error: "correo_no_verificado",
                detail:
                  "Confirma tu correo con el enlace que te enviamos al registrarte antes de pasar a modo live. Si no te llegó, pide uno en «Olvidé mi contraseña»: usarlo también lo confirma."
              })
            )
          // An owner reaches live money only with a second factor.
          if (user?.rol === "propietario" && !user.totp)
            return yield* Effect.fail(
              new Forbidden({
                error: "totp_requerido",
                detail: "Para usar el modo live, activa primero tu segundo factor (TOTP) en Seguridad."
              })
            )
        }
        yield* sql`update sesiones set mode = ${mode} where id = ${s.sesionId}`
        return yield* view(s.sesionId)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const prune = Effect.all([
      sql`delete from intentos_ingreso where created_at < now() - interval '1 day'`,
      sql`delete from intentos_totp where created_at < now() - interval '1 day'`,
      sql`
        delete from sesiones
        where ended_at < now() - interval '1 day' or expires_at < now() - interval '1 day'
          or last_seen_at < now() - interval '1 day'`
    ]).pipe(Effect.asVoid, Effect.orDie)

    return { iniciar, actual, cerrar, cerrarTodas, modo, prune }
  })
)
