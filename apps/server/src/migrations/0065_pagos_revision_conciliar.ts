/**
 * Issue 45: an order an operator sent from the review queue (paying a settlement or a split part
 * through the bank, after the second operator's confirmation) is asked about again by the
 * reconciler, like the service's own orders, until the bank says.
 *
 * - `pagos_revision.proxima_consulta`: when the reconciler asks the bank again about a
 *   settlement's payment left `enviado`; `consultas` how many times it did (its backoff).
 * - Orders already left `enviado` (of either table) are due at once.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table pagos_revision add column proxima_consulta timestamptz`
  yield* sql`alter table pagos_revision add column consultas int not null default 0`
  yield* sql`
    create index pagos_revision_conciliar on pagos_revision (proxima_consulta)
    where proxima_consulta is not null`
  yield* sql`update pagos_revision set proxima_consulta = now() where estado = 'enviado'`
  yield* sql`
    update pagos_reparto set proxima_consulta = now()
    where estado = 'enviado' and proxima_consulta is null`
})
