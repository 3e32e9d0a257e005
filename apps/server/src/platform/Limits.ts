/**
 * The amount rules every way of collecting shares (SPEC "Limits"): what counts against a
 * merchant's receive caps (paid collections plus those in flight, per mode), the limits in force
 * with the BCV rate that converts the dollar ones, and the refusals they give. The payment page
 * (`checkout/`) and the direct API (`direct/`) both check a charge here; the rules themselves
 * are @switch/core's `Caps`.
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { BankCalendar, Caps, LinkMachine, Money } from "@switch/core"
import { Data, Effect, Option } from "effect"
import { Settings } from "../Config.js"
import { currentRate } from "./TasaBcv.js"

/** The merchant facts the limits read (a `Merchants.ts` `MerchantRow` has them). */
export interface MerchantLimits {
  readonly id: string
  /** Whether an operator reviewed the merchant, lifting the new-account caps. */
  readonly revisado: boolean
  readonly monto_min: Money.Limit | null
  readonly monto_max: Money.Limit | null
  readonly max_diario: Money.Limit | null
  readonly tope_diario: Money.Limit | null
  readonly tope_acumulado: Money.Limit | null
}

/**
 * What counts against the receive caps: paid collections, links the bank is still processing,
 * and direct collections whose debit is at the bank and not yet final; never rejections.
 * `except` is a direct collection being charged, already in flight, so it is not counted twice.
 */
export const usage = (comercioId: string, mode: Mode, at: Date, except: string | null = null) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const dayStart = BankCalendar.caracasDayStart(at)
    const rows = yield* sql<{ hoy: number; total: number }>`
      select pagado_hoy + en_curso as hoy, pagado + en_curso as total from (select
        (select coalesce(sum(monto + propina) filter (where liquidada_at >= ${dayStart}), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and estado = 'LIQUIDADA')
          as pagado_hoy,
        (select coalesce(sum(monto + propina), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and estado = 'LIQUIDADA')
          as pagado,
        (select coalesce(sum(monto + propina), 0) from links
          where comercio_id = ${comercioId} and mode = ${mode} and estado = any(${LinkMachine.InFlightStates}))
        + (select coalesce(sum(monto), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and link_id is null
            and fase in ('enviando', 'enviada') and estado in ('ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')
            and id <> coalesce(${except}::uuid, '00000000-0000-0000-0000-000000000000'::uuid))
          as en_curso) usado`
    return { hoy: Money.Cents(Number(rows[0]?.hoy ?? 0)), total: Money.Cents(Number(rows[0]?.total ?? 0)) }
  }).pipe(Effect.orDie)

/**
 * A limit in dollars is in force and no usable BCV rate exists (none set, or one older than
 * `SWITCH_TASA_MAX_HORAS`): the charge fails closed instead of skipping the limit.
 */
export class RateUnavailable extends Data.TaggedError("RateUnavailable") {}

/** A rate that converts nothing: every limit in force is in bolivars. */
const NO_RATE: Money.Rate = { _tag: "Rate", scaled: 100_000_000n }

/**
 * The limits in force on a merchant's charge in `mode`, with the rate that converts them. The
 * new-account caps guard live money only (test money rehearses the merchant's own limits).
 */
export const limitsAt = (merchant: MerchantLimits, mode: Mode, at: Date) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const rate = Option.filter(yield* currentRate, (t) =>
      Caps.rateIsFresh(t.actualizadaEn, at, settings.tasaMaxHoras)
    )
    const inForce: Caps.LimitsInForce = {
      caps: { topeDiario: merchant.tope_diario, topeAcumulado: merchant.tope_acumulado },
      limits: { montoMin: merchant.monto_min, montoMax: merchant.monto_max, maxDiario: merchant.max_diario },
      revisado: merchant.revisado || mode === "test"
    }
    if (Option.isNone(rate) && Caps.needsRate(inForce)) return yield* Effect.fail(new RateUnavailable())
    return { ...inForce, tasa: Option.match(rate, { onNone: () => NO_RATE, onSome: (t) => t.rate }) }
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
