/**
 * The team (DESIGN §8): one-time password links (platform/UserLinks.ts) and the owner's routes
 * to invite users, change roles and remove users.
 *
 * The forgotten-password answer is the same whether or not the e-mail has a user, and its mail
 * goes out after the answer, so neither the body nor the time tells. Setting a password through a
 * link forgets the account's failed sign-ins, from every address: they guessed at the old one.
 * A merchant always keeps one active `propietario` (one with a password): changing or removing
 * the last one is `409 ultimo_propietario`, decided under a lock on the merchant's users so two
 * owners demoting each other at once cannot both win. A removed user's sessions go with the
 * user, at once.
 *
 * An invitation answers alike whether or not the e-mail already has a user in another merchant,
 * so inviting is no way to learn who has an account. Such an invitation cannot make a user (e-mails
 * are unique, a user has one merchant): it is kept in `invitaciones_ajenas`, listed, changed and
 * removed as an invitation not yet accepted, and the e-mail's holder is told by mail
 * (platform/UserNotices.ts) instead of getting a link. Inviting an e-mail already in the team
 * (a user or such an invitation) is `409 usuario_duplicado`: the owner sees the team anyway.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import {
  BadRequest,
  type Caller,
  Conflict,
  type Equipo,
  NotFound,
  type Sesiones,
  Unauthorized,
  Unavailable
} from "@switch/api"
import { Context, Effect, Layer } from "effect"
import { Settings } from "../Config.js"
import * as Guesses from "../platform/Guesses.js"
import { Mailer, type MailUnavailable } from "../platform/Mailer.js"
import { hashPassword } from "../platform/Passwords.js"
import { DEFINEN_CONTRASENA, issueUserLink, useUserLink } from "../platform/UserLinks.js"
import { mailExistingUser } from "../platform/UserNotices.js"
import { isUuid } from "../platform/Uuid.js"

type Usuario = typeof Equipo.Usuario.Type
type Rol = Sesiones.Rol

export const OLVIDO_DETAIL =
  "Si el correo tiene un usuario en Switch, le enviamos un enlace para definir su contraseña."

const noMail = () =>
  new Unavailable({
    error: "correo_no_configurado",
    detail: "Este servicio no envía correos (falta SWITCH_SMTP_URL): pide ayuda a Switch."
  })

const onlySession = () =>
  new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." })

const lastOwner = () =>
  new Conflict({
    error: "ultimo_propietario",
    detail: "El comercio necesita al menos un propietario activo: nombra otro antes."
  })

const duplicate = () =>
  new Conflict({ error: "usuario_duplicado", detail: "Ese correo ya está en tu equipo." })

const notFound = () => new NotFound({ error: "not_found", detail: "No existe ese usuario en tu comercio." })

interface UserRow {
  readonly id: string
  readonly email: string
  readonly rol: Rol
  readonly activo: boolean
  readonly created_at: Date
}

const view = (row: UserRow): Usuario => ({
  id: row.id,
  email: row.email,
  rol: row.rol,
  estado: row.activo ? "activo" : "invitado",
  created_at: row.created_at.toISOString()
})

export class EquipoService extends Context.Tag("@switch/server/EquipoService")<
  EquipoService,
  {
    readonly olvido: (email: string) => Effect.Effect<typeof Equipo.OlvidoResult.Type, Unavailable>
    readonly definir: (
      body: typeof Equipo.DefinirBody.Type
    ) => Effect.Effect<typeof Equipo.ContrasenaDefinida.Type, BadRequest>
    /** Verifies the user's e-mail with the link mailed at a sign-up with a password (issue 45). */
    readonly verificarCorreo: (
      token: string
    ) => Effect.Effect<typeof Equipo.CorreoVerificado.Type, BadRequest>
    readonly list: (caller: Caller) => Effect.Effect<ReadonlyArray<Usuario>, Unauthorized>
    readonly invitar: (
      caller: Caller,
      body: typeof Equipo.InvitarBody.Type
    ) => Effect.Effect<Usuario, Unauthorized | Conflict | Unavailable>
    readonly cambiarRol: (
      caller: Caller,
      id: string,
      rol: Rol
    ) => Effect.Effect<Usuario, Unauthorized | NotFound | Conflict>
    readonly eliminar: (
      caller: Caller,
      id: string
    ) => Effect.Effect<typeof Equipo.UsuarioEliminado.Type, Unauthorized | NotFound | Conflict>
  }
>() {}

