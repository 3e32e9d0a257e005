/**
 * What one person alone should not do (issue 41):
 *
 * - `operadores.totp_enrolar`: a `riesgo` operator reset this operator's TOTP; the new secret is
 *   shown to the operator itself, after its password, at its next sign-in (never to `riesgo`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table operadores add column totp_enrolar boolean not null default false`
})
