/**
 * When the opt-in daily summary mail is due (issue 45): each Caracas morning from 07:00, the
 * summary of the Caracas day before. A run before 07:00 handles the day before yesterday, the
 * latest one already due, so a server down at 07:00 catches up when it comes back.
 */
import { caracasDayKey, caracasDayStart, DAY_MS } from "./BankCalendar.js"

/** The Caracas hour from which yesterday's summary is due. */
export const HORA = 7
const HORA_MS = HORA * 3_600_000

/** The Caracas day (`YYYY-MM-DD`) whose summary is due at `now` (ms): yesterday from 07:00, else the day before. */
export const diaDebido = (now: number): string =>
  caracasDayKey(caracasDayStart(now - HORA_MS).getTime() - DAY_MS)

/** Milliseconds from `now` to the next 07:00 Caracas, strictly later (so in (0, 24 h]). */
export const hastaLaProxima = (now: number): number => {
  const hoy = caracasDayStart(now).getTime() + HORA_MS
  return (hoy > now ? hoy : hoy + DAY_MS) - now
}
