/**
 * The card processor's nightly close and the operators' questions about a charge, beside the
 * payer-facing card flow (TarjetaService.ts): both apply what the processor states through the
 * same path, TarjetaService's `apply` (one transaction per fact, @switch/core's CardCharge).
 *
 * - The close of an ended Caracas day credits its charges (the merchant is settled and
 *   `link.acreditado` sent); an approved charge it leaves out goes to the review queue once every
 *   close that could hold it was read (see {@link approvalDays}).
 * - The console asks the processor again about a charge, or applies an operator's decision.
 */
import type { PgClient } from "@effect/sql-pg"
import { BankCalendar, CardCharge, type Ports } from "@switch/core"
import { Clock, type Context, Effect, Option } from "effect"
import type { CargosTarjeta } from "../platform/card/CargosTarjeta.js"
import { isUuid } from "../platform/Uuid.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The Caracas days the processor may have approved a charge on: while its form was open. */
export const approvalDays = (charge: { readonly created_at: Date; readonly expires_at: Date }) => {
  const opened = BankCalendar.caracasDayKey(charge.created_at)
  const expired = BankCalendar.caracasDayKey(charge.expires_at)
  return opened === expired ? [opened] : [opened, expired]
}

/** What the close and the console need of the card flow. */
export interface CierreDeps {
  readonly sql: PgClient.PgClient
  readonly processor: Context.Tag.Service<Ports.CardProcessor>
  /** Applies a fact about a charge; none when the machine refused it (repeated or stale). */
  readonly apply: (
    cargoId: string,
    event: CardCharge.CardChargeEvent
  ) => Effect.Effect<Option.Option<CardCharge.CardChargeTransition>>
}

/** The nightly close's round and the console's port over the card charges. */
export const cierre = ({ sql, processor, apply }: CierreDeps) => {
  /**
   * The close of Caracas day `dia`, applied: credits settle; an approved charge left out goes to
   * review once the closes of every day the processor may have approved it on were read without
   * it. The processor can only approve while the form is open, so that is the day the form
   * opened and the day it expired (two days for a form open at midnight), whatever our clock
   * said when the approval reached us.
   */
  const applyClose = (dia: string, close: Ports.CardClose & { _tag: "Cerrado" }, read: ReadonlySet<string>) =>
    Effect.gen(function* () {
      const credited = new Set<string>()
      for (const credit of close.creditos) {
        credited.add(credit.chargeId)
        if (isUuid(credit.chargeId))
          yield* apply(
            credit.chargeId,
            CardCharge.CardChargeEvent.Acreditada({ referencia: credit.referencia })
          )
      }
      const approved = yield* sql<{ id: string; created_at: Date; expires_at: Date }>`
        select id, created_at, expires_at from cargos_tarjeta where estado = 'aprobado'`.pipe(Effect.orDie)
      const missing = approved.filter((r) => {
        const days = approvalDays(r)
        return !credited.has(r.id) && days.includes(dia) && days.every((d) => d === dia || read.has(d))
      })
      for (const r of missing) yield* apply(r.id, CardCharge.CardChargeEvent.FaltaEnCierre())
      return { creditos: close.creditos.length, faltantes: missing.length }
    })

  /**
   * Reads the processor's nightly close of every ended Caracas day of the last week on which a
   * charge may have been approved and not read yet, and applies it once (the day's row in
   * `cierres_tarjeta`).
   */
  const closeDue = Effect.gen(function* () {
    const at = yield* now
    const since = new Date(at.getTime() - 8 * BankCalendar.DAY_MS)
    const charges = yield* sql<{ created_at: Date; expires_at: Date }>`
      select created_at, expires_at from cargos_tarjeta where created_at > ${since}`.pipe(Effect.orDie)
    const rows = yield* sql<{ dia: string }>`
      select to_char(dia, 'YYYY-MM-DD') as dia from cierres_tarjeta where dia >= ${since}::date`.pipe(
      Effect.orDie
    )
    const read = new Set(rows.map((r) => r.dia))
    const today = BankCalendar.caracasDayKey(at)
    const days = new Set(charges.flatMap(approvalDays).filter((dia) => dia < today && !read.has(dia)))
    let applied = 0
    for (const dia of [...days].sort()) {
      const close = yield* processor.nightlyClose(dia)
      if (close._tag !== "Cerrado") continue
      const counts = yield* applyClose(dia, close, read)
      yield* sql`insert into cierres_tarjeta (dia, creditos, faltantes, leido_at)
        values (${dia}::date, ${counts.creditos}, ${counts.faltantes}, ${at}) on conflict (dia) do nothing`.pipe(
        Effect.orDie
      )
      read.add(dia)
      applied++
    }
    return applied
  })

  const estadoDe = (cargoId: string) =>
    Effect.map(
      sql<{ estado: CardCharge.CardChargeState; created_at: Date; expires_at: Date }>`
        select estado, created_at, expires_at from cargos_tarjeta where id = ${cargoId}`,
      (rows) => rows[0] ?? null
    ).pipe(Effect.orDie)

  const consola: Context.Tag.Service<CargosTarjeta> = {
    consultar: (cargoId) =>
      Effect.gen(function* () {
        if (!isUuid(cargoId)) return null
        const before = yield* estadoDe(cargoId)
        if (before === null) return null
        const status = yield* processor.query(cargoId, { close: false })
        for (const dia of approvalDays(before)) {
          const close = yield* processor.nightlyClose(dia)
          const credit =
            close._tag === "Cerrado" ? close.creditos.find((c) => c.chargeId === cargoId) : undefined
          if (credit !== undefined)
            yield* apply(cargoId, CardCharge.CardChargeEvent.Acreditada({ referencia: credit.referencia }))
        }
        const after = yield* estadoDe(cargoId)
        return { estado: after?.estado ?? before.estado, procesador: status._tag }
      }),
    decidir: (cargoId, event) =>
      Effect.gen(function* () {
        if (!isUuid(cargoId)) return null
        const before = yield* estadoDe(cargoId)
        if (before === null) return null
        const t = yield* apply(cargoId, event)
        if (Option.isSome(t) && event._tag === "CerrarConNota")
          yield* sql`update cargos_tarjeta set nota = ${event.nota} where id = ${cargoId}`.pipe(Effect.orDie)
        return { estado: Option.isSome(t) ? t.value.to : before.estado, aplicado: Option.isSome(t) }
      })
  }

  return { closeDue, consola }
}
