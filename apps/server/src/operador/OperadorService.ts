/**
 * Operators (issue 32, DESIGN §8): accounts apart from merchants' users, created with the admin
 * token; sign-in always asks for password AND a TOTP code, so an operator without its
 * authenticator never gets a session. Failed sign-ins (a wrong password or a wrong code) are
 * limited per e-mail from one address, per e-mail from every address and per address
 * (platform/Guesses.ts `OPERADOR`), each attempt claimed before its password and code are
 * checked; past a limit every attempt is refused with one message. A code is accepted once (the
 * step it matched is stored by a conditional update, so a replayed code fails even when two
 * sign-ins race).
 *
 * An operator whose TOTP a `riesgo` operator reset (Operadores.ts) enrols again here, at its next
 * sign-in (issue 41): with the right password and no code, the answer is a fresh secret for it
 * alone ({@link Ingreso} `Enrolar`, no session); its first good code of that secret opens the
 * session and ends the enrolment. Nobody else ever sees the secret.
 *
 * Sessions: a random token in its own cookie (never the merchants'), looked up by its SHA-256,
 * with a CSRF token for unsafe methods, {@link IDLE_MINUTES} minutes idle and
 * {@link ABSOLUTE_HOURS} hours absolute.
 *
 * The audit log (`auditoria`) is append-only (a trigger refuses UPDATE and DELETE); an action and
 * its audit row commit in one transaction.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { hashToken, newToken } from "../http/Session.js"
import * as Guesses from "../platform/Guesses.js"
import { hashPassword, verifyNone, verifyPassword } from "../platform/Passwords.js"
import { newTotpSecret, totpUri, verifyTotp } from "../platform/Totp.js"

export const ROLES = ["soporte", "riesgo", "tesoreria"] as const
export type Rol = (typeof ROLES)[number]

export const IDLE_MINUTES = 15
export const ABSOLUTE_HOURS = 8

/** An operator-side failure with its status and SPEC-shaped body `{error, detail?}`. */
export class OperadorError extends Schema.TaggedError<OperadorError>()("OperadorError", {
  status: Schema.Number,
  error: Schema.String,
  detail: Schema.optional(Schema.Unknown),
  reintentar_en: Schema.optional(Schema.Number)
}) {
  static validation = (detail: unknown) => new OperadorError({ status: 400, error: "validation", detail })
  static unauthorized = (detail: string) => new OperadorError({ status: 401, error: "unauthorized", detail })
  static forbidden = (error: string, detail: string) => new OperadorError({ status: 403, error, detail })
  static notFound = () => new OperadorError({ status: 404, error: "not_found" })
  static conflict = (error: string, detail: string) => new OperadorError({ status: 409, error, detail })
}

export interface Operador {
  readonly id: string
  readonly email: string
  readonly rol: Rol
}

export interface OperadorSession extends Operador {
  readonly sesionId: string
  readonly csrf: string
  readonly expiresAt: Date
}

export interface AuditEntry {
  readonly accion: string
  readonly objeto_tipo: string
  readonly objeto_id: string
  readonly antes?: unknown
  readonly despues?: unknown
  readonly nota?: string | undefined
}

export interface AuditRow {
  readonly id: number
  readonly operador_id: string | null
  readonly actor: string
  readonly accion: string
  readonly objeto_tipo: string
  readonly objeto_id: string
  readonly antes: unknown
  readonly despues: unknown
  readonly nota: string | null
  readonly created_at: Date
}

const CreateBody = Schema.Struct({
  email: Schema.String.pipe(Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/), Schema.maxLength(254)),
  password: Schema.String.pipe(Schema.minLength(12), Schema.maxLength(200)),
  rol: Schema.Literal(...ROLES)
})

const SignInBody = Schema.Struct({
  email: Schema.String.pipe(Schema.maxLength(254)),
  password: Schema.String.pipe(Schema.maxLength(200)),
  codigo: Schema.optional(Schema.String.pipe(Schema.maxLength(16)))
})

export const decodeBody =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (input: unknown): Effect.Effect<A, OperadorError> =>
    Schema.decodeUnknown(schema, { onExcessProperty: "error" })(input).pipe(
      Effect.mapError((e) => OperadorError.validation(e.message)),
      // Postgres text and jsonb cannot hold U+0000: refused here, not a 500 when the audit row is written.
      Effect.filterOrFail(
        (decoded) => !(JSON.stringify(decoded) ?? "").includes("\\u0000"),
        () => OperadorError.validation("El texto no puede contener el carácter nulo (U+0000).")
      )
    )

const wrong = () => OperadorError.unauthorized("Correo, contraseña o código incorrectos.")
const locked = () =>
  new OperadorError({
    status: 429,
    error: "demasiadas_solicitudes",
    detail: `Demasiados intentos fallidos. Espera ${Guesses.OPERADOR.windowMinutes} minutos e intenta de nuevo.`,
    reintentar_en: Guesses.OPERADOR.windowMinutes * 60
  })

