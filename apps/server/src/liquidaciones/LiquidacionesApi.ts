/**
 * `GET /switch/v1/liquidaciones`: the merchant's settlements in the caller's mode, newest first.
 * A settlement is the `liquidacion` transaction Settlement.ts records for a paid link; what the
 * payer paid comes from that link's settled `cobro` (one per link, by a unique index). A link
 * with a split adds its `reparto`: the payments to each beneficiary.
 *
 * A paid link with a split that has no settlement row (yet, or ever) is listed too, so that the
 * split's payments are seen (issue 42): one whose split took the whole net (nothing to credit:
 * `neto` 0, `LIQUIDADA` once the split finished, its `id` the payer's payment id, as
 * `link.acreditado`'s `liquidacion_txn_id`), and one whose split is still under way (`PENDIENTE`)
 * or in review (`REVISION`), `neto` being the merchant's part still to credit. A split a refund
 * stopped (`repartos_detenidos`) credits nothing to the merchant: `neto` 0.
 *
 * In test mode, a paid link of a merchant without immediate settlement shows the settlement it
 * would get (`platform/LiquidacionesSimuladas.ts`, derived when read); every test-mode settlement says `simulada`.
 *
 * Filters (issue 45): `estado`, `desde` and `hasta` (on `created_at`, both included, as
 * `GET /transacciones` reads them), `min` and `max` (Bs, on the net credited); `orden` (`reciente`
 * by default, `antiguo`, `monto_desc`, `monto_asc`; a cursor only with the default).
 * `GET /switch/v1/liquidaciones/total` counts what the same filters choose, paging aside, derived
 * settlements included.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type Caller, CurrentCaller, SwitchApi, ValidationError } from "@switch/api"
import { Fees, Money, Split } from "@switch/core"
import { Effect } from "effect"
import { parseCursor } from "../http/Page.js"
import * as Simuladas from "../platform/LiquidacionesSimuladas.js"
import {
  parseTxnFilters,
  parseTxnOrden,
  type TXN_ORDER_BY,
  type TxnFilters
} from "../platform/ListaFiltros.js"

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
  readonly motivo_rechazo: string | null
  readonly mode: "test" | "live"
  readonly created_at: Date
  readonly liquidada_at: Date | null
  readonly con_split: boolean
  readonly reparto: unknown
  readonly derivada: boolean
  readonly comision_bp: number | null
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

interface Filtros {
  readonly estado: string | null
  readonly rango: TxnFilters
}

interface Params {
  readonly estado?: string | undefined
  readonly desde?: string | undefined
  readonly hasta?: string | undefined
  readonly min?: string | undefined
  readonly max?: string | undefined
}

/** The filters the list and its total share; a malformed one is `400 validation` naming it. */
const parseFiltros = (params: Params) =>
  Effect.gen(function* () {
    const estado = yield* estadoOf(params.estado)
    const rango = yield* parseTxnFilters({
      desde: params.desde,
      hasta: params.hasta,
      min: params.min,
      max: params.max
    })
    return { estado, rango } satisfies Filtros
  })

/** Settlement rows, the paid links with a split that have none, and test mode's derived ones. */
const filasDe = (sql: SqlClient.SqlClient, caller: Caller) => sql`
  select t.id::text as id, t.link_id, t.monto, t.estado, t.referencia_banco, t.motivo_rechazo, t.mode,
    t.created_at, t.liquidada_at, false as derivada
  from transacciones t
  where t.comercio_id = ${caller.comercioId} and t.mode = ${caller.mode} and t.operacion = 'liquidacion'
  union all
  select coalesce(l.txn_id, l.id)::text as id, l.id as link_id,
    case when d.link_id is not null then 0 else (l.reparto->>'monto_comercio')::bigint end as monto,
    case
      when l.reparto->>'estado' = 'en_revision' then 'REVISION'
      when l.reparto->>'estado' = 'pendiente' then 'PENDIENTE'
      when d.link_id is not null or (l.reparto->>'monto_comercio')::bigint = 0 then 'LIQUIDADA'
      else 'PENDIENTE'
    end as estado,
    null as referencia_banco, null as motivo_rechazo, l.mode, coalesce(l.paid_at, l.created_at) as created_at,
    case when l.reparto->>'estado' in ('repartido', 'cerrado')
      and (d.link_id is not null or (l.reparto->>'monto_comercio')::bigint = 0)
      then (select max(r.liquidada_at) from transacciones r where r.link_id = l.id and r.operacion = 'reparto')
    end as liquidada_at, false as derivada
  from links l
  left join repartos_detenidos d on d.link_id = l.id
  where l.comercio_id = ${caller.comercioId} and l.mode = ${caller.mode} and l.estado = 'pagado'
    and l.reparto is not null
    and not exists (select 1 from transacciones x where x.link_id = l.id and x.operacion = 'liquidacion')
  union all
  ${Simuladas.derivadas(sql, caller)}`

