/**
 * What stands before a payment-code request: the merchant's receive caps (paid collections plus
 * those in flight, per mode) and SPEC's payment-code limits, reserved atomically in Postgres
 * before the bank is asked and given back when the bank refuses (RateLimit.ts's recipe).
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { BankCalendar, Caps, Money, RateLimit } from "@switch/core"
import { Data, Effect, Option } from "effect"
import { currentRate } from "../admin/TasaBcv.js"
import type { MerchantRow } from "../merchants/Merchants.js"

/** Bolivar cents a merchant has collected in a mode: today (Caracas) and ever. */
export interface Usage {
  readonly hoy: Money.Cents
  readonly total: Money.Cents
}

const IN_FLIGHT = ["cobrando", "procesando", "revision"]

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
          where comercio_id = ${comercioId} and mode = ${mode} and estado = any(${IN_FLIGHT}))
        + (select coalesce(sum(monto), 0) from transacciones
          where comercio_id = ${comercioId} and mode = ${mode} and operacion = 'cobro' and link_id is null
            and fase in ('enviando', 'enviada') and estado in ('ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')
            and id <> coalesce(${except}::uuid, '00000000-0000-0000-0000-000000000000'::uuid))
          as en_curso) usado`
    return { hoy: Money.Cents(Number(rows[0]?.hoy ?? 0)), total: Money.Cents(Number(rows[0]?.total ?? 0)) }
  }).pipe(Effect.orDie)

/**
 * The BCV rate and the limits it can convert. Until an operator sets a rate, dollar limits
 * (including the new-account caps) cannot be converted and are not applied.
 */
export const limitsAt = (merchant: MerchantRow) =>
  Effect.map(currentRate, (tasa) => {
    const usable = <L extends { readonly moneda: string }>(limit: L | null) =>
      limit !== null && (Option.isSome(tasa) || limit.moneda === "VES") ? limit : null
    return {
      tasa: Option.match(tasa, {
        onNone: (): Money.Rate => ({ _tag: "Rate", scaled: 100_000_000n }),
        onSome: (t) => t.rate
      }),
      revisado: merchant.revisado || Option.isNone(tasa),
      topeDiario: usable(merchant.tope_diario),
      topeAcumulado: usable(merchant.tope_acumulado),
      montoMin: usable(merchant.monto_min),
      montoMax: usable(merchant.monto_max),
      maxDiario: usable(merchant.max_diario)
    }
  })

/** The receive-cap refusal for a charge of `total` cents, if the caps are full. */
export const capRefusal = (merchant: MerchantRow, mode: Mode, total: Money.Cents, at: Date) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant)
    const used = yield* usage(merchant.id, mode, at)
    const check = Caps.checkReceiveCap({
      monto: total,
      usadoHoy: used.hoy,
      usadoTotal: used.total,
      caps: { topeDiario: limits.topeDiario, topeAcumulado: limits.topeAcumulado },
      revisado: limits.revisado,
      tasa: limits.tasa
    })
    return check._tag === "Rechazado" ? Option.some(check.refusal) : Option.none()
  })

/** The per-charge limits (minimum, maximum, per day): a refusal is a bank-style rejection. */
export const chargeRefusal = (merchant: MerchantRow, mode: Mode, total: Money.Cents, at: Date) =>
  Effect.gen(function* () {
    const limits = yield* limitsAt(merchant)
    const used = yield* usage(merchant.id, mode, at)
    const check = Caps.checkCharge({
      monto: total,
      usadoHoy: used.hoy,
      limits: { montoMin: limits.montoMin, montoMax: limits.montoMax, maxDiario: limits.maxDiario },
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
