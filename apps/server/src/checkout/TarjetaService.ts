/**
 * The card pilot on the payment page: open the processor's form (the link goes `cobrando` for
 * 6 minutes), learn its outcome from the processor's signed callbacks, from the payer coming
 * back, from "pay another way" and from the expiry round, and apply it.
 *
 * Every outcome goes through one path, {@link apply}: in a transaction it locks the charge row,
 * asks @switch/core's CardCharge machine what the fact means in the charge's state, stores the
 * new state and carries out the effects (pay the link through the payment recorder, release it,
 * queue the merchant's settlement). Facts received twice or out of order are therefore harmless:
 * the machine refuses a repeated fact, and the link moves only with a conditional update. An
 * approval whose link can no longer take it (paid another way meanwhile) becomes a `duplicado`
 * charge for the operators' review queue, never a second payment. The processor's nightly close
 * and the console's questions apply their facts through the same path (TarjetaCierre.ts).
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { CardCallbackRefused, CardProcessorUnavailable, PageConflict } from "@switch/api"
import { CardCharge, CardSignature, Fees, LinkMachine, Money, Ports } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { cardClaveFrom, Settings } from "../Config.js"
import { CargosTarjeta } from "../platform/card/CargosTarjeta.js"
import { capRefusal, chargeRefusal } from "../platform/Limits.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { snapshot } from "../platform/LinksRepo.js"
import { findMerchant, type MerchantRow } from "../platform/Merchants.js"
import { markPaid } from "../platform/PaymentRecorder.js"
import { Settlements } from "../platform/Settlements.js"
import { isUuid } from "../platform/Uuid.js"
import {
  type CardOffer,
  capExceeded,
  noAccount,
  notFound,
  type PageError,
  rateUnavailable,
  suspended,
  unavailable,
  validation
} from "./Model.js"
import { CHECKOUT_COLUMNS, type CheckoutLink } from "./Settle.js"
import { cierre } from "./TarjetaCierre.js"

/** The pilot's ceiling when SWITCH_TARJETA_TECHO is unset: Bs 10.000, in cents. */
export const TARJETA_TECHO = 1_000_000

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** A stored card charge. */
export interface CargoRow {
  readonly id: string
  readonly link_id: string
  readonly comercio_id: string
  readonly estado: CardCharge.CardChargeState
  readonly monto: number
  readonly propina: number
  readonly recargo: number
  readonly total: number
  readonly referencia: string | null
  readonly expires_at: Date
  readonly created_at: Date
}

/** A charge's link that its approval can pay, and the hold that takes it back for the card first. */
interface Payable {
  readonly link: CheckoutLink
  readonly snap: LinkMachine.LinkSnapshot
  readonly hold: Option.Option<LinkMachine.Transition>
}

export interface OpenReply {
  readonly url_formulario: string
  readonly expira_en: string
  readonly recargo: number
  readonly total: number
}

const noCard = (motivo: string) =>
  new PageConflict({
    error: "tarjeta_no_disponible",
    motivo,
    detail: "El pago con tarjeta no está disponible para este link."
  })

const processorDown = new CardProcessorUnavailable({
  error: "procesador_no_disponible",
  detail: "El procesador de tarjetas no respondió. Intenta de nuevo en unos segundos."
})

/** Whether the page may offer the card on `link` of `merchant` (flag, link, bill, ceiling). */
export const cardOffer = (link: CheckoutLink, merchant: MerchantRow, techo: number, tip = 0): CardOffer => {
  if (!merchant.tarjeta_habilitada) return { _tag: "NoDisponible" }
  const a = Fees.cardAvailability({
    mode: link.mode,
    currency: link.moneda,
    hasSplit: link.split !== null,
    total: Money.Cents(link.monto + tip),
    ceiling: Money.Cents(techo),
    surchargePct: Money.BasisPoints(merchant.recargo_tarjeta_bp ?? 300)
  })
  return a._tag === "Disponible"
    ? { _tag: "Disponible", recargo: a.recargo, total: a.total }
    : { _tag: "NoDisponible" }
}

