/**
 * The queue's first sources, listed here and resolved by OperadorRoutes.ts (settlements) and
 * Links.ts (links): settlements (`liquidacion` transactions in `REVISION`) and links in
 * `revision`, with their age and amount.
 */
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { Money } from "@switch/core"
import { Effect } from "effect"
import type { Fuente, Item } from "./Cola.js"

interface RevisionRow {
  readonly tipo: "liquidacion" | "link"
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: Mode
  readonly monto: number
  readonly motivo: string | null
  readonly desde: Date
  readonly con_reparto: boolean
}

const listar: Fuente["listar"] = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<RevisionRow>`
    select * from (
      select 'liquidacion' as tipo, t.id::text as id, t.link_id::text as link_id, c.codigo as comercio,
        t.mode, t.monto, t.motivo_rechazo as motivo, t.created_at as desde,
        -- The merchant's part of a finished live split is resolved like any settlement (OperadorRoutes.ts).
        (l.split is not null and not coalesce(l.mode = 'live' and l.reparto->>'estado' in ('repartido', 'cerrado')
          and (l.reparto->>'monto_comercio')::bigint = t.monto
          and not exists (select 1 from repartos_detenidos d where d.link_id = l.id), false)) as con_reparto
      from transacciones t join comercios c on c.id = t.comercio_id left join links l on l.id = t.link_id
      where t.operacion = 'liquidacion' and t.estado = 'REVISION'
      union all
      select 'link' as tipo, l.id::text as id, l.id::text as link_id, c.codigo as comercio,
        l.mode, l.monto, null as motivo, l.created_at as desde, (l.split is not null) as con_reparto
      from links l join comercios c on c.id = l.comercio_id
      where l.estado = 'revision'
    ) q order by desde asc limit 500`
  return rows.map(
    (r): Item => ({
      tipo: r.tipo,
      id: r.id,
      link_id: r.link_id,
      comercio: r.comercio,
      mode: r.mode,
      monto: Money.toNumber(Money.Cents(r.monto)),
      motivo: r.motivo,
      con_reparto: r.con_reparto,
      desde: r.desde,
      respuestas: { objeto_tipo: r.tipo, objeto_id: r.id }
    })
  )
}).pipe(Effect.orDie)

export const propias: Fuente = { listar, rutas: () => Effect.succeed([]) }