export const EquipoServiceLive = Layer.effect(
  EquipoService,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const settings = yield* Settings
    const provide = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Mailer | Settings>) =>
      effect.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Mailer, mailer),
        Effect.provideService(Settings, settings)
      )

    const sessionOf = (caller: Caller) =>
      caller.sesion === undefined ? Effect.fail(onlySession()) : Effect.succeed(caller.sesion)

    const olvido = (email: string) =>
      Effect.gen(function* () {
        if (!mailer.available) return yield* Effect.fail(noMail())
        const users = yield* sql<{ id: string }>`
          select id from usuarios where lower(email) = ${email.trim().toLowerCase()}`
        const user = users[0]
        if (user !== undefined)
          yield* Effect.forkDaemon(
            provide(issueUserLink(user.id, "restablecer")).pipe(
              Effect.catchAll((error) =>
                Effect.logWarning(`enlace de contraseña no enviado: ${error.reason}`)
              )
            )
          )
        return { ok: true as const, detail: OLVIDO_DETAIL }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const definir = (body: typeof Equipo.DefinirBody.Type) =>
      Effect.gen(function* () {
        const hash = yield* Effect.promise(() => hashPassword(body.password))
        const email = yield* sql.withTransaction(
          Effect.gen(function* () {
            const used = yield* provide(useUserLink(body.token, DEFINEN_CONTRASENA))
            if (used === undefined)
              return yield* Effect.fail(
                new BadRequest({
                  error: "enlace_invalido",
                  detail: "El enlace no sirve: ya se usó, venció o fue reemplazado por otro. Pide uno nuevo."
                })
              )
            const rows = yield* sql<{ email: string }>`
              update usuarios set hash = ${hash} where id = ${used.usuarioId} returning email`
            yield* sql`update sesiones set ended_at = now() where usuario_id = ${used.usuarioId} and ended_at is null`
            const email = rows[0]?.email ?? ""
            // Past failures guessed at the old password: the page says "ya puedes entrar", so no lock stays.
            yield* provide(Guesses.forget(Guesses.PORTAL, email.toLowerCase()))
            return email
          })
        )
        return { ok: true as const, email }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const verificarCorreo = (token: string) =>
      Effect.gen(function* () {
        const used = yield* provide(useUserLink(token, ["verificar"]))
        if (used === undefined)
          return yield* Effect.fail(
            new BadRequest({
              error: "enlace_invalido",
              detail:
                "El enlace no sirve: ya se usó, venció o fue reemplazado por otro. Para confirmar tu correo, pide un enlace en «Olvidé mi contraseña»."
            })
          )
        return { ok: true as const, email: used.email }
      })

    const list = (caller: Caller) =>
      Effect.flatMap(sessionOf(caller), () =>
        sql<UserRow>`
          select id, email, rol, hash is not null as activo, created_at from usuarios
          where comercio_id = ${caller.comercioId}
          union all
          select id, email, rol, false as activo, created_at from invitaciones_ajenas
          where comercio_id = ${caller.comercioId}
          order by created_at, email`.pipe(
          Effect.map((rows) => rows.map(view)),
          Effect.orDie
        )
      )

    /** No mail, no invitation: the invitee would wait for a link that never comes. */
    const undone = (undo: Effect.Effect<unknown, SqlError>) => (error: MailUnavailable) =>
      Effect.zipRight(
        Effect.zipRight(Effect.logWarning(`invitación no enviada: ${error.reason}`), undo),
        Effect.fail(
          new Unavailable({
            error: "no_disponible",
            detail: "No se pudo enviar la invitación. Intenta de nuevo."
          })
        )
      )

    /** An e-mail of another merchant's user: kept as an invitation, its holder told by mail. */
    const invitarAjeno = (caller: Caller, body: typeof Equipo.InvitarBody.Type) =>
      Effect.gen(function* () {
        const rows = yield* sql<UserRow>`
          insert into invitaciones_ajenas (id, comercio_id, email, rol)
          values (${randomUUID()}, ${caller.comercioId}, ${body.email}, ${body.rol})
          on conflict do nothing
          returning id, email, rol, false as activo, created_at`
        const row = rows[0]
        if (row === undefined) return yield* Effect.fail(duplicate())
        const [comercio] = yield* sql<{ nombre: string }>`
          select nombre from comercios where id = ${caller.comercioId}`
        yield* provide(
          mailExistingUser(body.email, {
            _tag: "Invitacion",
            comercio: comercio?.nombre ?? "",
            rol: body.rol
          })
        ).pipe(Effect.catchAll(undone(sql`delete from invitaciones_ajenas where id = ${row.id}`)))
        return view(row)
      })

    const invitar = (caller: Caller, body: typeof Equipo.InvitarBody.Type) =>
      Effect.gen(function* () {
        yield* sessionOf(caller)
        if (!mailer.available) return yield* Effect.fail(noMail())
        const email = body.email.trim().toLowerCase()
        const [pending] = yield* sql`
          select 1 from invitaciones_ajenas where comercio_id = ${caller.comercioId} and lower(email) = ${email}`
        if (pending !== undefined) return yield* Effect.fail(duplicate())
        const rows = yield* sql<UserRow>`
          insert into usuarios (id, comercio_id, email, hash, rol)
          values (${randomUUID()}, ${caller.comercioId}, ${body.email}, null, ${body.rol})
          on conflict do nothing
          returning id, email, rol, false as activo, created_at`
        const row = rows[0]
        if (row === undefined) {
          const [holder] = yield* sql<{ comercio_id: string }>`
            select comercio_id from usuarios where lower(email) = ${email}`
          if (holder === undefined || holder.comercio_id === caller.comercioId)
            return yield* Effect.fail(duplicate())
          return yield* invitarAjeno(caller, body)
        }
        yield* provide(issueUserLink(row.id, "invitacion")).pipe(
          Effect.catchAll(undone(sql`delete from usuarios where id = ${row.id}`))
        )
        return view(row)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** The invitation of another merchant's user's e-mail `id`, of the caller's merchant. */
    const ajena = (caller: Caller, id: string) =>
      isUuid(id)
        ? sql<UserRow>`
            select id, email, rol, false as activo, created_at from invitaciones_ajenas
            where id = ${id.toLowerCase()} and comercio_id = ${caller.comercioId}`.pipe(
            Effect.map((rows) => rows[0])
          )
        : Effect.succeed(undefined)

    /** The merchant's users, locked for this transaction, and the target among them. */
    const lockTeam = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const team = yield* sql<UserRow>`
          select id, email, rol, hash is not null as activo, created_at from usuarios
          where comercio_id = ${caller.comercioId} order by id for update`
        const target = isUuid(id) ? team.find((user) => user.id === id.toLowerCase()) : undefined
        if (target === undefined) return yield* Effect.fail(notFound())
        const otherOwners = team.filter((u) => u.id !== target.id && u.rol === "propietario" && u.activo)
        return { target, otherOwners: otherOwners.length }
      })

    const cambiarRol = (caller: Caller, id: string, rol: Rol) =>
      Effect.flatMap(sessionOf(caller), () =>
        sql.withTransaction(
          Effect.gen(function* () {
            const invited = yield* ajena(caller, id)
            if (invited !== undefined) {
              yield* sql`update invitaciones_ajenas set rol = ${rol} where id = ${invited.id}`
              return view({ ...invited, rol })
            }
            const { target, otherOwners } = yield* lockTeam(caller, id)
            if (target.rol === "propietario" && rol !== "propietario" && otherOwners === 0)
              return yield* Effect.fail(lastOwner())
            yield* sql`update usuarios set rol = ${rol} where id = ${target.id}`
            return view({ ...target, rol })
          })
        )
      ).pipe(Effect.catchTag("SqlError", Effect.die))

    const eliminar = (caller: Caller, id: string) =>
      Effect.flatMap(sessionOf(caller), () =>
        sql.withTransaction(
          Effect.gen(function* () {
            const invited = yield* ajena(caller, id)
            if (invited !== undefined) {
              yield* sql`delete from invitaciones_ajenas where id = ${invited.id}`
              return { id: invited.id, eliminado: true as const, sesiones_cerradas: 0 }
            }
            const { target, otherOwners } = yield* lockTeam(caller, id)
            if (target.rol === "propietario" && otherOwners === 0) return yield* Effect.fail(lastOwner())
            const [open] = yield* sql<{ n: number }>`
              select count(*)::int as n from sesiones where usuario_id = ${target.id} and ended_at is null`
            // Its sessions go with it (on delete cascade): its next request finds none.
            yield* sql`delete from usuarios where id = ${target.id}`
            return { id: target.id, eliminado: true as const, sesiones_cerradas: open?.n ?? 0 }
          })
        )
      ).pipe(Effect.catchTag("SqlError", Effect.die))

    return { olvido, definir, verificarCorreo, list, invitar, cambiarRol, eliminar }
  })
)
