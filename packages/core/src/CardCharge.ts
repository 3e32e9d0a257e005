/**
 * A card charge of the card pilot, from the form being opened to the processor's nightly credit,
 * as a state machine in the pattern of {@link LinkMachine}: `transition` is pure and answers the
 * next state with the effects the server must carry out in the same transaction, or a refusal.
 *
 * Every event is a fact the processor (or an operator) stated, so the machine must be safe when
 * facts arrive twice or out of order: callbacks are retried, a query can overtake a callback, the
 * nightly close can arrive before a lost approval callback. Hence:
 * - the processor is the authority on money: an approval or a credit wins over a local release
 *   (a charge found after the form was released still pays the link, or goes to review);
 * - a repeated fact is refused as `Repetido`, which the server answers as success without effects;
 * - paying the link and settling the merchant are each caused at most once in any history.
 */
import { Data, Either } from "effect"
import type { CardStatus } from "./Ports.js"

/** The card form lasts 6 minutes (SPEC limits). */
export const FORM_DURATION_MS = 6 * 60 * 1000

/** When a form opened at `openedAt` expires. */
export const formExpiresAt = (openedAt: Date): Date => new Date(openedAt.getTime() + FORM_DURATION_MS)

export const CardChargeStates = [
  /** The form is open at the processor; the link is `cobrando`. */
  "abierto",
  /** The processor approved the charge; the link is `pagado`; the nightly credit is awaited. */
  "aprobado",
  /** Declined, expired or closed without a charge; the link was released. */
  "sin_cobro",
  /** The nightly close credited the charge; the merchant was settled. Final. */
  "acreditado",
  /** An approved charge missing from the nightly close: in the operators' review queue. */
  "faltante",
  /** Closed by an operator with a note, never credited. Final. */
  "cerrado",
  /**
   * Approved (or credited) when its link could no longer take it: paid another way meanwhile, or
   * closed. The payer may be charged twice, so the charge waits in the operators' review queue;
   * its credit never settles the merchant, and an operator closes it with a note (the refund at
   * the processor, say).
   */
  "duplicado"
] as const
export type CardChargeState = (typeof CardChargeStates)[number]

export const FinalCardStates: ReadonlyArray<CardChargeState> = ["acreditado", "cerrado"]

/** What the server knows of a stored charge. */
export interface CardChargeSnapshot {
  readonly estado: CardChargeState
  /** The processor's receipt reference, once it approved. */
  readonly referencia: string | null
  readonly expiresAt: Date
}

export type CardChargeEvent = Data.TaggedEnum<{
  /** The processor approved the charge (callback or query). */
  Aprobada: { readonly referencia: string }
  /** The processor states nothing was charged: declined, expired, or closed at our query. */
  SinCobro: {}
  /** The processor's nightly close lists the charge as credited. */
  Acreditada: { readonly referencia: string }
  /** The nightly close of the charge's day came without it. */
  FaltaEnCierre: {}
  /** An operator marks a missing charge as credited, with the credit's reference. */
  MarcarAcreditada: { readonly referencia: string }
  /** An operator closes a charge in review (missing or duplicated) with a note. */
  CerrarConNota: { readonly nota: string }
  /**
   * The processor approved or credited the charge, but its link can no longer be paid by it (the
   * server states this instead of `Aprobada`/`Acreditada` when the link is paid, closed or taken).
   */
  Duplicada: { readonly referencia: string }
}>
export const CardChargeEvent = Data.taggedEnum<CardChargeEvent>()

export type CardChargeEffect = Data.TaggedEnum<{
  /** Move the link `cobrando` → `pagado` (or to review if it can no longer be paid). */
  PagarLink: { readonly referencia: string }
  /** Move the link `cobrando` → `pendiente`: the payer may pay another way at once. */
  LiberarLink: {}
  /** Settle the merchant (amount with tip minus commission) and send `link.acreditado`. */
  Liquidar: { readonly referencia: string }
  /** Put the charge in the operators' review queue. */
  AbrirRevision: {}
  /** Take it out of the review queue. */
  CerrarRevision: {}
}>
export const CardChargeEffect = Data.taggedEnum<CardChargeEffect>()

export type CardChargeRefusal = Data.TaggedEnum<{
  /** The same fact again (a retried callback, a second query): success without effects. */
  Repetido: { readonly estado: CardChargeState }
  /** The fact contradicts what the processor said before (another reference, say). */
  NoAplica: { readonly estado: CardChargeState; readonly evento: CardChargeEvent["_tag"] }
}>
export const CardChargeRefusal = Data.taggedEnum<CardChargeRefusal>()

export interface CardChargeTransition {
  readonly from: CardChargeState
  readonly to: CardChargeState
  readonly referencia: string | null
  readonly effects: ReadonlyArray<CardChargeEffect>
}

type Result = Either.Either<CardChargeTransition, CardChargeRefusal>

const move = (
  charge: CardChargeSnapshot,
  to: CardChargeState,
  referencia: string | null,
  effects: ReadonlyArray<CardChargeEffect>
): Result => Either.right({ from: charge.estado, to, referencia, effects })

