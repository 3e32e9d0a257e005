/**
 * The direct API on `transacciones`: what was asked (parties, rail, purpose), which bank
 * operation id is the current attempt, where the operation stands in its own steps (`fase`),
 * when the bank is asked next, and the charge a refund or reversal belongs to.
 *
 * Idempotency is the database's: one row per merchant and `idempotency_key` (across modes, so
 * a key of the other mode is seen and refused), and one refund attempt per charge and
 * `retry_nonce`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table transacciones
      add column concepto text,
      add column detalle jsonb,
      add column operacion_banco text,
      add column fase text,
      add column original_id uuid references transacciones(id),
      add column retry_nonce text,
      add column desconocida_desde timestamptz,
      add column proxima_consulta timestamptz,
      add column consultas integer not null default 0,
      add column updated_at timestamptz not null default now()`
  yield* sql`create unique index transacciones_idempotency on transacciones (comercio_id, idempotency_key)
    where idempotency_key is not null`
  yield* sql`create unique index transacciones_reintegro_nonce on transacciones (original_id, coalesce(retry_nonce, ''))
    where operacion = 'devolucion'`
  yield* sql`create index transacciones_conciliar on transacciones (proxima_consulta)
    where proxima_consulta is not null`
})
