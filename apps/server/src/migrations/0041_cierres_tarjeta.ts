/**
 * The card processor's nightly closes the service has read (issue 43): one row per Caracas day,
 * written when its credits were applied, so each close is read and applied once. A charge the
 * operators close by hand keeps their note in `cargos_tarjeta.nota`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table cierres_tarjeta (
      dia date primary key,
      creditos integer not null,
      faltantes integer not null,
      leido_at timestamptz not null
    )`
})
