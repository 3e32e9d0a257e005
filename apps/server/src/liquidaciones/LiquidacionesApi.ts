/**
 * `GET /switch/v1/liquidaciones`: the merchant's settlements in the caller's mode, newest first.
 * A settlement is the `liquidacion` transaction Settlement.ts records for a paid link; what the
 * payer paid comes from that link's settled `cobro` (one per link, by a unique index). A link
 * with a split adds its `reparto`: the payments to each beneficiary.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, SwitchApi, ValidationError } from "@switch/api"
import { Fees, Money, Split } from "@switch/core"
import { Effect } from "effect"
import { parseCursor } from "../http/Page.js"

const ESTADOS = ["PENDIENTE", "LIQUIDADA", "REVISION", "RECHAZADA"] as const

interface Row {
  readonly id: string
  readonly link_id: string | null
  readonly concepto: string | null
  readonly cobro_monto: number | null
  readonly cobro_propina: number | null
  readonly monto: number
  readonly estado: string
  readonly referencia_banco: string | null
  readonly mode: "test" | "live"
  readonly created_at: Date
  readonly liquidada_at: Date | null
  readonly con_split: boolean
  readonly reparto: unknown
}

const integer = (value: string | undefined, fallback: number, min: number, max: number, name: string) => {
  if (value === undefined || value === "") return Effect.succeed(fallback)
  const n = Number(value)
  return /^\d+$/.test(value) && n >= min && n <= max
    ? Effect.succeed(n)
    : Effect.fail(
        new ValidationError({ parametro: name, detail: `${name} debe ser un entero entre ${min} y ${max}` })
      )
}

const estadoOf = (value: string | undefined) => {
  if (value === undefined || value === "") return Effect.succeed(null)
  return (ESTADOS as ReadonlyArray<string>).includes(value)
    ? Effect.succeed(value)
    : Effect.fail(
        new ValidationError({ parametro: "estado", detail: `estado debe ser uno de: ${ESTADOS.join(", ")}` })
      )
}

const money = (cents: number) => Money.toNumber(Money.Cents(cents))

export const LiquidacionesApiLive = HttpApiBuilder.group(SwitchApi, "liquidaciones", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const limit = yield* integer(urlParams.limit, 50, 1, 200, "limit")
        const offset = yield* integer(urlParams.offset, 0, 0, 1_000_000, "offset")
        const estado = yield* estadoOf(urlParams.estado)
        const startingAfter = yield* parseCursor(urlParams.starting_after)
        const rows = yield* sql<Row>`
          select t.id, t.link_id, l.concepto, c.monto as cobro_monto, c.propina as cobro_propina, t.monto,
            t.estado, t.referencia_banco, t.mode, t.created_at, t.liquidada_at,
            l.split is not null as con_split, l.reparto
          from transacciones t
          left join links l on l.id = t.link_id
          left join transacciones c on c.link_id = t.link_id and c.operacion = 'cobro' and c.estado = 'LIQUIDADA'
          where ${sql.and([
            sql`t.comercio_id = ${caller.comercioId}`,
            sql`t.mode = ${caller.mode}`,
            sql`t.operacion = 'liquidacion'`,
            ...(estado === null ? [] : [sql`t.estado = ${estado}`]),
            ...(startingAfter === null
              ? []
              : [
                  sql`(t.created_at, t.id) < (select created_at, id from transacciones
                    where id = ${startingAfter} and comercio_id = ${caller.comercioId}
                      and mode = ${caller.mode} and operacion = 'liquidacion')`
                ])
          ])}
          order by t.created_at desc, t.id desc limit ${limit} offset ${offset}`
        return rows.map((r) => ({
          id: r.id,
          link_id: r.link_id,
          concepto: r.concepto,
          cobrado:
            r.cobro_monto === null
              ? null
              : Money.toNumber(Fees.total(Money.Cents(r.cobro_monto), Money.Cents(r.cobro_propina ?? 0))),
          neto: money(r.monto),
          estado: r.estado,
          referencia_banco: r.referencia_banco,
          mode: r.mode,
          created_at: r.created_at.toISOString(),
          liquidada_at: r.liquidada_at === null ? null : r.liquidada_at.toISOString(),
          // The split's payments (issue 42), masked as the link's `reparto`.
          ...(r.con_split ? { reparto: Split.repartoJson(r.reparto) } : {})
        }))
      }).pipe(Effect.catchTag("SqlError", Effect.die))
    )
  })
)
