/**
 * The amount rules of a direct collection (SPEC "Limits"): receive caps when the code is
 * requested (`409 tope_*`), per-charge minimum, maximum and per-day maximum when charging
 * (a `RECHAZADA` without debiting), and the banks' daily close for live code requests.
 *
 * The amounts counted are the page's (`checkout/Guards.usage`: paid collections, links the bank
 * is processing and direct collections whose debit is at the bank and not yet final).
 */
import type { Mode } from "@switch/api"
import { Caps, type Money } from "@switch/core"
import { Effect, Option } from "effect"
import { bankClose, type ServerSettings } from "../Config.js"
import { limitsAt, usage } from "../checkout/Guards.js"
import type { MerchantRow } from "../merchants/Merchants.js"

const counted = (merchant: MerchantRow, mode: Mode, at: Date, except: string | null = null) =>
  usage(merchant.id, mode, at, except)

/** The receive-cap refusal for a collection of `monto`, if a cap in force would be passed. */
export const capRefusal = (merchant: MerchantRow, mode: Mode, monto: Money.Cents, at: Date) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant)
    const used = yield* counted(merchant, mode, at)
    const check = Caps.checkReceiveCap({
      monto,
      usadoHoy: used.hoy,
      usadoTotal: used.total,
      caps: { topeDiario: limits.topeDiario, topeAcumulado: limits.topeAcumulado },
      revisado: limits.revisado,
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(Caps.refusalBody(check.refusal, true)) : Option.none()
  })

/**
 * The per-charge refusal (`MONTO_INVALIDO` below the minimum, `EXCEDE_LIMITE` above a maximum);
 * `except` is the operation being charged, already in flight, so it is not counted twice.
 */
export const chargeRefusal = (
  merchant: MerchantRow,
  mode: Mode,
  monto: Money.Cents,
  at: Date,
  except: string | null = null
) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant)
    const used = yield* counted(merchant, mode, at, except)
    const check = Caps.checkCharge({
      monto,
      usadoHoy: used.hoy,
      limits: { montoMin: limits.montoMin, montoMax: limits.montoMax, maxDiario: limits.maxDiario },
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(check.motivo_rechazo) : Option.none()
  })

/** Seconds until the banks reopen, when a live code request falls in the daily close. */
export const closedFor = (settings: ServerSettings, mode: Mode, at: Date): Option.Option<number> => {
  if (mode === "test") return Option.none()
  const status = bankClose(settings, at)
  return status._tag === "Cerrado" ? Option.some(status.reintentarEn) : Option.none()
}
