/**
 * A new link's expiry as the create form takes it: a number of hours (`expira_horas`), or an
 * exact Caracas date and time from a `datetime-local` field (`expira_en`, Caracas is UTC-4).
 */

/** `2026-11-30T18:00` (Caracas wall clock) as an instant, ISO 8601; undefined when malformed. */
export const caracasAIso = (local: string): string | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return undefined
  const at = new Date(`${local}:00-04:00`)
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString()
}

/** The create body's expiry fields for the form's choice: hours, or `exacta` with its date. */
export const vencimiento = (
  horas: string,
  exacta: string,
  now: Date = new Date()
): { readonly expira_horas: number } | { readonly expira_en: string } | string => {
  if (horas !== "exacta") return { expira_horas: Number(horas) }
  const iso = caracasAIso(exacta)
  if (iso === undefined) return "Escribe la fecha y la hora en que vence."
  if (new Date(iso).getTime() <= now.getTime()) return "La fecha de vencimiento debe ser futura."
  if (new Date(iso).getTime() - now.getTime() > 720 * 3_600_000)
    return "Un link puede durar como máximo 30 días."
  return { expira_en: iso }
}
