/**
 * Money as integer cents. Amounts arrive from the API as JSON numbers with at most two
 * decimals; they are read through their shortest decimal text (what `JSON.stringify` would
 * print), so `10.1` is 1010 cents exactly and `10.001` is refused, never rounded.
 */
import { Brand, Either } from "effect"

/** An amount in cents of its currency: a safe integer, never a float. */
export type Cents = number & Brand.Brand<"Cents">

/** Largest amount the service handles: Bs 999.999.999.999,99. */
export const MAX_CENTS = 99_999_999_999_999

/** Brands a safe integer as cents; refuses fractions and values past MAX_CENTS. */
export const Cents = Brand.refined<Cents>(
  (n) => Number.isSafeInteger(n) && Math.abs(n) <= MAX_CENTS,
  (n) => Brand.error(`${n} is not a whole number of cents within range`)
)

export const zero: Cents = Cents(0)

/** Why an API number is not an amount. */
export type MoneyIssue = "formato" | "no_finito" | "decimales" | "no_positivo" | "negativo" | "fuera_de_rango"

/** Spanish text for each issue, as it goes into a `fieldErrors` list. */
export const issueMessage: Record<MoneyIssue, string> = {
  formato: "no es un monto válido",
  no_finito: "debe ser un número finito",
  decimales: "admite como máximo 2 decimales",
  no_positivo: "debe ser mayor que 0",
  negativo: "no puede ser negativo",
  fuera_de_rango: "excede el monto máximo permitido"
}

const DECIMAL = /^(-?)(\d+)(?:[.,](\d+))?$/

const fromDecimalParts = (
  sign: string,
  whole: string,
  fraction: string
): Either.Either<Cents, MoneyIssue> => {
  if (fraction.length > 2) return Either.left("decimales")
  // Strings longer than the maximum would lose precision in Number(); refuse before converting.
  const digits = whole.replace(/^0+(?=\d)/, "")
  if (digits.length > 12) return Either.left("fuera_de_rango")
  const cents = Number(digits) * 100 + Number(fraction.padEnd(2, "0"))
  if (cents > MAX_CENTS) return Either.left("fuera_de_rango")
  return Either.right(Cents(sign === "-" && cents !== 0 ? -cents : cents))
}

/**
 * Reads decimal text such as `1234.56` or `1234,56` (no thousands separators) into cents.
 * Used for CSV cells and CLI flags; the API reads JSON numbers through {@link fromNumber}.
 */
export const parseDecimal = (text: string): Either.Either<Cents, MoneyIssue> => {
  const match = DECIMAL.exec(text.trim())
  if (match === null) return Either.left("formato")
  return fromDecimalParts(match[1] ?? "", match[2] ?? "0", match[3] ?? "")
}

/**
 * An amount as a payer types it in Venezuela: dots between thousands and a comma before the
 * decimals (`1.234,56`, `1234,56`; `1.234` is one thousand two hundred thirty-four). A lone
 * point before one or two digits, with no comma, is read as a decimal point (`1234.56`), which
 * some phone keypads offer instead of the comma. Shared with the payment page's script.
 */
export const WRITTEN_AMOUNT = /^(?:(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?|(\d+)\.(\d{1,2}))$/

/** Reads an amount written as {@link WRITTEN_AMOUNT} into cents; `1,234.56` and `1.2345` are refused. */
export const parseVenezuelan = (text: string): Either.Either<Cents, MoneyIssue> => {
  const match = WRITTEN_AMOUNT.exec(text.trim())
  if (match === null) return Either.left("formato")
  if (match[3] !== undefined) return fromDecimalParts("", match[3], match[4] ?? "")
  return fromDecimalParts("", (match[1] ?? "").replaceAll(".", ""), match[2] ?? "")
}

/** Reads an API number with at most 2 decimals into cents; any sign, zero allowed. */
export const fromNumber = (value: number): Either.Either<Cents, MoneyIssue> => {
  if (!Number.isFinite(value)) return Either.left("no_finito")
  const text = String(value)
  // Exponent notation only appears below 1e-6 or at or above 1e21: never two decimals.
  if (text.includes("e")) return Either.left(Math.abs(value) < 1 ? "decimales" : "fuera_de_rango")
  return parseDecimal(text)
}

/** Reads an API number that must be greater than 0 (`monto` everywhere in SPEC). */
export const fromPositiveNumber = (value: number): Either.Either<Cents, MoneyIssue> =>
  Either.flatMap(fromNumber(value), (cents) => (cents > 0 ? Either.right(cents) : Either.left("no_positivo")))

/** Reads an API number that may be 0 but not negative (filters, tips). */
export const fromNonNegativeNumber = (value: number): Either.Either<Cents, MoneyIssue> =>
  Either.flatMap(fromNumber(value), (cents) => (cents >= 0 ? Either.right(cents) : Either.left("negativo")))

/** Cents back to the API's JSON number: 123456 is 1234.56. */
export const toNumber = (cents: Cents): number => {
  const sign = cents < 0 ? "-" : ""
  const abs = Math.abs(cents)
  return Number(`${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`)
}

/** Plain decimal text with two decimals and a point: `1234.56`. */
export const toDecimalString = (cents: Cents): string => {
  const abs = Math.abs(cents)
  return `${cents < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`
}

const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".")

