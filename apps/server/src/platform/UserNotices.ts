/**
 * Mails to the holder of an e-mail that already has a portal user, when someone else uses it:
 * a sign-up (`POST /switch/v1/comercios/registrar`) or a team invitation (`POST
 * /switch/v1/equipo`). A user belongs to one merchant and e-mails are unique, so neither can
 * make a user for that address; the routes answer as for a new address (telling an outsider
 * nothing about who has an account), and this mail tells the one person who may know.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { Mailer, type MailUnavailable } from "./Mailer.js"

/** What was asked for the address. */
export type Uso =
  | { readonly _tag: "Registro"; readonly codigo: string }
  | { readonly _tag: "Invitacion"; readonly comercio: string; readonly rol: string }

const ROLES: Readonly<Record<string, string>> = {
  propietario: "propietario",
  cajero: "cajero",
  lectura: "lectura"
}

/** The mail: what happened, that nothing changed for the holder, and what to do if it was them. */
export const noticeFor = (uso: Uso, baseUrl: string) => {
  const panel = `${baseUrl}/panel`
  switch (uso._tag) {
    case "Registro":
      return {
        subject: "Se usó tu correo para registrar un comercio en Switch",
        text: `Alguien registró el comercio ${uso.codigo} en Switch con este correo. Tu correo ya tiene un usuario del panel de Switch, y un usuario pertenece a un solo comercio: el comercio nuevo quedó sin usuario del panel y tu cuenta no cambió.\n\nSi fuiste tú: entra al panel con tu contraseña de siempre (${panel}) o, si la olvidaste, pide un enlace en ${panel}/olvide. Para entrar al panel del comercio nuevo, regístralo con otro correo o escríbenos.\n\nSi no fuiste tú, ignora este correo.`
      }
    case "Invitacion":
      return {
        subject: `Te invitaron al panel de ${uso.comercio} en Switch`,
        text: `Te invitaron al panel de ${uso.comercio} en Switch con el rol ${ROLES[uso.rol] ?? uso.rol}. Tu correo ya tiene un usuario del panel de Switch, y un usuario pertenece a un solo comercio, así que no puedes aceptar con este correo: si quieres unirte, pide que te inviten con otro correo. Tu cuenta no cambió.\n\nSi no esperabas esta invitación, ignora este correo.`
      }
  }
}

/**
 * Mails the user of `email` (at the address as stored) about `uso`. Nothing when no user has
 * that e-mail. Fails only when the mail could not be handed over.
 */
export const mailExistingUser = (
  email: string,
  uso: Uso
): Effect.Effect<void, MailUnavailable, SqlClient.SqlClient | Mailer | Settings> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const settings = yield* Settings
    const rows = yield* sql<{ email: string }>`
      select email from usuarios where lower(email) = ${email.trim().toLowerCase()}`
    const user = rows[0]
    if (user === undefined) return
    yield* mailer.send({ to: user.email, ...noticeFor(uso, settings.baseUrl) })
  }).pipe(Effect.catchTag("SqlError", Effect.die))
