/**
 * Caracas wall-clock time and the banks' daily close, computed from an instant given as an
 * argument (never from the clock), so every rule can be tested at any moment of the day.
 *
 * Venezuela has kept UTC-4 all year since 2016 (no daylight saving), so Caracas time is UTC
 * minus four hours and a Venezuelan day runs from 04:00 UTC to 04:00 UTC the next day.
 */
import { Either } from "effect"

/** An instant: a `Date` or epoch milliseconds. */
export type Instant = Date | number

/** Caracas' offset from UTC in milliseconds (UTC-4, no daylight saving). */
export const CARACAS_OFFSET_MS = -4 * 60 * 60 * 1000

const SECOND_MS = 1000
const MINUTE_MS = 60 * SECOND_MS
const HOUR_MS = 60 * MINUTE_MS
/** Length of a Venezuelan day; always 24 hours because Caracas has no daylight saving. */
export const DAY_MS = 24 * HOUR_MS

const toMs = (at: Instant): number => (typeof at === "number" ? at : at.getTime())

/** Milliseconds of the instant on a clock that reads Caracas time as if it were UTC. */
const localMs = (at: Instant): number => toMs(at) + CARACAS_OFFSET_MS

/** Milliseconds elapsed since Caracas midnight, in [0, DAY_MS). */
const msIntoDay = (at: Instant): number => {
  const local = localMs(at)
  return local - Math.floor(local / DAY_MS) * DAY_MS
}

/** Calendar fields of an instant as read on a Caracas wall clock (month 1-12, hour 0-23). */
export interface CaracasParts {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

/** The Caracas calendar date and time of an instant. */
export const caracasParts = (at: Instant): CaracasParts => {
  const shifted = new Date(localMs(at))
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds()
  }
}

/** Start of the Venezuelan day containing the instant (a 04:00 UTC instant). */
export const caracasDayStart = (at: Instant): Date => {
  const local = localMs(at)
  return new Date(Math.floor(local / DAY_MS) * DAY_MS - CARACAS_OFFSET_MS)
}

/** End (exclusive) of the Venezuelan day containing the instant: the next day's 04:00 UTC. */
export const caracasDayEnd = (at: Instant): Date => new Date(caracasDayStart(at).getTime() + DAY_MS)

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

/** The Venezuelan date of an instant as `YYYY-MM-DD` (e.g. `2026-11-20`), the key of daily caps. */
export const caracasDayKey = (at: Instant): string => {
  const p = caracasParts(at)
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`
}

/**
 * Receipt text for `fecha_hora_caracas`: `DD/MM/YYYY hh:mm:ss a. m.` on a 12-hour clock, the
 * way Venezuelan bank receipts print it, e.g. `20/11/2026 07:15:00 p. m.`. Midnight is
 * `12:00:00 a. m.` and noon `12:00:00 p. m.`. Built by hand (plain spaces, no Intl) so the
 * text does not change with the Node version or ICU data.
 */
export const formatCaracas = (at: Instant): string => {
  const p = caracasParts(at)
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12
  const meridiem = p.hour < 12 ? "a. m." : "p. m."
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(hour12)}:${pad(p.minute)}:${pad(p.second)} ${meridiem}`
}

// ---------------------------------------------------------------------------------------------
// Bank daily close
// ---------------------------------------------------------------------------------------------

/** Caracas time (ms after midnight) from which the payer is warned that the close is near. */
export const WARNING_FROM_MS = 23 * HOUR_MS + 30 * MINUTE_MS
/** Caracas time (ms after midnight) at which the close starts: 23:45 is already closed. */
export const CLOSE_FROM_MS = 23 * HOUR_MS + 45 * MINUTE_MS
/** Caracas time (ms after midnight) at which the banks reopen: 01:30 is already open. */
export const REOPEN_AT_MS = 1 * HOUR_MS + 30 * MINUTE_MS

/** Whether the payment code may be requested now, per SPEC's bank daily close. */
export type BankCloseStatus =
  | { readonly _tag: "Abierto" }
  /** Open, but the close starts in `cierraEn` seconds (rounded up): warn without blocking. */
  | { readonly _tag: "Aviso"; readonly cierraEn: number }
  /** Closed; `reintentarEn` whole seconds (rounded up, at least 1) until 01:30 Caracas. */
  | { readonly _tag: "Cerrado"; readonly reintentarEn: number }