/** A sign-in's outcome: a session, or (TOTP reset) the new secret to enrol, shown to the operator only. */
export type Ingreso =
  | { readonly _tag: "Sesion"; readonly token: string; readonly sesion: OperadorSession }
  | { readonly _tag: "Enrolar"; readonly totp_secret: string; readonly totp_uri: string }

export class OperadorService extends Context.Tag("@switch/server/OperadorService")<
  OperadorService,
  {
    /** A new operator, with its TOTP secret shown this once. */
    readonly crear: (
      body: unknown
    ) => Effect.Effect<
      Operador & { readonly activo: boolean; readonly totp_secret: string; readonly totp_uri: string },
      OperadorError
    >
    readonly iniciar: (
      body: unknown,
      ip: string,
      previousToken: string | undefined
    ) => Effect.Effect<Ingreso, OperadorError>
    /** The live session of a cookie's token (touching its idle clock), if any. */
    readonly sesion: (token: string) => Effect.Effect<Option.Option<OperadorSession>>
    readonly cerrar: (sesion: OperadorSession) => Effect.Effect<void>
    /** Writes one audit row; run it in the action's transaction. */
    readonly auditar: (who: Operador | "admin", entry: AuditEntry) => Effect.Effect<void>
    readonly auditoria: (options: {
      readonly limit: number
      readonly startingAfter: number | undefined
      readonly objetoTipo?: string | undefined
      readonly objetoId?: string | undefined
    }) => Effect.Effect<{ readonly data: ReadonlyArray<AuditRow>; readonly has_more: boolean }>
    readonly prune: Effect.Effect<void>
  }
>() {}

interface SessionRow {
  readonly sesion_id: string
  readonly csrf: string
  readonly expires_at: Date
  readonly operador_id: string
  readonly email: string
  readonly rol: Rol
}

const toSession = (row: SessionRow): OperadorSession => ({
  sesionId: row.sesion_id,
  csrf: row.csrf,
  expiresAt: row.expires_at,
  id: row.operador_id,
  email: row.email,
  rol: row.rol
})

