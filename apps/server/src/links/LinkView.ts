/** How a stored link reads in the API: SPEC's Payment link fields, money as JSON numbers. */
import type { Links } from "@switch/api"
import { Fees, LinkMachine, Money, Reembolso, Split } from "@switch/core"
import type { LinkRow } from "../platform/LinksRepo.js"
import { linkUrl, qrPngUrl, waDeeplink } from "../platform/LinkText.js"

// The row and its columns belong to the links repository (platform/LinksRepo.ts).
export { LINK_COLUMNS, type LinkRow, searchable } from "../platform/LinksRepo.js"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** The API view of a link at `now`: an open link past its expiry reads as `expirado`. */
export const toView = (
  row: LinkRow,
  context: {
    readonly baseUrl: string
    readonly comercio: string
    readonly now: Date
    /** What went back to the payer, in cents (refunds and reversals the bank paid). */
    readonly devuelto?: number
  }
): Links.Link => {
  const url = linkUrl(context.baseUrl, row.id)
  const view: Record<string, unknown> = {
    id: row.id,
    url,
    wa_deeplink: waDeeplink(url, row.concepto, row.monto),
    qr_png: qrPngUrl(context.baseUrl, row.id),
    comercio: context.comercio,
    monto: Money.toNumber(Money.Cents(row.monto)),
    moneda: "VES",
    concepto: row.concepto,
    estado: LinkMachine.visibleState({ estado: row.estado, expiresAt: row.expires_at }, context.now),
    expires_at: iso(row.expires_at),
    success_url: row.success_url,
    failure_url: row.failure_url,
    metadata: row.metadata,
    mode: row.mode,
    txn_id: row.txn_id,
    created_at: row.created_at.toISOString(),
    paid_at: iso(row.paid_at),
    propina: Money.toNumber(Money.Cents(row.propina)),
    total: Money.toNumber(Fees.total(Money.Cents(row.monto), Money.Cents(row.propina))),
    pagador: { alta_cliente: row.alta_cliente },
    codigo_verificacion: row.codigo_verificacion,
    origen: row.origen
  }
  if (row.lote_id !== null) {
    view.lote_id = row.lote_id
    view.referencia_externa = row.referencia_externa
  }
  if (row.split !== null) {
    view.split = Split.maskedSplitJson(row.split)
    view.reparto = Split.repartoJson(row.reparto)
  }
  // A paid link some money went back from: its refund state beside SPEC's `pagado` (issue 45).
  const pagado = Fees.total(Money.Cents(row.monto), Money.Cents(row.propina))
  const devuelto = Money.Cents(context.devuelto ?? 0)
  const reembolso = row.estado === "pagado" ? Reembolso.estadoDe(pagado, devuelto) : null
  if (reembolso !== null)
    view.reembolso = {
      estado: reembolso,
      monto_devuelto: Money.toNumber(devuelto),
      monto_restante: Money.toNumber(Money.Cents(Math.max(pagado - devuelto, 0)))
    }
  return view as Links.Link
}
