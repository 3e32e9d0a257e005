/**
 * The amount rules of a direct collection (SPEC "Limits"): receive caps when the code is
 * requested (`409 tope_*`), per-charge minimum, maximum and per-day maximum when charging
 * (a `RECHAZADA` without debiting), and the banks' daily close for live code requests.
 *
 * A limit in dollars (the new-account caps of live money included) with no usable BCV rate fails
 * closed: `503 tasa_no_disponible`, and nothing is asked of the bank.
 *
 * The amounts counted are the page's (`platform/Limits.usage`: paid collections, links the bank
 * is processing and direct collections whose debit is at the bank and not yet final).
 */
import type { Mode } from "@switch/api"
import { Caps, type Money } from "@switch/core"
import { Effect, Option } from "effect"
import { bankClose, type ServerSettings } from "../Config.js"
import {
  capRefusal as cap,
  chargeRefusal as charge,
  limitsAt,
  type MerchantLimits
} from "../platform/Limits.js"

/** The receive-cap refusal for a collection of `monto`, as the direct API's `409` body. */
export const capRefusal = (merchant: MerchantLimits, mode: Mode, monto: Money.Cents, at: Date) =>
  Effect.map(
    cap(merchant, mode, monto, at),
    Option.map((refusal) => Caps.refusalBody(refusal, true))
  )

/**
 * The per-charge refusal (`MONTO_INVALIDO` below the minimum, `EXCEDE_LIMITE` above a maximum);
 * `except` is the operation being charged, already in flight, so it is not counted twice.
 */
export const chargeRefusal = charge

/** The limits in force; fails `RateUnavailable` when a dollar limit has no usable rate. */
export { limitsAt }

/** Seconds until the banks reopen, when a live code request falls in the daily close. */
export const closedFor = (settings: ServerSettings, mode: Mode, at: Date): Option.Option<number> => {
  if (mode === "test") return Option.none()
  const status = bankClose(settings, at)
  return status._tag === "Cerrado" ? Option.some(status.reintentarEn) : Option.none()
}