export class Tarjeta extends Context.Tag("@switch/server/Tarjeta")<
  Tarjeta,
  {
    /** Opens the processor's form for the link; the link is `cobrando` until the outcome. */
    readonly open: (
      id: string,
      body: unknown
    ) => Effect.Effect<OpenReply, PageError | CardProcessorUnavailable>
    /** Pay another way: asks the processor (closing the form) and applies its answer. */
    readonly otherWay: (
      id: string
    ) => Effect.Effect<{ readonly estado: LinkMachine.LinkState }, PageError | CardProcessorUnavailable>
    /** The payer came back from the processor's form: asks about the link's open charge. */
    readonly returned: (id: string) => Effect.Effect<void>
    /** A processor callback, raw body and signature header; answers whether it was new. */
    readonly callback: (
      body: string,
      signature: string | undefined
    ) => Effect.Effect<{ readonly repetido: boolean }, CardCallbackRefused | PageError>
    /** Asks the processor about every form past its 6 minutes; answers how many were asked. */
    readonly expireDue: Effect.Effect<number>
    /** Reads and applies the nightly closes of ended days not read yet; answers how many. */
    readonly closeDue: Effect.Effect<number>
    /** What the operators' console asks about missing charges. */
    readonly consola: Context.Tag.Service<CargosTarjeta>
  }
>() {}