/** Venezuelan display: `Bs 1.234,56`; negatives as `-Bs 1.234,56`. */
export const format = (cents: Cents): string => {
  const abs = Math.abs(cents)
  const whole = groupThousands(String(Math.trunc(abs / 100)))
  return `${cents < 0 ? "-" : ""}Bs ${whole},${String(abs % 100).padStart(2, "0")}`
}

/** Parses the display form back (`Bs 1.234,56`), the inverse of {@link format}. */
export const parseFormatted = (text: string): Either.Either<Cents, MoneyIssue> => {
  const match = /^(-?)Bs\s+(\d{1,3}(?:\.\d{3})*),(\d{2})$/.exec(text.trim())
  if (match === null) return Either.left("formato")
  return fromDecimalParts(match[1] ?? "", (match[2] ?? "").replaceAll(".", ""), match[3] ?? "")
}

export const add = (a: Cents, b: Cents): Cents => Cents(a + b)
export const subtract = (a: Cents, b: Cents): Cents => Cents(a - b)
export const sum = (amounts: Iterable<Cents>): Cents => {
  let total = 0
  for (const amount of amounts) total += amount
  return Cents(total)
}
export const min = (a: Cents, b: Cents): Cents => (a <= b ? a : b)
export const max = (a: Cents, b: Cents): Cents => (a >= b ? a : b)

/**
 * A percentage with two decimals held as basis points (hundredths of a percent):
 * 1 % is 100, 2.5 % is 250, 100 % is 10000.
 */
export type BasisPoints = number & Brand.Brand<"BasisPoints">
export const BasisPoints = Brand.refined<BasisPoints>(
  (n) => Number.isSafeInteger(n) && n >= 0,
  (n) => Brand.error(`${n} is not a whole number of basis points`)
)

/** Reads a percentage number with at most two decimals (`1.5` is 150 basis points). */
export const basisPointsFromPercent = (percent: number): Either.Either<BasisPoints, MoneyIssue> =>
  Either.flatMap(fromNumber(percent), (bp) =>
    bp < 0 ? Either.left<MoneyIssue>("negativo") : Either.right(BasisPoints(bp))
  )

/** Basis points back to the API's percentage number. */
export const percentFromBasisPoints = (bp: BasisPoints): number => toNumber(Cents(bp))

export type Rounding = "down" | "half_up"

/** Integer division of non-negative bigints with the given rounding. */
const divide = (numerator: bigint, denominator: bigint, rounding: Rounding): bigint =>
  rounding === "down" ? numerator / denominator : (numerator * 2n + denominator) / (denominator * 2n)

/** `pct` of an amount, to the cent, rounded as asked (half-up for fees, down for split shares). */
export const percentage = (amount: Cents, pct: BasisPoints, rounding: Rounding): Cents => {
  const sign = amount < 0 ? -1n : 1n
  const magnitude = BigInt(Math.abs(amount)) * BigInt(pct)
  return Cents(Number(sign * divide(magnitude, 10_000n, rounding)))
}

const RATE_SCALE = 100_000_000n
const RATE_DECIMALS = 8

/** A bolivars-per-dollar rate (BCV) with up to 8 decimals, held exactly as a scaled integer. */
export interface Rate {
  readonly _tag: "Rate"
  /** Bolivars per dollar times 10^8. */
  readonly scaled: bigint
}

/** Reads a rate such as `36.5012` or `"36,5012"`; must be greater than 0 with at most 8 decimals. */
export const rate = (value: number | string): Either.Either<Rate, MoneyIssue> => {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim()
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(text)
  if (match === null) return Either.left(text.startsWith("-") ? "negativo" : "formato")
  const fraction = match[2] ?? ""
  if (fraction.length > RATE_DECIMALS) return Either.left("decimales")
  const scaled = BigInt(match[1] ?? "0") * RATE_SCALE + BigInt(fraction.padEnd(RATE_DECIMALS, "0"))
  return scaled > 0n ? Either.right({ _tag: "Rate", scaled }) : Either.left("no_positivo")
}

/** The rate as the API's number (`36.5012`). */
export const rateToNumber = (r: Rate): number => {
  const whole = r.scaled / RATE_SCALE
  const fraction = (r.scaled % RATE_SCALE).toString().padStart(RATE_DECIMALS, "0").replace(/0+$/, "")
  return Number(fraction === "" ? `${whole}` : `${whole}.${fraction}`)
}

/** Dollars (in US cents) to bolivars at a BCV rate, rounded half-up to the bolivar cent. */
export const usdToVes = (usdCents: Cents, r: Rate): Cents => {
  const sign = usdCents < 0 ? -1n : 1n
  const magnitude = BigInt(Math.abs(usdCents)) * r.scaled
  return Cents(Number(sign * divide(magnitude, RATE_SCALE, "half_up")))
}

/** Amount object currencies the service knows; bolivars are the only settlement currency. */
export const Currencies = ["VES", "USD"] as const
export type Currency = (typeof Currencies)[number]

/** A money limit as the admin sets it: an amount in bolivars or in dollars. */
export interface Limit {
  readonly cents: Cents
  readonly moneda: Currency
}

/** A limit in bolivars at the given rate (dollar limits are converted at each operation). */
export const limitInVes = (limit: Limit, r: Rate): Cents =>
  limit.moneda === "VES" ? limit.cents : usdToVes(limit.cents, r)