export const OperadorServiceLive = Layer.effect(
  OperadorService,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const crear = (input: unknown) =>
      Effect.gen(function* () {
        const body = yield* decodeBody(CreateBody)(input)
        const email = body.email.trim().toLowerCase()
        const hash = yield* Effect.promise(() => hashPassword(body.password))
        const secret = newTotpSecret()
        const id = randomUUID()
        const rows = yield* sql<{ id: string }>`
          insert into operadores (id, email, hash, totp_secret, rol)
          values (${id}, ${email}, ${hash}, ${secret}, ${body.rol})
          on conflict do nothing returning id`
        if (rows.length === 0)
          return yield* Effect.fail(
            OperadorError.conflict("operador_existe", "Ya hay un operador con ese correo.")
          )
        return {
          id,
          email,
          rol: body.rol,
          activo: true,
          totp_secret: secret,
          totp_uri: totpUri(secret, email, "Switch Operador")
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const sesionRow = (where: { readonly id: string }) =>
      Effect.map(
        sql<SessionRow>`
          select s.id as sesion_id, s.csrf, s.expires_at, o.id as operador_id, o.email, o.rol
          from sesiones_operador s join operadores o on o.id = s.operador_id where s.id = ${where.id}`,
        (rows) => toSession(rows[0] as SessionRow)
      )

    const iniciar = (input: unknown, ip: string, previous: string | undefined) =>
      Effect.gen(function* () {
        const body = yield* decodeBody(SignInBody)(input)
        const email = body.email.trim().toLowerCase()
        const guess = yield* Effect.provideService(
          Guesses.claim(Guesses.OPERADOR, email, ip),
          SqlClient.SqlClient,
          sql
        )
        // The claim stays as this attempt's failure unless it signs in.
        if (Option.isNone(guess)) return yield* Effect.fail(locked())
        const found = yield* sql<{
          id: string
          hash: string
          totp_secret: string
          totp_ultimo_paso: number
          totp_enrolar: boolean
        }>`
          select id, hash, totp_secret, totp_ultimo_paso, totp_enrolar from operadores
          where lower(email) = ${email} and activo`
        const operador = found[0]
        const passwordOk = yield* Effect.promise(() =>
          operador === undefined ? verifyNone(body.password) : verifyPassword(body.password, operador.hash)
        )
        // TOTP reset: the right password without a code gets a fresh secret, for this operator only.
        // The password was right: no failure to count.
        if (operador !== undefined && passwordOk && operador.totp_enrolar && body.codigo === undefined) {
          yield* Effect.provideService(
            Guesses.release(Guesses.OPERADOR, guess.value),
            SqlClient.SqlClient,
            sql
          )
          return yield* enrolar(operador.id, email)
        }
        // No code, no session: the second factor is never optional for an operator.
        const step =
          operador === undefined || body.codigo === undefined
            ? undefined
            : verifyTotp(operador.totp_secret, body.codigo, Date.now(), operador.totp_ultimo_paso)
        const claimed =
          operador === undefined || !passwordOk || step === undefined
            ? []
            : yield* sql`
                update operadores set totp_ultimo_paso = ${step}, totp_enrolar = false
                where id = ${operador.id} and totp_ultimo_paso < ${step} returning id`
        if (operador === undefined || claimed.length === 0) return yield* Effect.fail(wrong())
        yield* Effect.provideService(Guesses.release(Guesses.OPERADOR, guess.value), SqlClient.SqlClient, sql)
        const id = randomUUID()
        const token = newToken()
        yield* sql.withTransaction(
          Effect.gen(function* () {
            if (previous !== undefined && previous !== "")
              yield* sql`update sesiones_operador set ended_at = now() where token_hash = ${hashToken(previous)} and ended_at is null`
            yield* sql`
              insert into sesiones_operador (id, token_hash, operador_id, csrf, ip, expires_at)
              values (${id}, ${hashToken(token)}, ${operador.id}, ${newToken()}, ${ip},
                now() + make_interval(hours => ${ABSOLUTE_HOURS}))`
          })
        )
        return { _tag: "Sesion" as const, token, sesion: yield* sesionRow({ id }) }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** A fresh secret for an operator still enrolling: each one replaces the last shown. */
    const enrolar = (id: string, email: string) =>
      Effect.gen(function* () {
        const secret = newTotpSecret()
        yield* sql`
          update operadores set totp_secret = ${secret}, totp_ultimo_paso = 0 where id = ${id} and totp_enrolar`
        return {
          _tag: "Enrolar" as const,
          totp_secret: secret,
          totp_uri: totpUri(secret, email, "Switch Operador")
        }
      })

    const sesion = (token: string) =>
      Effect.map(
        sql<SessionRow>`
          update sesiones_operador s set last_seen_at = now()
          from operadores o
          where s.token_hash = ${hashToken(token)} and o.id = s.operador_id and o.activo
            and s.ended_at is null and s.expires_at > now()
            and s.last_seen_at > now() - make_interval(mins => ${IDLE_MINUTES})
          returning s.id as sesion_id, s.csrf, s.expires_at, o.id as operador_id, o.email, o.rol`,
        (rows) => (rows[0] === undefined ? Option.none<OperadorSession>() : Option.some(toSession(rows[0])))
      ).pipe(Effect.orDie)

    const cerrar = (s: OperadorSession) =>
      sql`update sesiones_operador set ended_at = now() where id = ${s.sesionId} and ended_at is null`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const auditar = (who: Operador | "admin", entry: AuditEntry) =>
      sql`
        insert into auditoria (operador_id, actor, accion, objeto_tipo, objeto_id, antes, despues, nota)
        values (${who === "admin" ? null : who.id}, ${who === "admin" ? "token_admin" : who.email}, ${entry.accion},
          ${entry.objeto_tipo}, ${entry.objeto_id},
          ${entry.antes === undefined ? null : JSON.stringify(entry.antes)}::jsonb,
          ${entry.despues === undefined ? null : JSON.stringify(entry.despues)}::jsonb,
          ${entry.nota ?? null})`.pipe(Effect.asVoid, Effect.orDie)

    const auditoria = (options: {
      readonly limit: number
      readonly startingAfter: number | undefined
      readonly objetoTipo?: string | undefined
      readonly objetoId?: string | undefined
    }) =>
      Effect.map(
        sql<AuditRow>`
          select id, operador_id, actor, accion, objeto_tipo, objeto_id, antes, despues, nota, created_at
          from auditoria
          where (${options.startingAfter ?? null}::bigint is null or id < ${options.startingAfter ?? null}::bigint)
            and (${options.objetoTipo ?? null}::text is null or objeto_tipo = ${options.objetoTipo ?? null}::text)
            and (${options.objetoId ?? null}::text is null or objeto_id = ${options.objetoId ?? null}::text)
          order by id desc limit ${options.limit + 1}`,
        (rows) => ({ data: rows.slice(0, options.limit), has_more: rows.length > options.limit })
      ).pipe(Effect.orDie)

    const prune = Effect.all([
      sql`delete from intentos_operador where created_at < now() - interval '1 day'`,
      sql`
        delete from sesiones_operador
        where ended_at < now() - interval '1 day' or expires_at < now() - interval '1 day'
          or last_seen_at < now() - interval '1 day'`
    ]).pipe(Effect.asVoid, Effect.orDie)

    return { crear, iniciar, sesion, cerrar, auditar, auditoria, prune }
  })
)
