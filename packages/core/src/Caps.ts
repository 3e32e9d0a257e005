/**
 * Amount limits on what a merchant may collect, as pure decisions over amounts already counted.
 *
 * Two families, both from SPEC's Limits table:
 * - per-charge limits (minimum, maximum, maximum per day), checked when the charge is made and
 *   refused with a bank-style `motivo_rechazo` (`MONTO_INVALIDO`, `EXCEDE_LIMITE`);
 * - receive caps (per Venezuelan day and in total), checked when the payment code is requested
 *   and refused with `409 tope_diario_excedido` / `tope_acumulado_excedido`; an account not yet
 *   reviewed also has the new-account caps of US$ 300 per day and US$ 1,000 in total.
 *
 * Each limit is optional and set in bolivars or dollars; dollar limits are converted at the BCV
 * rate given for this operation (SPEC: "converted at each operation"). The caller counts the
 * `used` amounts (paid collections plus those the bank is processing, never rejected ones nor
 * payments to the merchant) separately per mode: caps apply in test mode too, apart from live.
 */
import { Either, Option } from "effect"
import type { Cents, Limit, Rate } from "./Money.js"
import { add, limitInVes, rateToNumber, Cents as toCents, toNumber } from "./Money.js"

/** A limit that may be unset (`null` is how the admin API clears one). */
export type OptionalLimit = Limit | null | undefined

/** New-account daily cap until the merchant is reviewed: US$ 300. */
export const NUEVA_CUENTA_TOPE_DIARIO: Limit = { cents: toCents(30_000), moneda: "USD" }

/** New-account total cap until the merchant is reviewed: US$ 1,000. */
export const NUEVA_CUENTA_TOPE_ACUMULADO: Limit = { cents: toCents(100_000), moneda: "USD" }

// ---------------------------------------------------------------------------------------------
// What counts against the limits
// ---------------------------------------------------------------------------------------------

/**
 * The sums the server reads for a merchant in one mode, in bolivar cents: collections paid
 * (amount plus tip) this Venezuelan day and ever, and those in flight (links the bank is
 * processing, direct debits at the bank and not yet final). Rejections are never counted.
 */
export interface UsageSums {
  readonly pagadoHoy: Cents
  readonly pagado: Cents
  readonly enCurso: Cents
}

/** What is already counted against the limits: money in flight counts today and in the total. */
export interface Usage {
  readonly hoy: Cents
  readonly total: Cents
}

/**
 * Usage from the sums: a collection in flight may still be paid, so it counts against both the
 * daily and the total limits until the bank says otherwise (SPEC "Limits").
 */
export const usage = (sums: UsageSums): Usage => ({
  hoy: add(sums.pagadoHoy, sums.enCurso),
  total: add(sums.pagado, sums.enCurso)
})

// ---------------------------------------------------------------------------------------------
// Per-charge limits
// ---------------------------------------------------------------------------------------------

/** Per-charge limits an admin may set on a merchant (`monto_min`, `monto_max`, `max_diario`). */
export interface ChargeLimits {
  readonly montoMin?: OptionalLimit
  readonly montoMax?: OptionalLimit
  readonly maxDiario?: OptionalLimit
}

/** Which per-charge limit refused the charge. */
export type ChargeLimitName = "monto_min" | "monto_max" | "max_diario"

/** Outcome of {@link checkCharge}. */
export type ChargeCheck =
  | { readonly _tag: "Permitido" }
  | {
      readonly _tag: "Rechazado"
      /** SPEC's rejection reason: below the minimum is `MONTO_INVALIDO`, above a maximum `EXCEDE_LIMITE`. */
      readonly motivo_rechazo: "MONTO_INVALIDO" | "EXCEDE_LIMITE"
      readonly limite: ChargeLimitName
      /** The limit in bolivar cents at the rate used. */
      readonly limiteVes: Cents
      /** Bolivar cents already counted today (only meaningful for `max_diario`). */
      readonly usadoHoy: Cents
    }

