/**
 * What a collected charge costs and leaves: the merchant's commission, IGTF, the tip rules,
 * the net that is settled, and the card surcharge the payer pays on top.
 *
 * Rounding: fees the service charges (commission, IGTF, card surcharge) round half-up to the
 * cent, the usual commercial rule, so a fee of exactly half a cent is charged as one cent.
 * Caps that limit what a payer may give (the tip cap) round down, so the cap never lets a
 * payer go past the merchant's percentage.
 */
import { Either } from "effect"
import type { BasisPoints, Cents } from "./Money.js"
import * as Money from "./Money.js"

// ---------------------------------------------------------------------------------------------
// Commission

/** General commission when the merchant has no agreed one: 1 % (SPEC, configuration view). */
export const DEFAULT_COMMISSION_PCT: BasisPoints = Money.BasisPoints(100)

/** The commission that applies to a merchant: its agreed override, else the 1 % default. */
export const commissionPctFor = (override: BasisPoints | null | undefined): BasisPoints =>
  override ?? DEFAULT_COMMISSION_PCT

/** Commission on the paid amount with tip, rounded half-up to the cent. */
export const commission = (amountWithTip: Cents, pct: BasisPoints): Cents =>
  Money.percentage(amountWithTip, pct, "half_up")

// ---------------------------------------------------------------------------------------------
// IGTF

/**
 * IGTF (Impuesto a las Grandes Transacciones Financieras) rate on payments in foreign
 * currency: 3 %. Collections here are in bolivars, where it is 0 %; the rate is data so the
 * configuration view can show it.
 */
export const IGTF_PCT: BasisPoints = Money.BasisPoints(300)

/** The IGTF rate for a currency: 0 for bolivars, {@link IGTF_PCT} for any foreign currency. */
export const igtfPct = (currency: string): BasisPoints =>
  currency.trim().toUpperCase() === "VES" ? Money.BasisPoints(0) : IGTF_PCT

/** IGTF on an amount in the given currency, rounded half-up; always 0 for VES. */
export const igtf = (amount: Cents, currency: string): Cents =>
  Money.percentage(amount, igtfPct(currency), "half_up")

// ---------------------------------------------------------------------------------------------
// Tips (`propina`)

/**
 * What the payer is debited for a charge: its amount plus the tip, before any card surcharge.
 * Receipts, the receive caps and the settlement's gross all count this sum.
 */
export const total = (monto: Cents, propina: Cents): Cents => Money.add(monto, propina)

/** A tip is never more than Bs 100.000, whatever the merchant's percentage allows. */
export const TIP_MAX: Cents = Money.Cents(10_000_000)

/** The merchant's tip cap is at most 100 % of the charge. */
export const TIP_MAX_PCT: BasisPoints = Money.BasisPoints(10_000)

/** Why a tip is refused; the code is what the API and payment page report. */
export type TipErrorCode = "propina_negativa" | "propina_no_permitida" | "propina_excede_maximo"

/** A refused tip: its code, a Spanish message for the payer, and the largest tip allowed. */
export interface TipError {
  readonly _tag: "TipError"
  readonly error: TipErrorCode
  readonly mensaje: string
  readonly maximo: Cents
}

/** What decides a tip: the charge without tip, the tip, and the merchant's cap (null = no tips). */
export interface TipInput {
  readonly charge: Cents
  readonly tip: Cents
  readonly maxPct: BasisPoints | null | undefined
}

/** Largest tip allowed on a charge: the merchant's percentage (rounded down) capped at Bs 100.000. */
export const tipCap = (input: {
  readonly charge: Cents
  readonly maxPct: BasisPoints | null | undefined
}): Cents => {
  if (input.maxPct === null || input.maxPct === undefined || input.maxPct <= 0) return Money.zero
  // A cap configured above 100 % is read as 100 %: SPEC's ceiling wins over bad configuration.
  const pct = Money.BasisPoints(Math.min(input.maxPct, TIP_MAX_PCT))
  const byPercent = Money.percentage(Money.max(input.charge, Money.zero), pct, "down")
  return Money.min(byPercent, TIP_MAX)
}

const tipError = (error: TipErrorCode, mensaje: string, maximo: Cents): TipError => ({
  _tag: "TipError",
  error,
  mensaje,
  maximo
})