export const TarjetaLive = Layer.effect(
  Tarjeta,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const settlements = yield* Settlements
    const processor = yield* Ports.CardProcessor
    const clave =
      settings.cardClave === undefined || settings.cardClave === null
        ? cardClaveFrom(Redacted.value(settings.secret))
        : Redacted.value(settings.cardClave)
    const techo = settings.tarjetaTecho ?? TARJETA_TECHO
    const provide = <A, E>(
      effect: Effect.Effect<A, E, PgClient.PgClient | SqlClient.SqlClient | Settings | Settlements>
    ) =>
      effect.pipe(
        Effect.provideService(PgClient.PgClient, sql),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Settings, settings),
        Effect.provideService(Settlements, settlements)
      )

    const load = (id: string) =>
      Effect.gen(function* () {
        if (!isUuid(id)) return yield* Effect.fail(notFound)
        const rows = yield* provide(LinksRepo.byId<CheckoutLink>(id.toLowerCase(), CHECKOUT_COLUMNS))
        const link = rows[0]
        if (link === undefined) return yield* Effect.fail(notFound)
        const merchant = yield* provide(findMerchant(link.comercio_id))
        if (Option.isNone(merchant)) return yield* Effect.fail(notFound)
        return { link, merchant: merchant.value }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const openCharge = (linkId: string) =>
      Effect.map(
        sql<CargoRow>`select * from cargos_tarjeta where link_id = ${linkId} and estado = 'abierto'`,
        (rows) => Option.fromNullable(rows[0])
      ).pipe(Effect.orDie)

    /**
     * The charge's link, locked for the transaction, as the card's approval would find it: held
     * for the card again when it was released meanwhile (the processor holds the money); none
     * when the approval can no longer pay it (paid another way, a debit under way, closed).
     */
    const payableLink = (cargo: CargoRow, at: Date) =>
      Effect.gen(function* () {
        yield* sql`select 1 from links where id = ${cargo.link_id} for update`.pipe(Effect.orDie)
        const { link, merchant } = yield* load(cargo.link_id)
        const snap = snapshot(link, merchant)
        const approve = (from: LinkMachine.LinkSnapshot) =>
          LinkMachine.transition(
            from,
            LinkMachine.LinkEvent.TarjetaAprobada({ referencia: "", recargo: cargo.recargo }),
            at
          )
        if (snap.estado === "pendiente") {
          const hold = LinkMachine.transition(snap, LinkMachine.LinkEvent.AbrirTarjeta(), at)
          if (Either.isLeft(hold)) return Option.none<Payable>()
          const held: LinkMachine.LinkSnapshot = { ...snap, estado: "cobrando", metodo: "tarjeta" }
          return Either.isRight(approve(held))
            ? Option.some<Payable>({ link, snap: held, hold: Option.some(hold.right) })
            : Option.none<Payable>()
        }
        return Either.isRight(approve(snap))
          ? Option.some<Payable>({ link, snap, hold: Option.none() })
          : Option.none<Payable>()
      })

    /** Carries out one effect of the charge machine, inside {@link apply}'s transaction. */
    const carryOut = (cargo: CargoRow, effect: CardCharge.CardChargeEffect, at: Date) =>
      Effect.gen(function* () {
        switch (effect._tag) {
          case "PagarLink": {
            // apply checked under the link's lock that the approval can pay it.
            const payable = yield* payableLink(cargo, at)
            if (Option.isNone(payable))
              return yield* Effect.dieMessage(
                `cargo ${cargo.id}: el link dejó de poder pagarse con la tarjeta`
              )
            const { link, snap, hold } = payable.value
            if (Option.isSome(hold))
              yield* provide(
                LinksRepo.startCard({
                  id: link.id,
                  comercioId: link.comercio_id,
                  t: hold.value,
                  propina: cargo.propina,
                  at
                })
              )
            const paid = LinkMachine.transition(
              snap,
              LinkMachine.LinkEvent.TarjetaAprobada({
                referencia: effect.referencia,
                recargo: cargo.recargo
              }),
              at
            )
            if (Either.isLeft(paid))
              return yield* Effect.dieMessage(`cargo ${cargo.id}: el link ${link.id} no acepta el pago`)
            yield* provide(
              markPaid({
                linkId: link.id,
                comercioId: link.comercio_id,
                mode: link.mode,
                from: paid.right.from,
                referencia: effect.referencia,
                metodo: "tarjeta",
                effects: paid.right.effects,
                paidAt: at,
                recargoTarjeta: cargo.recargo
              })
            )
            return
          }
          case "LiberarLink": {
            const { link, merchant } = yield* load(cargo.link_id)
            const t = LinkMachine.transition(
              snapshot(link, merchant),
              LinkMachine.LinkEvent.TarjetaLiberada(),
              at
            )
            if (Either.isRight(t)) yield* provide(LinksRepo.reopen(link.id, t.right))
            return
          }
          case "Liquidar":
            yield* provide(settlements.enqueue(cargo.link_id))
            return
          case "AbrirRevision":
          case "CerrarRevision":
            // The operators' review queue reads `faltante` charges (operador/cola/CargosTarjeta.ts).
            return
        }
      })

    /** Applies a fact about charge `cargoId`; none when the machine refused it (repeated or stale). */
    const apply = (cargoId: string, event: CardCharge.CardChargeEvent) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const at = yield* now
            const rows = yield* sql<CargoRow>`select * from cargos_tarjeta where id = ${cargoId} for update`
            const cargo = rows[0]
            if (cargo === undefined) return Option.none<CardCharge.CardChargeTransition>()
            const charge = { estado: cargo.estado, referencia: cargo.referencia, expiresAt: cargo.expires_at }
            let t = CardCharge.transition(charge, event)
            if (Either.isLeft(t)) return Option.none<CardCharge.CardChargeTransition>()
            // An approval whose link was paid another way (or closed) cannot pay it: the payer may
            // be charged twice, so the charge goes to the operators' review queue instead.
            if (
              t.right.effects.some((e) => e._tag === "PagarLink") &&
              Option.isNone(yield* payableLink(cargo, at))
            ) {
              t = CardCharge.transition(charge, CardCharge.forTakenLink(event))
              if (Either.isLeft(t)) return Option.none<CardCharge.CardChargeTransition>()
              yield* Effect.logWarning(
                `cargo de tarjeta ${cargo.id} aprobado con el link ${cargo.link_id} ya pagado o cerrado: a revisión por posible doble cobro`
              )
            }
            yield* sql`update cargos_tarjeta set estado = ${t.right.to}, referencia = ${t.right.referencia},
              aprobado_at = case when ${t.right.to} in ('aprobado', 'acreditado') then coalesce(aprobado_at, ${at}) else aprobado_at end,
              acreditado_at = case when ${t.right.to} = 'acreditado' then ${at} else acreditado_at end,
              actualizado_at = ${at}
              where id = ${cargoId}`
            for (const effect of t.right.effects) yield* carryOut(cargo, effect, at)
            return Option.some(t.right)
          })
        )
        .pipe(
          Effect.catchTag("SqlError", Effect.die),
          Effect.catchAll(() => Effect.succeed(Option.none<CardCharge.CardChargeTransition>()))
        )

    /** Asks the processor about a charge and applies what it says; false when it said nothing. */
    const ask = (cargoId: string, close: boolean) =>
      Effect.gen(function* () {
        const status = yield* processor.query(cargoId, { close })
        const event = CardCharge.eventOf(status)
        if (event === null) return false
        yield* apply(cargoId, event)
        return true
      })

    const open = (id: string, body: unknown) =>
      Effect.gen(function* () {
        const at = yield* now
        const { link, merchant } = yield* load(id)
        const raw =
          typeof body === "object" && body !== null ? (body as Record<string, unknown>).propina : undefined
        let tip = Money.zero
        if (raw !== undefined && raw !== null && raw !== "") {
          const parsed =
            typeof raw === "number"
              ? Money.fromNonNegativeNumber(raw)
              : typeof raw === "string"
                ? Money.parseVenezuelan(raw)
                : Either.left("formato" as const)
          if (Either.isLeft(parsed))
            return yield* Effect.fail(
              validation({
                fieldErrors: {
                  propina: ["escribe la propina en bolívares, por ejemplo 1.234,56 (hasta 2 decimales)"]
                }
              })
            )
          tip = parsed.right
        }
        const estado = LinkMachine.visibleState({ estado: link.estado, expiresAt: link.expires_at }, at)
        if (estado !== "pendiente") return yield* Effect.fail(unavailable(estado))
        const validTip = Fees.validateTip({
          charge: Money.Cents(link.monto),
          tip,
          maxPct: merchant.propina_max_bp === null ? null : Money.BasisPoints(merchant.propina_max_bp)
        })
        if (Either.isLeft(validTip))
          return yield* Effect.fail(validation({ fieldErrors: { propina: [validTip.left.mensaje] } }))
        const offer = cardOffer(link, merchant, techo, validTip.right)
        if (offer._tag === "NoDisponible") return yield* Effect.fail(noCard("no_ofrecida"))
        const start = LinkMachine.transition(
          snapshot(link, merchant),
          LinkMachine.LinkEvent.AbrirTarjeta(),
          at
        )
        if (Either.isLeft(start)) {
          if (start.left._tag === "ComercioSuspendido") return yield* Effect.fail(suspended)
          if (start.left._tag === "TarjetaNoDisponible") return yield* Effect.fail(noCard("no_ofrecida"))
          return yield* Effect.fail(unavailable(start.left._tag === "LinkExpirado" ? "expirado" : estado))
        }
        if (merchant.cuenta_liquidacion === null) return yield* Effect.fail(noAccount)
        const amountWithTip = Fees.total(Money.Cents(link.monto), validTip.right)
        const limit = yield* provide(chargeRefusal(merchant, link.mode, amountWithTip, at)).pipe(
          Effect.catchTag("RateUnavailable", () => Effect.fail(rateUnavailable))
        )
        if (Option.isSome(limit)) return yield* Effect.fail(noCard(limit.value))
        // The receive caps hold for the card too: with the cap full no payment can start.
        const cap = yield* provide(capRefusal(merchant, link.mode, amountWithTip, at)).pipe(
          Effect.catchTag("RateUnavailable", () => Effect.fail(rateUnavailable))
        )
        if (Option.isSome(cap)) return yield* Effect.fail(capExceeded(cap.value))
        const cargoId = randomUUID()
        const expiresAt = CardCharge.formExpiresAt(at)
        // One request takes the link: a debit or a second form racing it finds it `cobrando`.
        const taken = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const moved = yield* provide(
                LinksRepo.startCard({
                  id: link.id,
                  comercioId: link.comercio_id,
                  t: start.right,
                  propina: validTip.right,
                  at
                })
              )
              if (moved.length === 0) return false
              yield* sql`insert into cargos_tarjeta (id, link_id, comercio_id, estado, monto, propina, recargo, total,
                expires_at, created_at, actualizado_at)
                values (${cargoId}, ${link.id}, ${link.comercio_id}, 'abierto', ${link.monto}, ${validTip.right},
                  ${offer.recargo}, ${offer.total}, ${expiresAt}, ${at}, ${at})`
              return true
            })
          )
          .pipe(Effect.orDie)
        if (!taken) return yield* Effect.fail(unavailable("cobrando"))
        const session = yield* Effect.either(
          processor.open({
            chargeId: cargoId,
            linkId: link.id,
            total: offer.total,
            returnUrl: `${settings.baseUrl}/l/${link.id}/tarjeta`,
            expiresAt
          })
        )
        if (Either.isLeft(session)) {
          // The form may or may not exist at the processor: close it there before releasing.
          const closed = yield* ask(cargoId, true)
          if (!closed)
            yield* Effect.logWarning(`cargo ${cargoId}: el procesador no respondió al abrir ni al cerrar`)
          return yield* Effect.fail(processorDown)
        }
        return {
          url_formulario: session.right.formUrl,
          expira_en: expiresAt.toISOString(),
          recargo: Money.toNumber(offer.recargo),
          total: Money.toNumber(offer.total)
        }
      })

    const otherWay = (id: string) =>
      Effect.gen(function* () {
        const { link } = yield* load(id)
        const cargo = yield* openCharge(link.id)
        if (Option.isSome(cargo)) {
          const answered = yield* ask(cargo.value.id, true)
          if (!answered) return yield* Effect.fail(processorDown)
        }
        const after = yield* load(id)
        return {
          estado: LinkMachine.visibleState(
            { estado: after.link.estado, expiresAt: after.link.expires_at },
            yield* now
          )
        }
      })

    const returned = (id: string) =>
      Effect.gen(function* () {
        if (!isUuid(id)) return
        const cargo = yield* openCharge(id.toLowerCase())
        if (Option.isSome(cargo)) yield* ask(cargo.value.id, false)
      })

    const callback = (body: string, signature: string | undefined) =>
      Effect.gen(function* () {
        const at = yield* now
        const verified = CardSignature.verify(clave, signature, body, at)
        if (Either.isLeft(verified))
          return yield* Effect.fail(new CardCallbackRefused({ error: verified.left }))
        let parsed: Record<string, unknown> = {}
        try {
          const value: unknown = JSON.parse(body)
          if (typeof value === "object" && value !== null) parsed = value as Record<string, unknown>
        } catch {
          parsed = {}
        }
        const { id, evento, cargo_id: cargoId, referencia } = parsed
        if (typeof id !== "string" || typeof cargoId !== "string" || !isUuid(cargoId))
          return yield* Effect.fail(validation({ fieldErrors: { cargo_id: ["falta o no es válido"] } }))
        const event =
          evento === "cargo.aprobado" && typeof referencia === "string" && referencia !== ""
            ? CardCharge.CardChargeEvent.Aprobada({ referencia })
            : evento === "cargo.rechazado"
              ? CardCharge.CardChargeEvent.SinCobro()
              : null
        if (event === null)
          return yield* Effect.fail(validation({ fieldErrors: { evento: ["no es válido"] } }))
        const known = yield* sql`select 1 from cargos_tarjeta where id = ${cargoId}`.pipe(Effect.orDie)
        if (known.length === 0) return yield* Effect.fail(notFound)
        // Recorded first: of two deliveries of one callback racing, one inserts, the other is a repeat.
        const fresh = yield* sql`insert into callbacks_tarjeta (id, cargo_id, recibido_at)
          values (${id}, ${cargoId}, ${at}) on conflict (id) do nothing returning id`.pipe(Effect.orDie)
        if (fresh.length === 0) return { repetido: true }
        yield* apply(cargoId, event)
        return { repetido: false }
      })

    const expireDue = Effect.gen(function* () {
      const at = yield* now
      const due = yield* sql<{ id: string }>`select id from cargos_tarjeta
        where estado = 'abierto' and expires_at <= ${at} order by expires_at limit 100`.pipe(Effect.orDie)
      for (const row of due) yield* ask(row.id, true)
      return due.length
    })

    const { closeDue, consola } = cierre({ sql, processor, apply })

    return { open, otherWay, returned, callback, expireDue, closeDue, consola }
  })
)

/** The console's port over the card charges (platform/card/CargosTarjeta.ts), from {@link Tarjeta}. */
export const CargosTarjetaLive = Layer.effect(
  CargosTarjeta,
  Effect.map(Tarjeta, (t) => t.consola)
)

/** Every process looks for the processor's nightly closes of ended days now and then. Safe to race. */
export const TarjetaCierreLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const tarjeta = yield* Tarjeta
    const settings = yield* Settings
    const round = tarjeta.closeDue.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("card nightly close round failed", cause))
    )
    const every = Math.max(0.2, settings.tarjetaCierreSegundos ?? 60) * 1000
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(round, Effect.sleep(every))))
  })
)

/** Every process asks the processor about overdue forms every few seconds. Safe to race. */
export const TarjetaExpiryLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const tarjeta = yield* Tarjeta
    const round = tarjeta.expireDue.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("card expiry round failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(round, Effect.sleep("2 seconds"))))
  })
)
