/**
 * The split pilot in live mode (issue 42):
 *
 * - `comercios.tope_beneficiario_diario`: the daily cap per beneficiary that operators set per
 *   merchant, in cents; null is core's default (`Split.TOPE_BENEFICIARIO_DIARIO_DEFECTO`).
 * - `pagos_reparto` also holds the service's own order for each part (`origen` `automatico`, no
 *   operator): written and committed as `enviado` before the credit goes out, at most one per part
 *   (its unique index), so a crash, a retry or a second worker never sends a second order. The
 *   account's key and the mode let the cap count what a beneficiary was paid today;
 *   `proxima_consulta` is when the reconciler asks the bank again about an order not settled.
 * - `repartos_motivos`: why a part went to review (a re-check that failed, the bank's rejection,
 *   an unclear answer), shown in the operators' queue.
 * - `cuentas_bloqueadas`: accounts a security control blocks (by `Split.cuentaClave`): no split
 *   is created to them and no part is paid to them.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table comercios add column tope_beneficiario_diario bigint
    check (tope_beneficiario_diario is null or tope_beneficiario_diario > 0)`
  yield* sql`alter table pagos_reparto alter column solicitado_por drop not null`
  yield* sql`alter table pagos_reparto add column origen text not null default 'operador'
    check (origen in ('operador', 'automatico'))`
  yield* sql`alter table pagos_reparto add constraint pagos_reparto_quien
    check (origen = 'automatico' or solicitado_por is not null)`
  yield* sql`alter table pagos_reparto add column mode text check (mode in ('test', 'live'))`
  yield* sql`alter table pagos_reparto add column comercio_id uuid references comercios (id)`
  yield* sql`alter table pagos_reparto add column cuenta_clave text`
  yield* sql`alter table pagos_reparto add column referencia_banco text`
  yield* sql`alter table pagos_reparto add column proxima_consulta timestamptz`
  yield* sql`alter table pagos_reparto add column consultas int not null default 0`
  yield* sql`create unique index pagos_reparto_automatico on pagos_reparto (link_id, indice) where origen = 'automatico'`
  yield* sql`create index pagos_reparto_tope on pagos_reparto (comercio_id, mode, cuenta_clave, created_at)
    where estado in ('enviado', 'pagado')`
  yield* sql`create index pagos_reparto_conciliar on pagos_reparto (proxima_consulta) where proxima_consulta is not null`
  yield* sql`
    create table repartos_motivos (
      link_id uuid not null references links (id),
      indice int not null check (indice >= 0 and indice < 5),
      motivo text not null,
      created_at timestamptz not null default now(),
      primary key (link_id, indice)
    )`
  yield* sql`
    create table cuentas_bloqueadas (
      clave text primary key,
      motivo text not null,
      created_at timestamptz not null default now()
    )`
})
