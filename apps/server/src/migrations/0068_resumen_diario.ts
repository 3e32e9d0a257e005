/**
 * Issue 45: the opt-in daily summary mail (platform/ResumenDiario.ts). `comercios.resumen_diario`
 * is the merchant's choice (off unless its owner turns it on); `resumenes_diarios` holds one row
 * per merchant and Caracas day once that day's summary was handled, so however many processes
 * run the job, a merchant gets a day's summary at most once.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table comercios add column resumen_diario boolean not null default false`
  yield* sql`
    create table resumenes_diarios (
      comercio_id uuid not null references comercios(id) on delete cascade,
      dia date not null,
      enviado boolean not null,
      created_at timestamptz not null default now(),
      primary key (comercio_id, dia)
    )`
})
