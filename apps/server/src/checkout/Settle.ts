/**
 * Applying a bank's answer to a payment attempt, each a conditional update on the link's state
 * so racing answers (the payer's request, a second process, the reconciler) move it once:
 * LIQUIDADA pays the link (markPaid: transaction, receipt code and `link.pagado` in one
 * transaction, plus the customer), ACEPTADA/PENDIENTE leave it `procesando`, RECHAZADA and ERROR
 * (nothing was debited) reopen it with no event, DESCONOCIDA puts it in `revision` until a query
 * tells.
 */
import { PgClient } from "@effect/sql-pg"
import { LinkMachine, type Ports, type Resultado } from "@switch/core"
import { Effect, Either, Option } from "effect"
import { joinCustomer } from "../platform/Customers.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { LINK_COLUMNS, type LinkRow, snapshot } from "../platform/LinksRepo.js"
import type { MerchantRow } from "../platform/Merchants.js"
import { markPaid } from "../platform/PaymentRecorder.js"

/** A link as the checkout reads it: the API columns plus its merchant. */
export interface CheckoutLink extends LinkRow {
  readonly comercio_id: string
  readonly referencia_banco: string | null
}

export const CHECKOUT_COLUMNS = [...LINK_COLUMNS, "comercio_id", "referencia_banco"].join(", ")

export type Outcome =
  | { readonly _tag: "Pagado"; readonly referencia: string; readonly codigo: string }
  | { readonly _tag: "Procesando" }
  | { readonly _tag: "Rechazado"; readonly motivo: Resultado.MotivoRechazo }
  /** Someone else applied an answer first, or the answer no longer applies. */
  | { readonly _tag: "SinCambio" }

export interface Attempt {
  readonly id: string
  readonly huella: string | null
}

/** Test links settle immediately in simulation: `Liquidar` becomes a simulated `link.acreditado`. */
const effectsFor = (link: CheckoutLink, effects: ReadonlyArray<LinkMachine.LinkEffect>) =>
  link.mode === "live"
    ? effects
    : effects.map((e) =>
        e._tag === "Liquidar"
          ? LinkMachine.LinkEffect.Emitir({
              evento: "link.acreditado",
              metodo: "debito",
              referencia: null,
              simulado: true
            })
          : e
      )

export const applyAnswer = (input: {
  readonly attempt: Attempt
  readonly link: CheckoutLink
  readonly merchant: MerchantRow
  readonly answer: Ports.BankAnswer
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const { attempt, link, merchant, answer, at } = input
    const from = link.estado
    const machine = { ...snapshot(link, merchant), metodo: link.metodo ?? ("debito" as const) }
    const closeAttempt = (estado: string, motivo: string | null, referencia: string | null) =>
      sql`update intentos_pago set estado = ${estado}, motivo_rechazo = ${motivo},
            referencia_banco = ${referencia}, actualizado_at = ${at}
          where id = ${attempt.id}`

    switch (answer.estado) {
      case "LIQUIDADA": {
        const referencia = answer.referencia_banco ?? attempt.id.slice(0, 12)
        const t = LinkMachine.transition(machine, LinkMachine.LinkEvent.BancoConfirma({ referencia }), at)
        if (Either.isLeft(t)) return { _tag: "SinCambio" } as Outcome
        const paid = yield* sql.withTransaction(
          Effect.gen(function* () {
            const done = yield* markPaid({
              linkId: link.id,
              comercioId: link.comercio_id,
              mode: link.mode,
              from,
              referencia,
              metodo: "debito",
              effects: effectsFor(link, t.right.effects),
              paidAt: at
            })
            if (Option.isNone(done)) return done
            yield* closeAttempt("LIQUIDADA", null, referencia)
            if (link.alta_cliente && attempt.huella !== null) {
              const nombre = yield* LinksRepo.payerName(link.id)
              yield* joinCustomer({
                comercioId: link.comercio_id,
                mode: link.mode,
                huella: attempt.huella,
                nombre,
                empresa: merchant.tipo === "empresa"
              })
            }
            return done
          })
        )
        return Option.match(paid, {
          onNone: (): Outcome => ({ _tag: "SinCambio" }),
          onSome: (p): Outcome => ({ _tag: "Pagado", referencia, codigo: p.codigo })
        })
      }
      case "ACEPTADA":
      case "PENDIENTE": {
        const accepted = LinkMachine.transition(machine, LinkMachine.LinkEvent.BancoAcepta(), at)
        const moved = Either.isRight(accepted) ? yield* LinksRepo.waitOnBank(link.id, accepted.right) : []
        yield* sql`update intentos_pago set estado = ${answer.estado}, referencia_banco = ${answer.referencia_banco},
            actualizado_at = ${at}
          where id = ${attempt.id} and estado in ('ENVIANDO', 'ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')`
        return (
          moved.length > 0 || from === "procesando" ? { _tag: "Procesando" } : { _tag: "SinCambio" }
        ) as Outcome
      }
      case "RECHAZADA":
      case "ERROR": {
        // ERROR means the order never reached the bank: nothing was debited, the payer may retry.
        const motivo: Resultado.MotivoRechazo =
          answer.estado === "ERROR" ? "RECHAZO_TECNICO" : (answer.motivo_rechazo ?? "DESCONOCIDO")
        const rejected = LinkMachine.transition(machine, LinkMachine.LinkEvent.BancoRechaza({ motivo }), at)
        if (Either.isLeft(rejected)) return { _tag: "SinCambio" } as Outcome
        const reopened = yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* LinksRepo.reopen(link.id, rejected.right)
            if (rows.length > 0) yield* closeAttempt("RECHAZADA", motivo, null)
            return rows.length > 0
          })
        )
        return (reopened ? { _tag: "Rechazado", motivo } : { _tag: "SinCambio" }) as Outcome
      }
      case "DESCONOCIDA": {
        const unknown = LinkMachine.transition(machine, LinkMachine.LinkEvent.BancoSinRespuesta(), at)
        if (Either.isRight(unknown)) yield* LinksRepo.waitOnBank(link.id, unknown.right)
        // Never over a final answer a racing observer recorded, and the unknown clock starts once.
        yield* sql`update intentos_pago set estado = 'DESCONOCIDA', actualizado_at = ${at}
          where id = ${attempt.id} and estado in ('ENVIANDO', 'ACEPTADA', 'PENDIENTE')`
        return { _tag: "Procesando" } as Outcome
      }
    }
  }).pipe(Effect.orDie)
