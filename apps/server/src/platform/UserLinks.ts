/**
 * One-time links that set a portal user's password (DESIGN §8): after a sign-up without one
 * (`activar`), an invitation (`invitacion`), or "olvidé mi contraseña" (`restablecer`). The mail
 * carries a random token in the address's fragment (`/panel/contrasena#token=...`), which the
 * browser never sends to a server, so it stays out of access logs and Referer headers; the
 * database keeps only its SHA-256. Issuing a link voids the user's earlier unused ones; using
 * one marks it used in the same statement that checks it, so two uses race to one winner.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { Mailer, type MailUnavailable } from "./Mailer.js"

export type Proposito = "activar" | "invitacion" | "restablecer" | "verificar"

/** The links that set a password (`POST /contrasena`); `verificar` only verifies the e-mail. */
export const DEFINEN_CONTRASENA: ReadonlyArray<Proposito> = ["activar", "invitacion", "restablecer"]

/** How long each kind of link lasts, in hours. */
export const LINK_HOURS: Readonly<Record<Proposito, number>> = {
  activar: 72,
  invitacion: 72,
  restablecer: 1,
  verificar: 72
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex")

const ROLES: Readonly<Record<string, string>> = {
  propietario: "propietario",
  cajero: "cajero (links, lotes y clientes)",
  lectura: "lectura (solo consulta)"
}

const mailFor = (proposito: Proposito, url: string, comercio: string, rol: string) => {
  const hours = LINK_HOURS[proposito]
  const vence = hours === 1 ? "1 hora" : `${hours} horas`
  switch (proposito) {
    case "activar":
      return {
        subject: `Define tu contraseña del panel de Switch (${comercio})`,
        text: `Registraste ${comercio} en Switch. Para entrar al panel, define tu contraseña aquí:\n\n${url}\n\nEl enlace sirve una sola vez y vence en ${vence}. Si no fuiste tú, ignora este correo.`
      }
    case "invitacion":
      return {
        subject: `Te invitaron al panel de ${comercio} en Switch`,
        text: `Te invitaron al panel de ${comercio} en Switch con el rol ${ROLES[rol] ?? rol}. Para aceptar, define tu contraseña aquí:\n\n${url}\n\nEl enlace sirve una sola vez y vence en ${vence}. Si no esperabas esta invitación, ignora este correo.`
      }
    case "verificar":
      return {
        subject: `Confirma tu correo para ${comercio} en Switch`,
        text: `Registraste ${comercio} en Switch con este correo. Para confirmarlo, abre este enlace:\n\n${url}\n\nHasta confirmarlo puedes usar el modo prueba, pero no pasar a modo live. El enlace sirve una sola vez y vence en ${vence}. Si no fuiste tú, ignora este correo.`
      }
    case "restablecer":
      return {
        subject: "Define una nueva contraseña del panel de Switch",
        text: `Pediste definir una nueva contraseña para el panel de ${comercio} en Switch:\n\n${url}\n\nEl enlace sirve una sola vez y vence en ${vence}. Si no lo pediste, ignora este correo: tu contraseña no cambia.`
      }
  }
}

/**
 * Issues a `proposito` link for the user and mails it. Earlier unused links of the user stop
 * working. Fails only when the mail could not be handed over.
 */
export const issueUserLink = (
  usuarioId: string,
  proposito: Proposito
): Effect.Effect<void, MailUnavailable, SqlClient.SqlClient | Mailer | Settings> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const settings = yield* Settings
    const token = randomBytes(32).toString("base64url")
    const rows = yield* sql<{ email: string; rol: string; nombre: string }>`
      select u.email, u.rol, c.nombre from usuarios u join comercios c on c.id = u.comercio_id
      where u.id = ${usuarioId}`
    const user = rows[0]
    if (user === undefined) return
    yield* sql.withTransaction(
      Effect.all([
        sql`update enlaces_usuario set used_at = now() where usuario_id = ${usuarioId} and used_at is null`,
        sql`
          insert into enlaces_usuario (id, token_hash, usuario_id, proposito, expires_at)
          values (${randomUUID()}, ${hash(token)}, ${usuarioId}, ${proposito},
            now() + make_interval(hours => ${LINK_HOURS[proposito]}))`
      ])
    )
    const url = `${settings.baseUrl}/panel/${proposito === "verificar" ? "verificar" : "contrasena"}#token=${token}`
    yield* mailer.send({ to: user.email, ...mailFor(proposito, url, user.nombre, user.rol) })
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/**
 * Uses a link of one of `propositos`: marks it used and returns its user, or none when the token
 * is unknown, of another purpose, used, voided or expired. A link reached the user's mailbox, so
 * using it also verifies the user's e-mail (issue 45).
 */
export const useUserLink = (
  token: string,
  propositos: ReadonlyArray<Proposito>
): Effect.Effect<
  { readonly usuarioId: string; readonly email: string } | undefined,
  never,
  SqlClient.SqlClient
> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ id: string; email: string }>`
        with usado as (
          update enlaces_usuario set used_at = now()
          where token_hash = ${hash(token)} and used_at is null and expires_at > now()
            and proposito in ${sql.in(propositos)}
          returning usuario_id)
        update usuarios set correo_verificado_at = coalesce(correo_verificado_at, now())
        from usado where usuarios.id = usado.usuario_id
        returning usuarios.id, usuarios.email`,
      (rows) => (rows[0] === undefined ? undefined : { usuarioId: rows[0].id, email: rows[0].email })
    )
  ).pipe(Effect.orDie)