const repeated = (charge: CardChargeSnapshot): Result =>
  Either.left(CardChargeRefusal.Repetido({ estado: charge.estado }))

const refuse = (charge: CardChargeSnapshot, event: CardChargeEvent): Result =>
  Either.left(CardChargeRefusal.NoAplica({ estado: charge.estado, evento: event._tag }))

/** The same reference as stored, or none stored yet. */
const sameCharge = (charge: CardChargeSnapshot, referencia: string): boolean =>
  charge.referencia === null || charge.referencia === referencia

/** Applies `event` to `charge`. */
export const transition = (charge: CardChargeSnapshot, event: CardChargeEvent): Result => {
  const { estado } = charge
  switch (event._tag) {
    case "Aprobada":
      switch (estado) {
        case "abierto":
        case "sin_cobro":
          // A late approval after a release still pays: the processor holds the money.
          return move(charge, "aprobado", event.referencia, [
            CardChargeEffect.PagarLink({ referencia: event.referencia })
          ])
        default:
          return sameCharge(charge, event.referencia) ? repeated(charge) : refuse(charge, event)
      }

    case "SinCobro":
      switch (estado) {
        case "abierto":
          return move(charge, "sin_cobro", null, [CardChargeEffect.LiberarLink()])
        case "sin_cobro":
          return repeated(charge)
        default:
          // An approval was already stated: a stale "nothing charged" cannot undo it.
          return refuse(charge, event)
      }

    case "Acreditada":
      switch (estado) {
        case "abierto":
        case "sin_cobro":
          // The credit is the first news of the approval (its callback was lost).
          return move(charge, "acreditado", event.referencia, [
            CardChargeEffect.PagarLink({ referencia: event.referencia }),
            CardChargeEffect.Liquidar({ referencia: event.referencia })
          ])
        case "aprobado":
          return sameCharge(charge, event.referencia)
            ? move(charge, "acreditado", event.referencia, [
                CardChargeEffect.Liquidar({ referencia: event.referencia })
              ])
            : refuse(charge, event)
        case "faltante":
          return sameCharge(charge, event.referencia)
            ? move(charge, "acreditado", event.referencia, [
                CardChargeEffect.Liquidar({ referencia: event.referencia }),
                CardChargeEffect.CerrarRevision()
              ])
            : refuse(charge, event)
        case "acreditado":
        case "duplicado":
          // A duplicated charge's credit is not the merchant's: it waits for the operator.
          return sameCharge(charge, event.referencia) ? repeated(charge) : refuse(charge, event)
        case "cerrado":
          return refuse(charge, event)
      }
      break

    case "Duplicada":
      switch (estado) {
        case "abierto":
        case "sin_cobro":
          return move(charge, "duplicado", event.referencia, [CardChargeEffect.AbrirRevision()])
        case "duplicado":
          return sameCharge(charge, event.referencia) ? repeated(charge) : refuse(charge, event)
        default:
          // The charge already paid its link: the link cannot have been taken by another payment.
          return refuse(charge, event)
      }

    case "FaltaEnCierre":
      switch (estado) {
        case "aprobado":
          return move(charge, "faltante", charge.referencia, [CardChargeEffect.AbrirRevision()])
        case "faltante":
          return repeated(charge)
        default:
          return refuse(charge, event)
      }

    case "MarcarAcreditada":
      return estado === "faltante"
        ? move(charge, "acreditado", event.referencia, [
            CardChargeEffect.Liquidar({ referencia: event.referencia }),
            CardChargeEffect.CerrarRevision()
          ])
        : refuse(charge, event)

    case "CerrarConNota":
      return estado === "faltante" || estado === "duplicado"
        ? move(charge, "cerrado", charge.referencia, [CardChargeEffect.CerrarRevision()])
        : refuse(charge, event)
  }
}

/**
 * What `event` means when the charge's link can no longer be paid by it: an approval or a credit
 * becomes {@link CardChargeEvent.Duplicada}; any other fact is unchanged.
 */
export const forTakenLink = (event: CardChargeEvent): CardChargeEvent =>
  event._tag === "Aprobada" || event._tag === "Acreditada"
    ? CardChargeEvent.Duplicada({ referencia: event.referencia })
    : event

/** Whether a form still open at `now` has outlived its 6 minutes and must be asked about. */
export const isOverdue = (charge: CardChargeSnapshot, now: Date): boolean =>
  charge.estado === "abierto" && charge.expiresAt.getTime() <= now.getTime()

/** The charge event a processor's answer states; none when it says nothing yet. */
export const eventOf = (status: CardStatus): CardChargeEvent | null => {
  switch (status._tag) {
    case "Cobrado":
      return CardChargeEvent.Aprobada({ referencia: status.referencia })
    case "NoCobrado":
      return CardChargeEvent.SinCobro()
    case "EnCurso":
    case "SinRespuesta":
      return null
  }
}
