/**
 * Simulated settlements of test mode (issue 45). A merchant rehearsing in test mode sees in
 * Liquidaciones what a settlement of each payment will look like: a merchant with immediate
 * settlement already gets one recorded by `Settlement.settleSimulated` when a test link is paid;
 * for any other merchant, a paid test link without a split shows here the settlement immediate
 * settlement would make (the net after the merchant's commission, by core's `Fees.net`, the
 * rule `Settlement.netOf` applies), derived when read: nothing is written, no bank is called, no notice is sent.
 * Live mode never reads these rows. Every test-mode settlement is marked `simulada`.
 */
import type { SqlClient } from "@effect/sql"
import type { Caller } from "@switch/api"
import { Fees, Money, Split } from "@switch/core"
import { Effect } from "effect"

/**
 * The derived rows, in the shape of the settlement list's rows: only in test mode, only paid
 * links without a split or a settlement of their own. Their `monto` is {@link neto} computed in
 * SQL (`netoSql`), so the list's amount range, its order by amount and its total read them as
 * they read recorded settlements; the list still shows {@link neto}'s figure (the same, as
 * simuladas.test.ts checks).
 */
/**
 * {@link neto} in SQL over the payment `c` and the merchant `m`: the commission on amount and
 * tip rounds half-up to the cent (`Money.percentage`), at most the whole; the net is never negative.
 */
const netoSql = (sql: SqlClient.SqlClient) =>
  sql.literal(`greatest(
    (c.monto + c.propina) - least(((c.monto + c.propina) * coalesce(m.comision_bp, ${Fees.DEFAULT_COMMISSION_PCT}) + 5000) / 10000,
      greatest(c.monto + c.propina, 0)), 0)::bigint`)

export const derivadas = (sql: SqlClient.SqlClient, caller: Caller) =>
  caller.mode !== "test"
    ? sql`select null::text as id, null::uuid as link_id, 0::bigint as monto, null::text as estado,
        null::text as referencia_banco, null::text as motivo_rechazo, null::text as mode, null::timestamptz as created_at,
        null::timestamptz as liquidada_at, true as derivada where false`
    : sql`
        select c.id::text as id, l.id as link_id, ${netoSql(sql)} as monto, 'LIQUIDADA' as estado,
          ${Split.REFERENCIA_SIMULADA}::text as referencia_banco, null::text as motivo_rechazo, l.mode,
          coalesce(l.paid_at, c.created_at) as created_at,
          coalesce(l.paid_at, c.created_at) as liquidada_at, true as derivada
        from links l
        join transacciones c on c.id = l.txn_id and c.operacion = 'cobro' and c.estado = 'LIQUIDADA'
        join comercios m on m.id = l.comercio_id
        where l.comercio_id = ${caller.comercioId} and l.mode = 'test' and l.estado = 'pagado'
          and l.reparto is null
          and not exists (select 1 from transacciones x where x.link_id = l.id and x.operacion = 'liquidacion')`

/** A derived settlement's net: the payment (amount and tip) less the merchant's commission. */
export const neto = (
  cobro: { readonly monto: number; readonly propina: number },
  comisionBp: number | null
): number =>
  Fees.net({
    amount: Money.Cents(cobro.monto),
    tip: Money.Cents(cobro.propina),
    commissionPct: Fees.commissionPctFor(comisionBp === null ? null : Money.BasisPoints(comisionBp))
  }).neto

/**
 * How many derived settlements the caller has and their net in cents (Inicio's figures); none
 * outside test mode. Read in full: test mode's payments of one merchant, not a live volume.
 */
export const totales = (sql: SqlClient.SqlClient, caller: Caller) =>
  Effect.map(
    caller.mode !== "test"
      ? Effect.succeed([])
      : sql<{ monto: number; propina: number; comision_bp: number | null }>`
          select c.monto, c.propina, m.comision_bp
          from (${derivadas(sql, caller)}) d
          join transacciones c on c.id::text = d.id
          join comercios m on m.id = c.comercio_id`,
    (rows) => ({
      cantidad: rows.length,
      neto: rows.reduce(
        (sum, r) => sum + neto({ monto: Number(r.monto), propina: Number(r.propina) }, r.comision_bp),
        0
      )
    })
  )