/** Input of {@link checkCharge}; `usadoHoy` counts this Venezuelan day's collections so far. */
export interface ChargeCheckInput {
  readonly monto: Cents
  readonly usadoHoy: Cents
  readonly limits: ChargeLimits
  readonly tasa: Rate
}

/**
 * Checks a charge against the merchant's per-charge minimum and maximum and its per-day
 * maximum, in that order (so a misconfigured min above max reports the minimum). Reaching a
 * maximum exactly is allowed; only passing it refuses.
 */
export const checkCharge = (input: ChargeCheckInput): ChargeCheck => {
  const { monto, usadoHoy, limits, tasa } = input
  const refuse = (
    motivo_rechazo: "MONTO_INVALIDO" | "EXCEDE_LIMITE",
    limite: ChargeLimitName,
    limiteVes: Cents
  ): ChargeCheck => ({ _tag: "Rechazado", motivo_rechazo, limite, limiteVes, usadoHoy })
  if (limits.montoMin != null) {
    const min = limitInVes(limits.montoMin, tasa)
    if (monto < min) return refuse("MONTO_INVALIDO", "monto_min", min)
  }
  if (limits.montoMax != null) {
    const max = limitInVes(limits.montoMax, tasa)
    if (monto > max) return refuse("EXCEDE_LIMITE", "monto_max", max)
  }
  if (limits.maxDiario != null) {
    const max = limitInVes(limits.maxDiario, tasa)
    if (usadoHoy + monto > max) return refuse("EXCEDE_LIMITE", "max_diario", max)
  }
  return { _tag: "Permitido" }
}

// ---------------------------------------------------------------------------------------------
// Receive caps
// ---------------------------------------------------------------------------------------------

/** Receive caps an admin may set on a merchant (`tope_diario`, `tope_acumulado`). */
export interface ReceiveCaps {
  readonly topeDiario?: OptionalLimit
  readonly topeAcumulado?: OptionalLimit
}

/** A cap in force and where it comes from (the admin's setting or the new-account rule). */
export interface EffectiveCap {
  readonly limit: Limit
  readonly ves: Cents
  readonly origen: "configurado" | "cuenta_nueva"
}

/** The caps in force at a rate: for each kind, the stricter (lower in bolivars) of the candidates. */
export interface EffectiveReceiveCaps {
  readonly diario?: EffectiveCap
  readonly acumulado?: EffectiveCap
}

const stricter = (
  configured: OptionalLimit,
  newAccount: Limit | undefined,
  tasa: Rate
): EffectiveCap | undefined => {
  const own: EffectiveCap | undefined =
    configured == null
      ? undefined
      : { limit: configured, ves: limitInVes(configured, tasa), origen: "configurado" }
  const fresh: EffectiveCap | undefined =
    newAccount === undefined
      ? undefined
      : { limit: newAccount, ves: limitInVes(newAccount, tasa), origen: "cuenta_nueva" }
  if (own === undefined) return fresh
  if (fresh === undefined) return own
  // On a tie the admin's own setting is reported, since that is the figure the merchant knows.
  return fresh.ves < own.ves ? fresh : own
}

/**
 * The receive caps in force: the configured ones and, while the merchant is not reviewed, the
 * new-account caps too, keeping for each kind the lower in bolivars at this rate.
 */
export const effectiveReceiveCaps = (
  caps: ReceiveCaps,
  revisado: boolean,
  tasa: Rate
): EffectiveReceiveCaps => {
  const diario = stricter(caps.topeDiario, revisado ? undefined : NUEVA_CUENTA_TOPE_DIARIO, tasa)
  const acumulado = stricter(caps.topeAcumulado, revisado ? undefined : NUEVA_CUENTA_TOPE_ACUMULADO, tasa)
  return {
    ...(diario === undefined ? {} : { diario }),
    ...(acumulado === undefined ? {} : { acumulado })
  }
}

/** SPEC's error codes for a receive cap reached when the payment code is requested (`409`). */
export type CapError = "tope_diario_excedido" | "tope_acumulado_excedido"

