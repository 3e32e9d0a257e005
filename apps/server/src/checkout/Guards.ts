/**
 * What stands before a payment-code request: the merchant's receive caps (paid collections plus
 * those in flight, per mode) and SPEC's payment-code limits, reserved atomically in Postgres
 * before the bank is asked and given back when the bank refuses (RateLimit.ts's recipe).
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { BankCalendar, Caps, LinkMachine, Money, RateLimit } from "@switch/core"
import { Data, Effect, Option } from "effect"
import { currentRate } from "../admin/TasaBcv.js"
import { Settings } from "../Config.js"
import type { MerchantRow } from "../merchants/Merchants.js"

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
export const limitsAt = (merchant: MerchantRow, mode: Mode, at: Date) =>
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

/** The receive-cap refusal for a charge of `total` cents, if the caps are full. */
export const capRefusal = (
  merchant: MerchantRow,
  mode: Mode,
  total: Money.Cents,
  at: Date,
  except: string | null = null
) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant, mode, at)
    const used = yield* usage(merchant.id, mode, at, except)
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
  merchant: MerchantRow,
  mode: Mode,
  total: Money.Cents,
  at: Date,
  except: string | null = null
) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant, mode, at)
    const used = yield* usage(merchant.id, mode, at, except)
    const check = Caps.checkCharge({
      monto: total,
      usadoHoy: used.hoy,
      limits: limits.limits,
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(check.motivo_rechazo) : Option.none()
  })

/** A full payment-code window: how long the payer must wait. */
export class CodeLimitReached extends Data.TaggedError("CodeLimitReached")<{
  readonly retryAfterSeconds: number
  readonly refusedBy: ReadonlyArray<string>
}> {}

/** Subjects of the payment-code windows for one request. */
export interface CodeSubjects {
  readonly link: string
  readonly idPhone: string
  readonly ip: string
}

const subjectOf = (policy: RateLimit.Policy, s: CodeSubjects) =>
  policy.scope === "link" ? s.link : policy.scope === "id_phone" ? s.idPhone : s.ip

/**
 * Reserves one slot in every payment-code window of the mode, all or none: a full window rolls
 * the transaction back and fails with the longest wait. Returns the counter keys to give back.
 */
export const reserveCodeSlots = (mode: Mode, subjects: CodeSubjects, nowMs: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const policies = RateLimit.paymentCodePolicies(mode)
    const reserve = Effect.gen(function* () {
      const keys: Array<string> = []
      const full: Array<RateLimit.Counter> = []
      for (const policy of policies) {
        const window = RateLimit.windowKey(policy, subjectOf(policy, subjects), nowMs)
        const rows = yield* sql`
          insert into contadores (clave, cuenta, vence) values (${window.key}, 1, ${new Date(window.resetsAt)})
          on conflict (clave) do update set cuenta = contadores.cuenta + 1
            where contadores.cuenta < ${policy.limit}
          returning cuenta`
        if (rows.length === 0) full.push({ policy, countAfterIncrement: policy.limit + 1 })
        keys.push(window.key)
      }
      if (full.length > 0) {
        const decision = RateLimit.decideAll(full, nowMs)
        return yield* Effect.fail(
          new CodeLimitReached({
            retryAfterSeconds: decision.retryAfterSeconds,
            refusedBy: decision.refusedBy.map((p) => p.name)
          })
        )
      }
      return keys
    })
    return yield* sql.withTransaction(reserve)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** Gives reserved slots back (the bank refused the request, so it does not count). */
export const releaseCodeSlots = (keys: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql`update contadores set cuenta = cuenta - 1 where clave = any(${keys}) and cuenta > 0`
  }).pipe(Effect.orDie)
