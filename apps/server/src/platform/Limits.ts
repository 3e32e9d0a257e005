/**
 * The amount rules every way of collecting shares (SPEC "Limits"): what counts against a
 * merchant's receive caps (paid collections plus those in flight, per mode), the limits in force
 * with the BCV rate that converts the dollar ones, and the refusals they give. The payment page
 * (`checkout/`) and the direct API (`direct/`) both check a charge here. This file only reads
 * (the sums counted, the merchant's settings, the BCV rate on record); every decision is
 * @switch/core's `Caps`: what counts (`usage`), which limits apply (`limitsInForce`), the rate
 * they need (`rateFor`) and the checks (`checkReceiveCap`, `checkCharge`).
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { BankCalendar, Caps, Money } from "@switch/core"
import { Data, Effect, Either, Option } from "effect"
import { Settings } from "../Config.js"
import * as LinksRepo from "./LinksRepo.js"
import { currentRate } from "./TasaBcv.js"

/** The merchant facts the limits read (a `Merchants.ts` `MerchantRow` has them). */
export interface MerchantLimits extends Caps.MerchantLimitSettings {
  readonly id: string
}

/**
 * What counts against the receive caps (`Caps.usage`), from this mode's sums: paid collections
 * today and ever, and in flight the links the bank is still processing and the direct
 * collections whose debit is at the bank and not yet final; never rejections. `except` is a
 * direct collection being charged, already in flight, so it is not counted twice.
 */
export const usage = (comercioId: string, mode: Mode, at: Date, except: string | null = null) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const dayStart = BankCalendar.caracasDayStart(at)
    const rows = yield* sql<{ pagado_hoy: number; pagado: number; en_curso: number }>`
      select
        (select coalesce(sum(monto + propina) filter (where liquidada_at >= ${dayStart}), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and estado = 'LIQUIDADA')
          as pagado_hoy,
        (select coalesce(sum(monto + propina), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and estado = 'LIQUIDADA')
          as pagado,
        ${LinksRepo.inFlightSum(sql, comercioId, mode)}
        + (select coalesce(sum(monto), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and link_id is null
            and fase in ('enviando', 'enviada') and estado in ('ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')
            and id <> coalesce(${except}::uuid, '00000000-0000-0000-0000-000000000000'::uuid))
          as en_curso`
    const cents = (value: number | undefined) => Money.Cents(Number(value ?? 0))
    return Caps.usage({
      pagadoHoy: cents(rows[0]?.pagado_hoy),
      pagado: cents(rows[0]?.pagado),
      enCurso: cents(rows[0]?.en_curso)
    })
  }).pipe(Effect.orDie)

/**
 * A limit in dollars is in force and no usable BCV rate exists (none set, or one older than
 * `SWITCH_TASA_MAX_HORAS`): the charge fails closed instead of skipping the limit.
 */
export class RateUnavailable extends Data.TaggedError("RateUnavailable") {}

/**
 * The limits in force on a merchant's charge in `mode` (`Caps.limitsInForce`), with the rate
 * that converts them (`Caps.rateFor`): fails `RateUnavailable` when a dollar limit needs a rate
 * and none is fresh.
 */
export const limitsAt = (merchant: MerchantLimits, mode: Mode, at: Date) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const inForce = Caps.limitsInForce(merchant, mode)
    const onRecord = Option.map(yield* currentRate, (t) => ({ rate: t.rate, setAt: t.actualizadaEn }))
    return yield* Either.match(Caps.rateFor(inForce, onRecord, at, settings.tasaMaxHoras), {
      onLeft: () => Effect.fail(new RateUnavailable()),
      onRight: (tasa) => Effect.succeed({ ...inForce, tasa })
    })
  })

/** The limits in force and what is already counted against them, both of this moment. */
const inForceAndUsed = (merchant: MerchantLimits, mode: Mode, at: Date, except: string | null) =>
  Effect.all([limitsAt(merchant, mode, at), usage(merchant.id, mode, at, except)])

/** The receive-cap refusal for a charge of `total` cents, if the caps are full. */
export const capRefusal = (
  merchant: MerchantLimits,
  mode: Mode,
  total: Money.Cents,
  at: Date,
  except: string | null = null
) =>
  Effect.gen(function* () {
    const [limits, used] = yield* inForceAndUsed(merchant, mode, at, except)
    const check = Caps.checkReceiveCap({
      monto: total,
      usadoHoy: used.hoy,
      usadoTotal: used.total,
      caps: limits.caps,
      revisado: limits.revisado,
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(check.refusal) : Option.none()
  })

/**
 * The per-charge limits (minimum, maximum, per day): a refusal is a bank-style rejection.
 * `except` is a direct collection being charged, already in flight, so it is not counted twice.
 */
export const chargeRefusal = (
  merchant: MerchantLimits,
  mode: Mode,
  total: Money.Cents,
  at: Date,
  except: string | null = null
) =>
  Effect.gen(function* () {
    const [limits, used] = yield* inForceAndUsed(merchant, mode, at, except)
    const check = Caps.checkCharge({
      monto: total,
      usadoHoy: used.hoy,
      limits: limits.limits,
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(check.motivo_rechazo) : Option.none()
  })