/** Payer text (`motivo`) for each receive-cap error. */
export const MOTIVO_TOPE: Record<CapError, string> = {
  tope_diario_excedido:
    "El comercio alcanzó su límite diario de cobros y no puede recibir este pago hoy. Intenta de nuevo mañana (hora de Venezuela) o comunícate con el comercio.",
  tope_acumulado_excedido:
    "El comercio alcanzó su límite total de cobros y no puede recibir este pago. Comunícate con el comercio."
}

/**
 * A receive-cap refusal with the fields of SPEC's `409` body: amounts in cents (bolivar cents
 * for `tope` and `usado`, dollar cents for `tope_usd`); the dollar fields only when the cap in
 * force is set in dollars, and then `tope` is `tope_usd` times `tasa_bcv`, rounded half-up.
 */
export interface CapRefusal {
  readonly error: CapError
  readonly motivo: string
  readonly tope: Cents
  readonly usado: Cents
  readonly topes_moneda?: "USD"
  readonly tope_usd?: Cents
  readonly tasa_bcv?: Rate
}

/** Outcome of {@link checkReceiveCap}. */
export type ReceiveCapCheck =
  | { readonly _tag: "Permitido" }
  | { readonly _tag: "Rechazado"; readonly refusal: CapRefusal }

/** Input of {@link checkReceiveCap}; both `usado` sums are of the same mode as the charge. */
export interface ReceiveCapInput {
  /** The amount about to be charged, in bolivar cents (with tip, as the payer will be debited). */
  readonly monto: Cents
  /** Collections of this Venezuelan day counted so far (paid plus bank-processing). */
  readonly usadoHoy: Cents
  /** Collections ever counted (paid plus bank-processing). */
  readonly usadoTotal: Cents
  readonly caps: ReceiveCaps
  /** Whether the merchant has been reviewed; until then the new-account caps also apply. */
  readonly revisado: boolean
  readonly tasa: Rate
}

const refusal = (error: CapError, cap: EffectiveCap, usado: Cents, tasa: Rate): CapRefusal => ({
  error,
  motivo: MOTIVO_TOPE[error],
  tope: cap.ves,
  usado,
  ...(cap.limit.moneda === "USD"
    ? { topes_moneda: "USD" as const, tope_usd: cap.limit.cents, tasa_bcv: tasa }
    : {})
})

/**
 * Decides whether the payment code may be requested: refused when `used + monto` would pass a
 * cap in force (reaching it exactly is allowed). When both caps would be passed the total cap
 * wins, because the daily refusal tells the payer to try tomorrow, which would not help.
 */
export const checkReceiveCap = (input: ReceiveCapInput): ReceiveCapCheck => {
  const { monto, usadoHoy, usadoTotal, tasa } = input
  const caps = effectiveReceiveCaps(input.caps, input.revisado, tasa)
  if (caps.acumulado !== undefined && usadoTotal + monto > caps.acumulado.ves) {
    return {
      _tag: "Rechazado",
      refusal: refusal("tope_acumulado_excedido", caps.acumulado, usadoTotal, tasa)
    }
  }
  if (caps.diario !== undefined && usadoHoy + monto > caps.diario.ves) {
    return { _tag: "Rechazado", refusal: refusal("tope_diario_excedido", caps.diario, usadoHoy, tasa) }
  }
  return { _tag: "Permitido" }
}

/** SPEC's `409` body for a cap refusal, with API numbers (`1234.56` Bs, `36.5012` Bs per US$). */
export interface CapRefusalBody {
  readonly error: CapError
  readonly motivo: string
  readonly tope?: number
  readonly usado?: number
  readonly topes_moneda?: "USD"
  readonly tope_usd?: number
  readonly tasa_bcv?: number
}

/**
 * The `409` body: `error` and `motivo` always; the amounts only for a request made with a
 * merchant key (the payer page must not reveal the merchant's volume to the payer).
 */
