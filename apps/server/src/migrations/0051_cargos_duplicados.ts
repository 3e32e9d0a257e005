/**
 * A card charge approved when its link had been paid another way (issue 43): `duplicado`, in the
 * operators' review queue beside `faltante`, since the payer may have been charged twice.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table cargos_tarjeta drop constraint cargos_tarjeta_estado_check`
  yield* sql`
    alter table cargos_tarjeta add constraint cargos_tarjeta_estado_check
      check (estado in ('abierto', 'aprobado', 'sin_cobro', 'acreditado', 'faltante', 'cerrado', 'duplicado'))`
  yield* sql`drop index cargos_tarjeta_pendientes`
  yield* sql`
    create index cargos_tarjeta_pendientes on cargos_tarjeta (estado)
      where estado in ('abierto', 'aprobado', 'faltante', 'duplicado')`
})
