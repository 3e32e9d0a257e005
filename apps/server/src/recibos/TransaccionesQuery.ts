/**
 * The merchant's transactions as the list, its count and its CSV export read them: the filters
 * (`estado`, `operacion`, `desde`, `hasta`, the search `q`, the amount range `min` and `max`),
 * the statement's where clause (always the caller's merchant
 * and mode), and a row as a CSV line. The export reads its rows from a cursor as it sends
 * them, so its size never matters; neither carries a `banco` column (SPEC).
 */
import type { Statement } from "@effect/sql"
import { type Caller, Recibos } from "@switch/api"
import { Fees, Money } from "@switch/core"
import type { TxnFilters } from "../platform/ListaFiltros.js"

export {
  parseTxnFilters,
  parseTxnOrden,
  TXN_ORDER_BY,
  type TxnFilters,
  type TxnOrden
} from "../platform/ListaFiltros.js"

export interface TxnRow {
  readonly id: string
  readonly operacion: string
  readonly estado: string
  readonly monto: number
  readonly propina: number
  readonly moneda: string
  readonly mode: "test" | "live"
  readonly link_id: string | null
  readonly referencia_banco: string | null
  readonly codigo_verificacion: string | null
  readonly motivo_rechazo: string | null
  readonly created_at: Date
  readonly liquidada_at: Date | null
}

export const TXN_COLUMNS = (sql: Statement.Constructor) =>
  sql.literal(`id, operacion, estado, monto, propina, moneda, mode, link_id, referencia_banco,
    codigo_verificacion, motivo_rechazo, created_at, liquidada_at`)

/** The where clause: the caller's merchant and mode, then each filter given. */
export const txnWhere = (sql: Statement.Constructor, caller: Caller, f: TxnFilters) =>
  sql.and([
    sql`comercio_id = ${caller.comercioId}`,
    sql`mode = ${caller.mode}`,
    ...(f.estado === null ? [] : [sql`estado = ${f.estado}`]),
    ...(f.operacion === null ? [] : [sql`operacion = ${f.operacion}`]),
    ...(f.desde === null ? [] : [sql`created_at >= ${f.desde}`]),
    ...(f.hasta === null ? [] : [sql`created_at <= ${f.hasta}`]),
    ...(f.min === null ? [] : [sql`monto >= ${f.min}`]),
    ...(f.max === null ? [] : [sql`monto <= ${f.max}`]),
    ...(f.q === null ? [] : [searchClause(sql, f.q)])
  ])

/** `q`: the start of the transaction's or its link's id, or part of its bank reference or receipt code. */
const searchClause = (sql: Statement.Constructor, q: string) => {
  const like = q.replace(/[\\%_]/g, "\\$&")
  return sql`(id::text like ${`${like}%`} or link_id::text like ${`${like}%`}
    or lower(referencia_banco) like ${`%${like}%`} or lower(codigo_verificacion) like ${`%${like}%`})`
}

/** A stored row as the API's transaction record. */
export const toTransaccion = (r: TxnRow) => ({
  id: r.id,
  operacion: r.operacion,
  estado: r.estado,
  monto: Money.toNumber(Money.Cents(r.monto)),
  propina: Money.toNumber(Money.Cents(r.propina)),
  total: Money.toNumber(Fees.total(Money.Cents(r.monto), Money.Cents(r.propina))),
  moneda: r.moneda,
  mode: r.mode,
  link_id: r.link_id,
  referencia_banco: r.referencia_banco,
  codigo_verificacion: r.codigo_verificacion,
  motivo_rechazo: r.motivo_rechazo,
  created_at: r.created_at.toISOString(),
  liquidada_at: r.liquidada_at === null ? null : r.liquidada_at.toISOString()
})

const CARACAS_OFFSET_MS = -4 * 3_600_000
const pad = (n: number) => String(n).padStart(2, "0")

/** `25/11/2026 01:58 p. m.`: the instant in Caracas (UTC-4 all year). */
export const fechaCaracas = (at: Date): string => {
  const local = new Date(at.getTime() + CARACAS_OFFSET_MS)
  const hours = local.getUTCHours()
  const h12 = hours % 12 === 0 ? 12 : hours % 12
  return `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${pad(h12)}:${pad(
    local.getUTCMinutes()
  )} ${hours < 12 ? "a. m." : "p. m."}`
}

const cell = (value: string | null): string => {
  if (value === null) return ""
  // A leading = + - @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

const cents = (value: number) => Money.toDecimalString(Money.Cents(value))

/** The export's first line. */
export const CSV_HEADER = `${Recibos.TRANSACCIONES_CSV_COLUMNAS.join(",")}\r\n`

/** One transaction as a line of the export, in {@link Recibos.TRANSACCIONES_CSV_COLUMNAS}' order. */
export const csvLine = (r: TxnRow): string =>
  `${[
    r.id,
    r.created_at.toISOString(),
    fechaCaracas(r.created_at),
    r.operacion,
    r.estado,
    cents(r.monto),
    cents(r.propina),
    Money.toDecimalString(Fees.total(Money.Cents(r.monto), Money.Cents(r.propina))),
    r.moneda,
    r.mode,
    r.link_id,
    r.referencia_banco,
    r.codigo_verificacion,
    r.motivo_rechazo,
    r.liquidada_at === null ? null : r.liquidada_at.toISOString()
  ]
    .map(cell)
    .join(",")}\r\n`