/** The filters over the rows `t` of {@link filasDe}. */
const filtrosWhere = (sql: SqlClient.SqlClient, f: Filtros) =>
  sql.and([
    sql`true`,
    ...(f.estado === null ? [] : [sql`t.estado = ${f.estado}`]),
    ...(f.rango.desde === null ? [] : [sql`t.created_at >= ${f.rango.desde}`]),
    ...(f.rango.hasta === null ? [] : [sql`t.created_at <= ${f.rango.hasta}`]),
    ...(f.rango.min === null ? [] : [sql`t.monto >= ${f.rango.min}`]),
    ...(f.rango.max === null ? [] : [sql`t.monto <= ${f.rango.max}`])
  ])

/** The list's orders (`orden`), as `GET /transacciones`' ({@link TXN_ORDER_BY}), each ending on the id. */
const ORDER_BY: Readonly<Record<keyof typeof TXN_ORDER_BY, string>> = {
  reciente: "t.created_at desc, t.id desc",
  antiguo: "t.created_at asc, t.id asc",
  monto_desc: "t.monto desc, t.created_at desc, t.id desc",
  monto_asc: "t.monto asc, t.created_at desc, t.id desc"
}

const toLiquidacion = (r: Row) => ({
  id: r.id,
  link_id: r.link_id,
  concepto: r.concepto,
  cobrado:
    r.cobro_monto === null
      ? null
      : Money.toNumber(Fees.total(Money.Cents(r.cobro_monto), Money.Cents(r.cobro_propina ?? 0))),
  neto:
    r.derivada && r.cobro_monto !== null
      ? money(Simuladas.neto({ monto: r.cobro_monto, propina: r.cobro_propina ?? 0 }, r.comision_bp))
      : money(r.monto),
  estado: r.estado,
  referencia_banco: r.referencia_banco,
  // Why it was not credited (issue 45): an operator's closing note, as the console recorded it.
  motivo: r.estado === "RECHAZADA" ? r.motivo_rechazo : null,
  mode: r.mode,
  created_at: r.created_at.toISOString(),
  liquidada_at: r.liquidada_at === null ? null : r.liquidada_at.toISOString(),
  // Test mode never moves money: each of its settlements is simulated (issue 45).
  simulada: r.mode === "test",
  // The split's payments (issue 42), masked as the link's `reparto`.
  ...(r.con_split ? { reparto: Split.repartoJson(r.reparto) } : {})
})

export const LiquidacionesApiLive = HttpApiBuilder.group(SwitchApi, "liquidaciones", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const limit = yield* integer(urlParams.limit, 50, 1, 200, "limit")
          const offset = yield* integer(urlParams.offset, 0, 0, 1_000_000, "offset")
          const filtros = yield* parseFiltros(urlParams)
          const startingAfter = yield* parseCursor(urlParams.starting_after)
          const orden = yield* parseTxnOrden(urlParams.orden, startingAfter !== null)
          const rows = yield* sql<Row>`
            with filas as (${filasDe(sql, caller)})
            select t.id, t.link_id, l.concepto, c.monto as cobro_monto, c.propina as cobro_propina, t.monto,
              t.estado, t.referencia_banco, t.motivo_rechazo, t.mode, t.created_at, t.liquidada_at,
              l.split is not null as con_split, l.reparto, t.derivada, m.comision_bp
            from filas t
            left join links l on l.id = t.link_id
            left join comercios m on m.id = l.comercio_id
            left join transacciones c on c.link_id = t.link_id and c.operacion = 'cobro' and c.estado = 'LIQUIDADA'
            where ${sql.and([
              filtrosWhere(sql, filtros),
              ...(startingAfter === null
                ? []
                : [
                    sql`(t.created_at, t.id) < (select created_at, id from filas where id = ${startingAfter})`
                  ])
            ])}
            order by ${sql.literal(ORDER_BY[orden])} limit ${limit} offset ${offset}`
          return rows.map(toLiquidacion)
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("total", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const filtros = yield* parseFiltros(urlParams)
          const [row] = yield* sql<{ total: number }>`
            with filas as (${filasDe(sql, caller)})
            select count(*)::int as total from filas t where ${filtrosWhere(sql, filtros)}`
          return { total: row?.total ?? 0 }
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
  })
)
