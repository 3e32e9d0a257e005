/**
 * Venezuelan formats: amounts as `Bs 1.234,56` (thousands with dots, cents with a comma) and
 * dates in Caracas time (UTC-4 all year, DESIGN §5), written by hand so that no browser's
 * locale data changes what a merchant reads.
 */

/** `Bs 1.234,56` from an amount in bolívares as the API sends it (a number with 2 decimals at most). */
export const bolivares = (monto: number): string => {
  const cents = Math.round(Math.abs(monto) * 100)
  const whole = Math.floor(cents / 100).toString()
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".")
  const decimals = (cents % 100).toString().padStart(2, "0")
  return `${monto < 0 && cents > 0 ? "-" : ""}Bs ${grouped},${decimals}`
}

/** A count with thousands grouped by dots: `1.234`. */
export const miles = (n: number): string =>
  Math.trunc(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".")

/**
 * An amount typed by a merchant (`1.234,56`, `1234,5`, `1234.56` or `1234`) as a number of
 * bolívares with at most 2 decimals; undefined when it is not one.
 */
export const parseBolivares = (text: string): number | undefined => {
  const clean = text.trim().replace(/^Bs\.?\s*/i, "")
  let normal: string
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(clean)) normal = clean.replace(/\./g, "").replace(",", ".")
  else if (/^\d+(,\d{1,2})?$/.test(clean)) normal = clean.replace(",", ".")
  else if (/^\d+(\.\d{1,2})?$/.test(clean)) normal = clean
  else return undefined
  const value = Number(normal)
  return Number.isFinite(value) ? value : undefined
}

const CARACAS_OFFSET_MS = -4 * 60 * 60 * 1000
const pad = (n: number) => n.toString().padStart(2, "0")

/** The Caracas wall-clock parts of an instant. */
const caracas = (at: Date | string) => {
  const local = new Date(new Date(at).getTime() + CARACAS_OFFSET_MS)
  return {
    day: pad(local.getUTCDate()),
    month: pad(local.getUTCMonth() + 1),
    year: local.getUTCFullYear(),
    hours: local.getUTCHours(),
    minutes: pad(local.getUTCMinutes())
  }
}

/** `25/11/2026` in Caracas. */
export const fecha = (at: Date | string): string => {
  const p = caracas(at)
  return `${p.day}/${p.month}/${p.year}`
}

/** `25/11/2026 3:05 p. m.` in Caracas. */
export const fechaHora = (at: Date | string): string => {
  const p = caracas(at)
  const h12 = p.hours % 12 === 0 ? 12 : p.hours % 12
  return `${fecha(at)} ${h12}:${p.minutes} ${p.hours < 12 ? "a. m." : "p. m."}`
}

/** The Caracas calendar day of an instant, `2026-11-25`, as the API's date filters take it. */
export const diaCaracas = (at: Date | string): string => {
  const p = caracas(at)
  return `${p.year}-${p.month}-${p.day}`
}