const ceilSeconds = (ms: number): number => Math.ceil(ms / SECOND_MS)

/**
 * The bank close state at an instant: closed on [23:45, 01:30) Caracas time, warning on
 * [23:30, 23:45), open otherwise. Test links are not affected; that choice is the caller's.
 */
export const bankCloseStatus = (at: Instant): BankCloseStatus => {
  const t = msIntoDay(at)
  if (t < REOPEN_AT_MS) return { _tag: "Cerrado", reintentarEn: ceilSeconds(REOPEN_AT_MS - t) }
  if (t >= CLOSE_FROM_MS) return { _tag: "Cerrado", reintentarEn: ceilSeconds(DAY_MS - t + REOPEN_AT_MS) }
  if (t >= WARNING_FROM_MS) return { _tag: "Aviso", cierraEn: ceilSeconds(CLOSE_FROM_MS - t) }
  return { _tag: "Abierto" }
}

/** Payer text (`motivo`) of the `503 cierre_bancario` answer. */
export const MOTIVO_CIERRE =
  "Los bancos están en su cierre diario (23:45 a 01:30, hora de Venezuela). Intenta de nuevo a partir de la 01:30."

/** Payer text of the non-blocking warning shown from 23:30, given `cierraEn` seconds. */
export const avisoCierre = (cierraEn: number): string => {
  const minutes = Math.max(1, Math.ceil(cierraEn / 60))
  const cuando = minutes === 1 ? "1 minuto" : `${minutes} minutos`
  return `Los bancos inician su cierre diario a las 23:45 (hora de Venezuela), en ${cuando}. Completa tu pago antes o intenta a partir de la 01:30.`
}

// ---------------------------------------------------------------------------------------------
// List filters (`desde`, `hasta`)
// ---------------------------------------------------------------------------------------------

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Largest epoch-ms value a `Date` can hold. */
const MAX_DATE_MS = 8_640_000_000_000_000

const FORMATO_INVALIDO =
  "debe ser una fecha ISO 8601 (2026-11-20 o 2026-11-20T19:15:00-04:00) o milisegundos desde 1970 (1795216500000)"

const EPOCH_MS = /^\d+$/
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/
// A query string turns an unescaped `+` into a space, so ` 04:00` after the time is read as `+04:00`.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))?$/

/**
 * Reads a list filter instant (`desde`, `hasta`): epoch milliseconds as digits only, an ISO
 * 8601 date (`2026-11-20`, the start of that Venezuelan day, 04:00 UTC) or an ISO 8601
 * date-time. A date-time without offset is Caracas time, like a date alone; fractions beyond
 * milliseconds are dropped. Anything else is refused with a Spanish `detail` text.
 */
export const parseFilterInstant = (text: string): Either.Either<Date, string> => {
  if (EPOCH_MS.test(text)) {
    const ms = Number(text)
    return Number.isSafeInteger(ms) && ms <= MAX_DATE_MS
      ? Either.right(new Date(ms))
      : Either.left("está fuera del rango de fechas admitido")
  }
  const dateOnly = DATE_ONLY.exec(text)
  const dateTime = dateOnly === null ? DATE_TIME.exec(text) : null
  const match = dateOnly ?? dateTime
  if (match === null) return Either.left(FORMATO_INVALIDO)
  const num = (i: number): number => Number(match[i] ?? "0")
  const [year, month, day] = [num(1), num(2), num(3)]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return Either.left("no es una fecha del calendario")
  }
  const midnightAsUtc = daysFromCivil(year, month, day) * DAY_MS
  if (dateTime === null) return Either.right(new Date(midnightAsUtc - CARACAS_OFFSET_MS))
  const [hour, minute, second] = [num(4), num(5), num(6)]
  if (hour > 23 || minute > 59 || second > 59) return Either.left("no es una hora válida")
  const millis = Number((match[7] ?? "").padEnd(3, "0").slice(0, 3))
  let offsetMs = CARACAS_OFFSET_MS
  if (match[8] !== undefined) offsetMs = 0
  else if (match[9] !== undefined) {
    const [offHour, offMinute] = [num(10), num(11)]
    if (offHour > 23 || offMinute > 59) return Either.left("no tiene una zona horaria válida")
    offsetMs = (match[9] === "-" ? -1 : 1) * (offHour * HOUR_MS + offMinute * MINUTE_MS)
  }
  const wall = midnightAsUtc + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS + millis
  return Either.right(new Date(wall - offsetMs))
}
