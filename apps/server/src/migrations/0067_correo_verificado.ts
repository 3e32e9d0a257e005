/**
 * Issue 45: a portal user's e-mail is verified (`usuarios.correo_verificado_at`) before its
 * session may switch to live mode. Using any one-time link mailed to it verifies it; a sign-up
 * with a password gets a `verificar` link. Users from before this migration count as verified:
 * nobody already working in live mode is locked out by the upgrade.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table usuarios add column correo_verificado_at timestamptz`
  yield* sql`update usuarios set correo_verificado_at = created_at`
  yield* sql`alter table enlaces_usuario drop constraint enlaces_usuario_proposito_check`
  yield* sql`
    alter table enlaces_usuario add constraint enlaces_usuario_proposito_check
    check (proposito in ('activar', 'invitacion', 'restablecer', 'verificar'))`
})
