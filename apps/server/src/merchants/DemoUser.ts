/**
 * The demo merchant's owner in the portal, for development only (`npm start` prints the e-mail
 * and password, so a newcomer signs in to /panel at once). The password is derived from the
 * server secret, so it stays the same across restarts; a production start never makes the user.
 */
import { createHmac, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { Settings } from "../Config.js"
import { hashPassword, verifyPassword } from "../platform/Passwords.js"

export const DEMO_EMAIL = "demo@switch.local"

/** The demo owner's password: `demo-` and 16 characters derived from the server secret. */
export const demoPassword = (secret: string): string =>
  `demo-${createHmac("sha256", secret).update("panel:demo-propietario").digest("base64url").slice(0, 16)}`

/**
 * Makes (or, when the secret changed, re-keys) the demo merchant's `propietario` user; the demo
 * merchant must exist. Answers the e-mail and password to print.
 */
export const seedDemoUser = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const settings = yield* Settings
  const password = demoPassword(Redacted.value(settings.secret))
  const existing = yield* sql<{ hash: string; codigo: string }>`
    select u.hash, c.codigo from usuarios u join comercios c on c.id = u.comercio_id
    where lower(u.email) = ${DEMO_EMAIL}`
  const found = existing[0]
  if (found !== undefined && found.codigo !== "demo") return null
  if (found === undefined || !(yield* Effect.promise(() => verifyPassword(password, found.hash)))) {
    const hash = yield* Effect.promise(() => hashPassword(password))
    yield* sql`
      insert into usuarios (id, comercio_id, email, hash, rol, correo_verificado_at)
      select ${randomUUID()}, id, ${DEMO_EMAIL}, ${hash}, 'propietario', now() from comercios where codigo = 'demo'
      on conflict ((lower(email))) do update set hash = excluded.hash`
  }
  return { email: DEMO_EMAIL, password }
}).pipe(Effect.orDie)
