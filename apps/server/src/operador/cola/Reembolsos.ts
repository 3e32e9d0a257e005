/**
 * Refunds from the portal (issue 33) the bank answered unclearly: never resent, listed for a
 * person. The console shows them without actions yet; the reconciler keeps asking the bank.
 */
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { Money } from "@switch/core"
import { Effect } from "effect"
import type { Fuente, Item } from "./Cola.js"

interface ReembolsoRow {
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: Mode
  readonly monto: number
  readonly motivo: string | null
  readonly desde: Date
}

const listar: Fuente["listar"] = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<ReembolsoRow>`
    select t.id::text as id, t.detalle->>'link_id' as link_id, c.codigo as comercio, t.mode, t.monto,
      coalesce(t.motivo_rechazo, t.estado) as motivo, t.created_at as desde
    from transacciones t join comercios c on c.id = t.comercio_id
    where t.operacion = 'devolucion' and t.detalle->>'origen' = 'panel' and t.fase = 'enviada'
      and (t.estado in ('DESCONOCIDA', 'ERROR', 'PENDIENTE', 'ACEPTADA')
        or (t.estado = 'RECHAZADA' and t.motivo_rechazo in ('RECHAZO_TECNICO', 'DESCONOCIDO', 'PENDIENTE_BCV')))
    order by t.created_at asc limit 500`
  return rows.map(
    (r): Item => ({
      tipo: "reembolso",
      id: r.id,
      link_id: r.link_id,
      comercio: r.comercio,
      mode: r.mode,
      monto: Money.toNumber(Money.Cents(r.monto)),
      motivo: r.motivo,
      con_reparto: false,
      desde: r.desde,
      respuestas: { objeto_tipo: "transaccion", objeto_id: r.id }
    })
  )
}).pipe(Effect.orDie)

export const reembolsos: Fuente = { listar, rutas: () => Effect.succeed([]) }
