/**
 * The Mercantil adapter's journal in Postgres (`ordenes_banco`, migration 0050): an order is
 * written before it leaves, so a query after a crash still knows what to search for.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Bitacora, Orden } from "./Mercantil.js"

const ADAPTADOR = "mercantil"

export const bitacoraSql = (sql: SqlClient.SqlClient): Bitacora => ({
  guardar: (o) =>
    sql`
      insert into ordenes_banco (operacion_id, adaptador, orden)
      values (${o.operacionId}, ${ADAPTADOR}, ${JSON.stringify(o)}::jsonb)
      on conflict (operacion_id) do update set orden = excluded.orden`.pipe(Effect.asVoid, Effect.orDie),
  referencia: (id, referencia) =>
    sql`
      update ordenes_banco set orden = jsonb_set(orden, '{referencia}', to_jsonb(${referencia}::text))
      where operacion_id = ${id} and adaptador = ${ADAPTADOR}`.pipe(Effect.asVoid, Effect.orDie),
  leer: (id) =>
    sql<{ orden: Orden | string }>`
      select orden from ordenes_banco where operacion_id = ${id} and adaptador = ${ADAPTADOR}`.pipe(
      Effect.map(([row]) =>
        row === undefined
          ? undefined
          : typeof row.orden === "string"
            ? (JSON.parse(row.orden) as Orden)
            : row.orden
      ),
      Effect.orDie
    )
})
