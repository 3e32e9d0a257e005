/**
 * The payment recorder: recording a paid link is, in one transaction, the LinkMachine move to
 * `pagado` (LinksRepo.pay, conditional on the state it moves from), the collection transaction
 * with its receipt code, the outbox events (Outbox.write: event rows, webhook deliveries and
 * their jobs), and the settlement (Settlements: its job queued, or a test payment settled in
 * simulation). The unique `dedupe` of `link.pagado:<link>` and the conditional update keep it to
 * exactly once. Here, below the features, because the payment page and the links API (a
 * simulated payment) both record payments.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Fees, type LinkMachine, Money, ReceiptCode } from "@switch/core"
import { Effect, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import * as LinksRepo from "./LinksRepo.js"
import * as Outbox from "./Outbox.js"
import { Settlements } from "./Settlements.js"

export interface PaidInput {
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  /** The state the link is moving from; the update only applies if it still holds. */
  readonly from: LinkMachine.LinkState
  readonly referencia: string
  readonly metodo: LinkMachine.Metodo | null
  readonly effects: ReadonlyArray<LinkMachine.LinkEffect>
  readonly paidAt: Date
  /** Card payments: the surcharge the payer paid on top (cents), sent as `recargo_tarjeta`. */
  readonly recargoTarjeta?: number
}

export interface Paid {
  readonly txnId: string
  readonly codigo: string
}

/**
 * Marks the link paid if it is still in `from`; none when another request won the race.
 * Must run inside a transaction.
 */
export const markPaid = (input: PaidInput) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const settlements = yield* Settlements
    const txnId = randomUUID()
    const linkRows = yield* LinksRepo.pay({
      id: input.linkId,
      comercioId: input.comercioId,
      t: { from: input.from, to: "pagado" },
      metodo: input.metodo,
      txnId,
      referencia: input.referencia,
      paidAt: input.paidAt
    })
    const link = linkRows[0]
    if (link === undefined) return Option.none<Paid>()

    const total = Fees.total(Money.Cents(link.monto), Money.Cents(link.propina))
    // A collision of the 50-bit code is astronomically rare; the unique index catches it and
    // the next attempt input gives another code.
    let codigo = ""
    for (let attempt = 0; attempt < 5 && codigo === ""; attempt++) {
      const candidate = ReceiptCode.generate(
        Redacted.value(settings.secret),
        { transactionId: txnId, amount: total, currency: link.moneda, paidAt: input.paidAt },
        attempt
      )
      const taken = yield* sql`select 1 from transacciones where codigo_verificacion = ${candidate}`
      if (taken.length === 0) codigo = candidate
    }
    yield* sql`
      insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, propina, moneda,
        referencia_banco, codigo_verificacion, created_at, liquidada_at)
      values (${txnId}, ${input.comercioId}, ${input.mode}, 'cobro', 'LIQUIDADA', ${input.linkId}, ${link.monto},
        ${link.propina}, ${link.moneda}, ${input.referencia}, ${codigo}, ${input.paidAt}, ${input.paidAt})`
    yield* LinksRepo.setReceipt(
      input.linkId,
      codigo,
      LinksRepo.searchable(link.concepto, link.pagador_nombre, input.referencia, codigo)
    )

    const money = (cents: number) => Money.toNumber(Money.Cents(cents))
    for (const effect of input.effects) {
      // The real settlement is a durable job, queued in this transaction.
      if (effect._tag === "Liquidar") yield* settlements.enqueue(input.linkId)
      if (effect._tag !== "Emitir") continue
      if (effect.evento === "link.pagado") {
        yield* Outbox.write({
          comercioId: input.comercioId,
          mode: input.mode,
          evento: "link.pagado",
          dedupe: `link.pagado:${input.linkId}`,
          at: input.paidAt,
          data: {
            link_id: input.linkId,
            monto: money(link.monto),
            propina: money(link.propina),
            total: money(total),
            mode: input.mode,
            referencia: input.referencia,
            txn_id: txnId,
            codigo_verificacion: codigo,
            pagador: { alta_cliente: link.alta_cliente },
            ...(input.metodo === "tarjeta"
              ? { metodo: "tarjeta", recargo_tarjeta: money(input.recargoTarjeta ?? 0) }
              : {})
          }
        })
      } else {
        // Simulated immediate settlement: the net reaches the merchant at once.
        yield* settlements.settleSimulated({
          linkId: input.linkId,
          comercioId: input.comercioId,
          mode: input.mode,
          monto: link.monto,
          propina: link.propina,
          cobroTxnId: txnId,
          at: input.paidAt
        })
      }
    }
    return Option.some<Paid>({ txnId, codigo })
  })
