/**
 * Ports: what the domain needs from the outside world, as Effect services. The server
 * provides adapters (the sandbox bank for test mode, the HTTP bank for live mode, a card
 * processor); tests provide their own layers.
 */
import { Context, Data, type Effect } from "effect"
import type { Cents } from "./Money.js"
import type { OperationState } from "./Operation.js"
import type { MotivoRechazo } from "./Resultado.js"

/** A party of a bank operation as the bank sees it: the Instrument without its name rules. */
export interface Party {
  readonly tipo: "cuenta" | "telefono"
  readonly valor: string
  readonly banco: string
  readonly identificacion: string
  readonly tipo_doc?: "V" | "E" | "J" | "P" | "G" | undefined
  readonly nombre: string
}

/**
 * Every bank answer, normalised. Adapters never fail for a bank's business answer: a timeout
 * after sending is `DESCONOCIDA`, a failure before sending is `ERROR`, a refusal is
 * `RECHAZADA` with a `motivo_rechazo` from SPEC's list.
 */
export interface BankAnswer {
  readonly estado: OperationState
  readonly referencia_banco: string | null
  readonly endtoend: string | null
  readonly motivo_rechazo: MotivoRechazo | null
  /**
   * Set by `query` only, with `estado` `DESCONOCIDA`: the bank answered that it never received
   * the operation. Unset when the query itself failed (no answer, a 5xx), which says nothing.
   */
  readonly noRecibida?: boolean
  /**
   * The bank's own answer code and words, as it sent them, beside the normalised reason: what an
   * operator reads when `motivo_rechazo` says only `DESCONOCIDO`. Unset when the bank said none.
   */
  readonly codigo_banco?: string | null
  readonly mensaje_banco?: string | null
}

/** Common fields of an order sent to a bank; `operacionId` is our id, sent so the bank can dedupe. */
export interface BankOrder {
  readonly operacionId: string
  readonly monto: Cents
  readonly concepto: string
}

export interface RequestCodeOrder extends BankOrder {
  readonly cobrador: Party
  readonly pagador: Party
}

export interface DebitOrder extends RequestCodeOrder {
  readonly otp: string
}

export interface CreditOrder extends BankOrder {
  readonly ordenante: Party
  readonly beneficiario: Party
  readonly via: "credito_inmediato" | "pago_movil"
}

export interface ReversalOrder {
  readonly operacionId: string
  readonly originalId: string
  readonly monto: Cents
  readonly motivo: string
}

/** The bank (C2P debit with a one-time code, immediate credit, query, reversal, refund). */
export class BankGateway extends Context.Tag("@switch/core/BankGateway")<
  BankGateway,
  {
    /** Asks the payer's bank to send the one-time code; ACEPTADA means it was sent. */
    readonly requestCode: (order: RequestCodeOrder) => Effect.Effect<BankAnswer>
    /** Debits the payer with the code they received. */
    readonly debit: (order: DebitOrder) => Effect.Effect<BankAnswer>
    /** Sends money (payouts, settlement to the merchant, split shares). */
    readonly credit: (order: CreditOrder) => Effect.Effect<BankAnswer>
    /** Asks the bank for the current state of an operation sent earlier, by our id. */
    readonly query: (operacionId: string) => Effect.Effect<BankAnswer>
    /** Reverses an operation the same day; banks that cannot answer NO_SOPORTADO. */
    readonly reverse: (order: ReversalOrder) => Effect.Effect<BankAnswer>
    /** Returns money of an earlier collection to its payer. */
    readonly refund: (order: ReversalOrder) => Effect.Effect<BankAnswer>
  }
>() {}

/** A card form opened at the external processor; the service never sees card data. */
export interface CardSession {
  /** Our id of the charge, sent so the processor can dedupe a repeated open. */
  readonly chargeId: string
  /** The processor's hosted form, where the payer's browser goes. */
  readonly formUrl: string
  readonly expiresAt: Date
}

/**
 * What the processor says about a charge. `SinRespuesta`: the processor could not be reached or
 * did not answer, which says nothing about the money (never read it as "not charged").
 */
export type CardStatus =
  | { readonly _tag: "Cobrado"; readonly referencia: string }
  | { readonly _tag: "NoCobrado" }
  | { readonly _tag: "EnCurso" }
  | { readonly _tag: "SinRespuesta" }

/** One credited charge of the processor's nightly close. */
export interface CardCredit {
  readonly chargeId: string
  readonly referencia: string
  readonly total: Cents
}

/** The nightly close of a day (Caracas date `YYYY-MM-DD`): the charges credited that night. */
export type CardClose =
  | { readonly _tag: "Cerrado"; readonly dia: string; readonly creditos: ReadonlyArray<CardCredit> }
  | { readonly _tag: "Pendiente" }

/** The external card processor of the card pilot. */
export class CardProcessor extends Context.Tag("@switch/core/CardProcessor")<
  CardProcessor,
  {
    /** Opens the hosted form for `total` (amount, tip and surcharge); the same `chargeId` twice opens one form. */
    readonly open: (input: {
      readonly chargeId: string
      readonly linkId: string
      readonly total: Cents
      readonly returnUrl: string
      readonly expiresAt: Date
    }) => Effect.Effect<CardSession, CardUnavailable>
    /**
     * Asks about a charge. With `close` the processor also closes a form still open, so that
     * `NoCobrado` is final: nothing can be charged on it afterwards (pay another way, expiry).
     */
    readonly query: (chargeId: string, options: { readonly close: boolean }) => Effect.Effect<CardStatus>
    /** Reads the nightly close of a day. */
    readonly nightlyClose: (dia: string) => Effect.Effect<CardClose>
  }
>() {}

/** The processor could not open a form (down, or refused it). */
export class CardUnavailable extends Data.TaggedError("CardUnavailable")<{ readonly motivo: string }> {}

/** Identifier source, so tests can make ids predictable. Time comes from Effect's Clock. */
export class Ids extends Context.Tag("@switch/core/Ids")<
  Ids,
  {
    readonly uuid: Effect.Effect<string>
  }
>() {}