/** Checks a tip in cents against the merchant's cap; 0 (no tip) is always accepted. */
export const validateTip = (input: TipInput): Either.Either<Cents, TipError> => {
  const maximo = tipCap(input)
  if (input.tip < 0)
    return Either.left(tipError("propina_negativa", "la propina no puede ser negativa", maximo))
  if (input.tip === 0) return Either.right(input.tip)
  if (input.maxPct === null || input.maxPct === undefined || input.maxPct <= 0) {
    return Either.left(tipError("propina_no_permitida", "este comercio no acepta propinas", maximo))
  }
  if (input.tip > maximo) {
    return Either.left(
      tipError("propina_excede_maximo", `la propina no puede superar ${Money.format(maximo)}`, maximo)
    )
  }
  return Either.right(input.tip)
}

// ---------------------------------------------------------------------------------------------
// Net

/** A paid charge split into what was paid, the commission and what the merchant receives. */
export interface Net {
  /** Amount plus tip: what the payer paid, before any card surcharge. */
  readonly bruto: Cents
  readonly comision: Cents
  /** What is settled to the merchant (and what a split is computed on). */
  readonly neto: Cents
}

/** The merchant's net of a paid charge: amount + tip − commission on (amount + tip), never negative. */
export const net = (input: {
  readonly amount: Cents
  readonly tip: Cents
  readonly commissionPct: BasisPoints
}): Net => {
  const bruto = total(input.amount, input.tip)
  // Clamped so that bruto = comision + neto holds even for a commission configured above 100 %.
  const comision = Money.min(commission(bruto, input.commissionPct), Money.max(bruto, Money.zero))
  const neto = Money.max(Money.subtract(bruto, comision), Money.zero)
  return { bruto, comision, neto }
}

// ---------------------------------------------------------------------------------------------
// Card payment (pilot)

/** Surcharge the payer pays on a card payment: 3 % (a Bs 100 charge is billed Bs 103). */
export const CARD_SURCHARGE_PCT: BasisPoints = Money.BasisPoints(300)

/** The card processor's minimum, counting the surcharge: Bs 5. */
export const CARD_MIN: Cents = Money.Cents(500)

/** What a card payment bills: the surcharge and the total charged to the card. */
export interface CardCharge {
  readonly recargo: Cents
  readonly total: Cents
}

/**
 * The card bill for a charge with tip: surcharge rounded half-up, added on top. The merchant's
 * settlement ignores it: use {@link net} on the amount and tip, as for immediate debit.
 */
export const cardCharge = (amountWithTip: Cents, pct: BasisPoints = CARD_SURCHARGE_PCT): CardCharge => {
  const recargo = Money.percentage(amountWithTip, pct, "half_up")
  return { recargo, total: Money.add(amountWithTip, recargo) }
}

/** Why card payment is not offered on a link. */
export type CardUnavailableReason = "modo_prueba" | "moneda" | "split" | "bajo_minimo" | "sobre_techo"

/** Whether card payment may be offered, with the bill when it may and the reason when not. */
export type CardAvailability =
  | ({ readonly _tag: "Disponible" } & CardCharge)
  | { readonly _tag: "NoDisponible"; readonly motivo: CardUnavailableReason }

/** The link facts card availability depends on; `total` is amount + tip, before the surcharge. */
export interface CardAvailabilityInput {
  readonly mode: "test" | "live"
  readonly currency: string
  readonly hasSplit: boolean
  readonly total: Cents
  /** Pilot ceiling on the billed total (with surcharge); none when absent. */
  readonly ceiling?: Cents | null | undefined
  readonly surchargePct?: BasisPoints | undefined
}

/**
 * Decides card availability from the link alone: live, VES, no split, and the billed total
 * (with surcharge) from Bs 5 up to the ceiling. The merchant's pilot flag and whether a debit
 * is in progress are the caller's to check.
 */
export const cardAvailability = (input: CardAvailabilityInput): CardAvailability => {
  if (input.mode !== "live") return { _tag: "NoDisponible", motivo: "modo_prueba" }
  if (input.currency.trim().toUpperCase() !== "VES") return { _tag: "NoDisponible", motivo: "moneda" }
  if (input.hasSplit) return { _tag: "NoDisponible", motivo: "split" }
  const bill = cardCharge(input.total, input.surchargePct ?? CARD_SURCHARGE_PCT)
  if (bill.total < CARD_MIN) return { _tag: "NoDisponible", motivo: "bajo_minimo" }
  if (input.ceiling !== null && input.ceiling !== undefined && bill.total > input.ceiling) {
    return { _tag: "NoDisponible", motivo: "sobre_techo" }
  }
  return { _tag: "Disponible", ...bill }
}

/** Whether the payment page may offer card payment for the link (see {@link cardAvailability}). */
export const cardAvailable = (input: CardAvailabilityInput): boolean =>
  cardAvailability(input)._tag === "Disponible"