export const refusalBody = (r: CapRefusal, conLlaveComercio: boolean): CapRefusalBody => {
  if (!conLlaveComercio) return { error: r.error, motivo: r.motivo }
  return {
    error: r.error,
    motivo: r.motivo,
    tope: toNumber(r.tope),
    usado: toNumber(r.usado),
    ...(r.topes_moneda === undefined ? {} : { topes_moneda: r.topes_moneda }),
    ...(r.tope_usd === undefined ? {} : { tope_usd: toNumber(r.tope_usd) }),
    ...(r.tasa_bcv === undefined ? {} : { tasa_bcv: rateToNumber(r.tasa_bcv) })
  }
}

// ---------------------------------------------------------------------------------------------
// The BCV rate the dollar limits need
// ---------------------------------------------------------------------------------------------

/** The limits in force on a charge, before any is converted to bolivars. */
export interface LimitsInForce {
  readonly caps: ReceiveCaps
  readonly limits: ChargeLimits
  /** Whether the new-account caps are lifted (the merchant was reviewed, or the money is test). */
  readonly revisado: boolean
}

/**
 * Whether a charge cannot be judged without the BCV rate: some limit in force (the new-account
 * caps included) is set in dollars. Such a charge fails closed when no usable rate exists.
 */
export const needsRate = (input: LimitsInForce): boolean =>
  !input.revisado ||
  [
    input.caps.topeDiario,
    input.caps.topeAcumulado,
    input.limits.montoMin,
    input.limits.montoMax,
    input.limits.maxDiario
  ].some((limit) => limit != null && limit.moneda === "USD")

/** Whether a rate set at `setAt` is still usable at `at`: older than `maxHours`, it counts as missing. */
export const rateIsFresh = (setAt: Date, at: Date, maxHours: number): boolean =>
  at.getTime() - setAt.getTime() <= maxHours * 3_600_000

/** Payer text (`motivo`) when a dollar limit cannot be converted: no rate, or a stale one. */
export const MOTIVO_TASA_NO_DISPONIBLE =
  "Este comercio no puede recibir pagos en este momento porque falta la tasa oficial del BCV. Intenta de nuevo más tarde."

/** A merchant's limit settings as the admin API stores them; `null` is unset. */
export interface MerchantLimitSettings {
  /** Whether an operator reviewed the merchant, lifting the new-account caps. */
  readonly revisado: boolean
  readonly monto_min: Limit | null
  readonly monto_max: Limit | null
  readonly max_diario: Limit | null
  readonly tope_diario: Limit | null
  readonly tope_acumulado: Limit | null
}

/**
 * Which limits apply to a merchant's charge in `mode`: its own settings in both modes, and the
 * new-account caps on live money only until it is reviewed (test money rehearses the merchant's
 * own limits, never the new-account ones).
 */
export const limitsInForce = (merchant: MerchantLimitSettings, mode: "test" | "live"): LimitsInForce => ({
  caps: { topeDiario: merchant.tope_diario, topeAcumulado: merchant.tope_acumulado },
  limits: { montoMin: merchant.monto_min, montoMax: merchant.monto_max, maxDiario: merchant.max_diario },
  revisado: merchant.revisado || mode === "test"
})

/** The BCV rate on record and when it was set. */
export interface RateOnRecord {
  readonly rate: Rate
  readonly setAt: Date
}

/** One bolivar per dollar: the rate used when no limit in force needs one (it converts nothing). */
export const NO_RATE: Rate = { _tag: "Rate", scaled: 100_000_000n }

/**
 * The rate that converts the limits in force at `at`: the rate on record while fresh (see
 * {@link rateIsFresh}). Without a fresh one, {@link NO_RATE} when every limit in force is in
 * bolivars, and `tasa_no_disponible` when some is in dollars: the charge fails closed rather than
 * skip the limit.
 */
export const rateFor = (
  inForce: LimitsInForce,
  onRecord: Option.Option<RateOnRecord>,
  at: Date,
  maxHours: number
): Either.Either<Rate, "tasa_no_disponible"> => {
  const fresh = Option.filter(onRecord, (r) => rateIsFresh(r.setAt, at, maxHours))
  if (Option.isSome(fresh)) return Either.right(fresh.value.rate)
  return needsRate(inForce) ? Either.left("tasa_no_disponible") : Either.right(NO_RATE)
}
