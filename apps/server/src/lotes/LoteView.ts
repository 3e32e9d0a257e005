/** How a stored batch reads in the API: its items, and the per-state summary of its links. */
import type { Lotes, Mode } from "@switch/api"
import { Fees, LinkMachine, Money } from "@switch/core"
import { linkUrl, waDeeplink } from "../platform/LinkUrls.js"

/** A `lotes` row as the queries select it. */
export interface LoteRow {
  readonly id: string
  readonly mode: Mode
  readonly nombre: string | null
  readonly idempotency_key: string | null
  readonly expires_at: Date
  readonly created_at: Date
}

export const LOTE_COLUMNS = ["id", "mode", "nombre", "idempotency_key", "expires_at", "created_at"] as const

/** An item link as the batch queries select it. */
export interface ItemRow {
  readonly id: string
  readonly lote_pos: number
  readonly estado: LinkMachine.LinkState
  readonly monto: number
  readonly propina: number
  readonly concepto: string | null
  readonly expires_at: Date | null
  readonly referencia_externa: string | null
  readonly cliente: { readonly nombre?: string | undefined; readonly telefono?: string | undefined } | null
  readonly idempotency_key: string | null
}

export const ITEM_COLUMNS = [
  "id",
  "lote_pos",
  "estado",
  "monto",
  "propina",
  "concepto",
  "expires_at",
  "referencia_externa",
  "cliente",
  "idempotency_key"
] as const

/** How many items share a visible state, with their amounts in cents. */
export interface StateStat {
  readonly estado: LinkMachine.LinkState
  readonly n: number
  /** Sum of the items' `monto`. */
  readonly monto: number
  /** Sum of the items' `monto + propina`. */
  readonly total: number
}

/** Items a payer can still pay or that are being paid: the batch is not finished while any is. */
export const OPEN_STATES: ReadonlyArray<LinkMachine.LinkState> = ["pendiente", ...LinkMachine.InFlightStates]

/** The summary of a batch from its per-state stats (states already as the payer sees them). */
export const summarize = (stats: ReadonlyArray<StateStat>): Lotes.LoteResumen => {
  const porEstado: Record<string, number> = {}
  for (const estado of LinkMachine.LinkStates) porEstado[estado] = 0
  let montoTotal = 0
  let montoPagado = 0
  for (const stat of stats) {
    porEstado[stat.estado] = (porEstado[stat.estado] ?? 0) + stat.n
    montoTotal += stat.monto
    if (stat.estado === "pagado") montoPagado += stat.total
  }
  const abiertos = OPEN_STATES.reduce((n, estado) => n + (porEstado[estado] ?? 0), 0)
  return {
    por_estado: porEstado,
    monto_total: Money.toNumber(Money.Cents(montoTotal)),
    monto_pagado: Money.toNumber(Money.Cents(montoPagado)),
    pagados: porEstado.pagado ?? 0,
    abiertos,
    completo: abiertos === 0
  }
}

/** The visible state of an item at `now`: an open link past its expiry reads as `expirado`. */
const itemState = (row: ItemRow, now: Date) =>
  LinkMachine.visibleState({ estado: row.estado, expiresAt: row.expires_at }, now)

/** One stat per item, for summarising a batch whose items are already loaded. */
export const itemStats = (items: ReadonlyArray<ItemRow>, now: Date): ReadonlyArray<StateStat> =>
  items.map((row) => ({
    estado: itemState(row, now),
    n: 1,
    monto: row.monto,
    total: Fees.total(Money.Cents(row.monto), Money.Cents(row.propina))
  }))

export const toItemView = (row: ItemRow, baseUrl: string, now: Date): Lotes.LoteItem => {
  const url = linkUrl(baseUrl, row.id)
  return {
    link_id: row.id,
    url,
    wa_deeplink: waDeeplink(url, row.concepto, row.monto),
    estado: itemState(row, now),
    monto: Money.toNumber(Money.Cents(row.monto)),
    concepto: row.concepto ?? "",
    referencia_externa: row.referencia_externa,
    cliente: row.cliente,
    idempotency_key: row.idempotency_key ?? ""
  }
}

/** A batch without its items: the list shape. */
export const toSummaryView = (row: LoteRow, resumen: Lotes.LoteResumen): Lotes.LoteSummary => ({
  id: row.id,
  nombre: row.nombre,
  idempotency_key: row.idempotency_key,
  mode: row.mode,
  expires_at: row.expires_at.toISOString(),
  created_at: row.created_at.toISOString(),
  resumen,
  ...resumen
})

/** A batch with its items in order and the summary computed from them. */
export const toLoteView = (
  row: LoteRow,
  items: ReadonlyArray<ItemRow>,
  context: { readonly baseUrl: string; readonly now: Date }
): Lotes.Lote => ({
  ...toSummaryView(row, summarize(itemStats(items, context.now))),
  items: [...items]
    .sort((a, b) => a.lote_pos - b.lote_pos)
    .map((item) => toItemView(item, context.baseUrl, context.now))
})
