/**
 * `GET /switch/v1/resumen`: the portal's home figures in the caller's merchant and mode. A
 * collection is a settled `cobro` transaction (its `monto + propina`); a day is Venezuela's,
 * 04:00 UTC to 04:00 UTC (SPEC), so days are taken from `created_at` moved back 4 hours.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Money } from "@switch/core"
import { Clock, Effect } from "effect"
import * as Simuladas from "../platform/LiquidacionesSimuladas.js"

const DAY_MS = 86_400_000
const CARACAS_OFFSET_MS = 4 * 3_600_000

const money = (cents: number | string | null) => Money.toNumber(Money.Cents(Number(cents ?? 0)))

/** `2026-11-25`: the Venezuelan day of an instant. */
const diaDe = (ms: number) => new Date(ms - CARACAS_OFFSET_MS).toISOString().slice(0, 10)

/** The settlements by state, in bolivars, with the derived ones of test mode added to `LIQUIDADA`. */
const conSimuladas = (
  porEstado: Record<string, { readonly cantidad: number; readonly neto: number }>,
  simuladas: { readonly cantidad: number; readonly neto: number }
) => {
  const all = { ...porEstado }
  if (simuladas.cantidad > 0) {
    const liquidada = all.LIQUIDADA ?? { cantidad: 0, neto: 0 }
    all.LIQUIDADA = {
      cantidad: liquidada.cantidad + simuladas.cantidad,
      neto: liquidada.neto + simuladas.neto
    }
  }
  return Object.fromEntries(
    Object.entries(all).map(([estado, v]) => [estado, { cantidad: v.cantidad, neto: money(v.neto) }])
  )
}

export const ResumenApiLive = HttpApiBuilder.group(SwitchApi, "resumen", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("get", () =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const now = yield* Clock.currentTimeMillis
        const dias = Array.from({ length: 7 }, (_, i) => diaDe(now - (6 - i) * DAY_MS))
        // The first Venezuelan day's start: its date at 04:00 UTC.
        const desde = new Date(Date.parse(`${dias[0]}T00:00:00Z`) + CARACAS_OFFSET_MS)
        const [porDia, abiertos, recientes, liquidaciones, simuladas] = yield* Effect.all([
          sql<{ dia: string; cobrado: string; pagos: number }>`
            select to_char((created_at at time zone 'UTC') - interval '4 hours', 'YYYY-MM-DD') as dia,
              sum(monto + propina)::text as cobrado, count(*)::int as pagos
            from transacciones
            where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
              and operacion = 'cobro' and estado = 'LIQUIDADA' and created_at >= ${desde}
            group by 1`,
          sql<{ n: number }>`
            select count(*)::int as n from links
            where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
              and estado = 'pendiente' and (expires_at is null or expires_at > ${new Date(now)})`,
          sql<{
            id: string
            link_id: string | null
            concepto: string | null
            total: string
            created_at: Date
          }>`
            select t.id, t.link_id, l.concepto, (t.monto + t.propina)::text as total, t.created_at
            from transacciones t left join links l on l.id = t.link_id
            where t.comercio_id = ${caller.comercioId} and t.mode = ${caller.mode}
              and t.operacion = 'cobro' and t.estado = 'LIQUIDADA'
            order by t.created_at desc, t.id desc limit 5`,
          sql<{ estado: string; cantidad: number; neto: string }>`
            select estado, count(*)::int as cantidad, sum(monto)::text as neto from transacciones
            where comercio_id = ${caller.comercioId} and mode = ${caller.mode} and operacion = 'liquidacion'
            group by estado`,
          // Test mode's settlements derived when read (issue 45), counted as the list shows them.
          Simuladas.totales(sql, caller)
        ])
        const byDay = new Map(porDia.map((r) => [r.dia, r]))
        const semana = dias.map((dia) => ({
          dia,
          cobrado: money(byDay.get(dia)?.cobrado ?? 0),
          pagos: byDay.get(dia)?.pagos ?? 0
        }))
        return {
          mode: caller.mode,
          hoy: semana[6] ?? { dia: diaDe(now), cobrado: 0, pagos: 0 },
          semana,
          links_abiertos: abiertos[0]?.n ?? 0,
          pagos_recientes: recientes.map((r) => ({
            txn_id: r.id,
            link_id: r.link_id,
            concepto: r.concepto,
            total: money(r.total),
            created_at: r.created_at.toISOString()
          })),
          liquidaciones: conSimuladas(
            Object.fromEntries(
              liquidaciones.map((r) => [r.estado, { cantidad: r.cantidad, neto: Number(r.neto) }])
            ),
            simuladas
          )
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))
    )
  })
)
