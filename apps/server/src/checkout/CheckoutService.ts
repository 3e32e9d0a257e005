/**
 * The payer's side of a link: request the bank code, pay with it, follow the bank's answer.
 * Rules come from @switch/core (LinkMachine, Fees, Caps, RateLimit, BankCalendar); this module
 * orders them and keeps "paid exactly once" in conditional updates.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { BankCalendar, Fees, LinkMachine, Money, Resultado } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { bankClose, Settings } from "../Config.js"
import { Banks } from "../platform/bank/Banks.js"
import { capRefusal, chargeRefusal } from "../platform/Limits.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { snapshot } from "../platform/LinksRepo.js"
import { findMerchant, type MerchantRow } from "../platform/Merchants.js"
import { Settlements } from "../platform/Settlements.js"
import { isUuid } from "../platform/Uuid.js"
import { releaseCodeSlots, reserveCodeSlots } from "./Guards.js"
import { decodeCodeRequest, decodePayment, huella } from "./Input.js"
import {
  BANK_WINDOW_MS,
  bankClosed,
  capExceeded,
  codeRefused,
  type LastAttempt,
  noAccount,
  notFound,
  type PageError,
  type PageModel,
  type PayReply,
  party,
  payerParty,
  REJECTION_SHOWN_MS,
  rateUnavailable,
  type Status,
  suspended,
  tooManyCodes,
  unavailable,
  validation
} from "./Model.js"
import { decide, NOT_DONE, shouldAsk } from "./Reconcile.js"
import { type Attempt, applyAnswer, CHECKOUT_COLUMNS, type CheckoutLink } from "./Settle.js"
import { cardOffer, TARJETA_TECHO } from "./TarjetaService.js"

/** The current time, from Effect's Clock (tests provide their own). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export class Checkout extends Context.Tag("@switch/server/Checkout")<
  Checkout,
  {
    readonly page: (id: string) => Effect.Effect<PageModel, PageError>
    readonly status: (id: string) => Effect.Effect<Status, PageError>
    readonly requestCode: (
      id: string,
      body: unknown,
      ip: string
    ) => Effect.Effect<{ estado: "ACEPTADA"; mensaje: string; aviso?: string }, PageError>
    readonly pay: (id: string, body: unknown) => Effect.Effect<PayReply, PageError>
    /** Asks the bank about every payment still waiting for it; returns how many were asked. */
    readonly reconcileDue: Effect.Effect<number>
  }
>() {}

export const CheckoutLive = Layer.effect(
  Checkout,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const banks = yield* Banks
    const settlements = yield* Settlements
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
        const rows = yield* LinksRepo.byId<CheckoutLink>(id, CHECKOUT_COLUMNS).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
        const link = rows[0]
        if (link === undefined) return yield* Effect.fail(notFound)
        const merchant = yield* provide(findMerchant(link.comercio_id))
        if (Option.isNone(merchant)) return yield* Effect.fail(notFound)
        return { link, merchant: merchant.value }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const lastAttempt = (linkId: string) =>
      Effect.map(
        sql<LastAttempt>`select id, estado, motivo_rechazo, created_at, actualizado_at, huella from intentos_pago
          where link_id = ${linkId} order by created_at desc limit 1`,
        (rows) => Option.fromNullable(rows[0])
      ).pipe(Effect.orDie)

    /** Asks the bank about the link's open attempt and applies what Reconcile.ts decides. */
    const reconcile = (link: CheckoutLink, merchant: MerchantRow, attempt: LastAttempt, at: Date) =>
      Effect.gen(function* () {
        if (!shouldAsk(attempt, at, settings.bankTimeoutMs)) return
        const answer = yield* banks.forMode(link.mode).query(attempt.id)
        const decision = decide({
          linkEstado: link.estado,
          attempt,
          answer,
          at,
          abandonMs: settings.conciliarAbandonoSegundos * 1000
        })
        switch (decision._tag) {
          case "Esperar":
            return
          case "Revision": {
            // Marked once; the link stays in `revision` and later queries may still settle it.
            const marked = yield* sql`
              update intentos_pago set revision_desde = ${at}
              where id = ${attempt.id} and revision_desde is null returning id`.pipe(Effect.orDie)
            if (marked.length > 0)
              yield* Effect.logWarning(
                `pago ${attempt.id} del link ${link.id}: el banco no responde consultas tras la ventana; queda en revisión para un operador`
              )
            return
          }
          case "Aplicar":
            if (decision.answer === NOT_DONE)
              yield* Effect.logWarning(
                `pago ${attempt.id} del link ${link.id}: el banco nunca lo recibió, se da por no hecho`
              )
            yield* provide(applyAnswer({ attempt, link, merchant, answer: decision.answer, at }))
        }
      })

    const visible = (link: CheckoutLink, at: Date) =>
      LinkMachine.visibleState({ estado: link.estado, expiresAt: link.expires_at }, at)

    const page = (id: string) =>
      Effect.gen(function* () {
        const at = yield* now
        const { link, merchant } = yield* load(id)
        const last = yield* lastAttempt(link.id)
        const recargo =
          link.estado === "pagado" && link.metodo === "tarjeta"
            ? yield* sql<{ recargo: number }>`select recargo from cargos_tarjeta
                where link_id = ${link.id} and estado not in ('abierto', 'sin_cobro') limit 1`.pipe(
                Effect.orDie
              )
            : []
        return {
          ...(recargo[0] === undefined ? {} : { recargoPagado: recargo[0].recargo }),
          link,
          merchant,
          estado: visible(link, at),
          last,
          at,
          cierre: bankClose(settings, at),
          tarjeta: cardOffer(link, merchant, settings.tarjetaTecho ?? TARJETA_TECHO)
        }
      })

    const status = (id: string) =>
      Effect.gen(function* () {
        const at = yield* now
        let { link, merchant } = yield* load(id)
        let last = yield* lastAttempt(link.id)
        // A card form's outcome comes from the processor (TarjetaService.ts), not from a bank attempt.
        if (LinkMachine.isInFlight(link.estado) && link.metodo !== "tarjeta" && Option.isSome(last)) {
          yield* reconcile(link, merchant, last.value, at)
          ;({ link, merchant } = yield* load(id))
          last = yield* lastAttempt(link.id)
        }
        const estado = visible(link, at)
        const out: { estado: LinkMachine.LinkState; motivo?: string; desde?: number } = { estado }
        if (Option.isSome(last)) {
          const a = last.value
          if (LinkMachine.isInFlight(estado)) out.desde = a.created_at.getTime()
          if (
            estado === "pendiente" &&
            a.estado === "RECHAZADA" &&
            a.motivo_rechazo !== null &&
            at.getTime() - a.created_at.getTime() < REJECTION_SHOWN_MS
          )
            out.motivo = Resultado.motivoParaPagador[a.motivo_rechazo]
        }
        return out as Status
      })

    const requestCode = (id: string, body: unknown, ip: string) =>
      Effect.gen(function* () {
        const payer = yield* Either.mapLeft(decodeCodeRequest(body), validation)
        const at = yield* now
        const { link, merchant } = yield* load(id)
        const estado = visible(link, at)
        if (estado !== "pendiente") return yield* Effect.fail(unavailable(estado))
        if (merchant.estado === "suspendido") return yield* Effect.fail(suspended)
        if (link.mode === "live" && merchant.cuenta_liquidacion === null) return yield* Effect.fail(noAccount)
        const cierre = bankClose(settings, at)
        // Test links are not affected by the banks' close.
        if (link.mode === "live" && cierre._tag === "Cerrado") {
          return yield* Effect.fail(bankClosed(cierre.reintentarEn))
        }
        const cap = yield* provide(capRefusal(merchant, link.mode, Money.Cents(link.monto), at)).pipe(
          Effect.catchTag("RateUnavailable", () => Effect.fail(rateUnavailable))
        )
        if (Option.isSome(cap)) return yield* Effect.fail(capExceeded(cap.value))
        const keys = yield* provide(
          reserveCodeSlots(
            link.mode,
            { link: link.id, idPhone: huella(settings.secret, payer), ip },
            at.getTime()
          )
        ).pipe(Effect.catchTag("CodeLimitReached", (e) => Effect.fail(tooManyCodes(e.retryAfterSeconds))))
        const answer = yield* banks.forMode(link.mode).requestCode({
          operacionId: randomUUID(),
          monto: Money.Cents(link.monto),
          concepto: link.concepto ?? "Pago",
          cobrador: party(merchant),
          pagador: payerParty(payer, null)
        })
        if (answer.estado === "RECHAZADA" || answer.estado === "ERROR") {
          // A request the bank refuses (a mistyped id, say) does not count against the payer.
          yield* provide(releaseCodeSlots(keys))
          const motivo = answer.motivo_rechazo ?? "RECHAZO_TECNICO"
          return yield* Effect.fail(codeRefused(motivo))
        }
        return {
          estado: "ACEPTADA" as const,
          mensaje:
            link.mode === "test"
              ? "Modo de prueba: no se envió ningún SMS. Usa el código 12345678 o un código de prueba."
              : "Tu banco te enviará un código de 8 dígitos por SMS. Vence en unos 2 minutos.",
          ...(link.mode === "live" && cierre._tag === "Aviso"
            ? { aviso: BankCalendar.avisoCierre(cierre.cierraEn) }
            : {})
        }
      })

    /** A second submission: wait out the first one's bank window, then say where it stands. */
    const waitForFirst = (id: string) =>
      Effect.gen(function* () {
        const deadline = Date.now() + BANK_WINDOW_MS
        for (;;) {
          const { link } = yield* load(id)
          // A card form took the link while this debit was starting: no debit now.
          if (link.estado === "cobrando" && link.metodo === "tarjeta")
            return yield* Effect.fail(unavailable(link.estado))
          if (link.estado !== "cobrando" || Date.now() >= deadline) {
            if (link.estado === "pagado" && link.codigo_verificacion !== null)
              return {
                estado: "pagado",
                referencia: link.referencia_banco ?? "",
                codigo_verificacion: link.codigo_verificacion
              } as PayReply
            if (link.estado === "cobrando" || link.estado === "revision")
              return { estado: "procesando" } as PayReply
            return { estado: visible(link, yield* now) } as PayReply
          }
          yield* Effect.sleep("200 millis")
        }
      })

    const pay = (id: string, body: unknown) =>
      Effect.gen(function* () {
        const at = yield* now
        const { link, merchant } = yield* load(id)
        const input = yield* Either.mapLeft(decodePayment(body, merchant.tipo === "empresa"), validation)
        const estado = visible(link, at)
        // The card form holds the link: no immediate debit until it is paid or released.
        if (estado === "cobrando" && link.metodo === "tarjeta") return yield* Effect.fail(unavailable(estado))
        if (LinkMachine.isInFlight(estado)) return yield* waitForFirst(id)
        if (estado !== "pendiente") return yield* Effect.fail(unavailable(estado))
        const tip = Fees.validateTip({
          charge: Money.Cents(link.monto),
          tip: input.propina,
          maxPct: merchant.propina_max_bp === null ? null : Money.BasisPoints(merchant.propina_max_bp)
        })
        if (Either.isLeft(tip))
          return yield* Effect.fail(validation({ fieldErrors: { propina: [tip.left.mensaje] } }))
        const start = LinkMachine.transition(
          snapshot(link, merchant),
          LinkMachine.LinkEvent.IniciarDebito(),
          at
        )
        if (Either.isLeft(start)) {
          if (start.left._tag === "ComercioSuspendido") return yield* Effect.fail(suspended)
          return yield* Effect.fail(unavailable(start.left._tag === "LinkExpirado" ? "expirado" : estado))
        }
        if (link.mode === "live" && merchant.cuenta_liquidacion === null) return yield* Effect.fail(noAccount)
        const total = Fees.total(Money.Cents(link.monto), tip.right)
        const limit = yield* provide(chargeRefusal(merchant, link.mode, total, at)).pipe(
          Effect.catchTag("RateUnavailable", () => Effect.fail(rateUnavailable))
        )
        if (Option.isSome(limit))
          return {
            estado: "rechazado",
            motivo_rechazo: limit.value,
            motivo: Resultado.motivoParaPagador[limit.value]
          } as PayReply
        const attempt: Attempt = {
          id: randomUUID(),
          huella: input.alta_cliente ? huella(settings.secret, input) : null
        }
        // Only one submission moves the link to `cobrando`; the others wait for its answer.
        const started = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const rows = yield* LinksRepo.startDebit<CheckoutLink>({
                id: link.id,
                comercioId: link.comercio_id,
                t: start.right,
                propina: tip.right,
                altaCliente: input.alta_cliente,
                nombre: input.nombre,
                at,
                returning: CHECKOUT_COLUMNS
              }).pipe(Effect.provideService(PgClient.PgClient, sql))
              const row = rows[0]
              if (row === undefined) return Option.none<CheckoutLink>()
              yield* sql`insert into intentos_pago (id, link_id, comercio_id, mode, estado, huella, created_at, actualizado_at)
              values (${attempt.id}, ${link.id}, ${link.comercio_id}, ${link.mode}, 'ENVIANDO', ${attempt.huella}, ${at}, ${at})`
              return Option.some(row)
            })
          )
          .pipe(Effect.orDie)
        if (Option.isNone(started)) return yield* waitForFirst(id)
        const answer = yield* banks.forMode(link.mode).debit({
          operacionId: attempt.id,
          monto: total,
          concepto: link.concepto ?? "Pago",
          cobrador: party(merchant),
          pagador: payerParty(input, input.nombre),
          otp: input.otp
        })
        const outcome = yield* provide(
          applyAnswer({ attempt, link: started.value, merchant, answer, at: yield* now })
        )
        switch (outcome._tag) {
          case "Pagado":
            return {
              estado: "pagado",
              referencia: outcome.referencia,
              codigo_verificacion: outcome.codigo
            } as PayReply
          case "Rechazado":
            return {
              estado: "rechazado",
              motivo_rechazo: outcome.motivo,
              motivo: Resultado.motivoParaPagador[outcome.motivo]
            } as PayReply
          default:
            return yield* waitForFirst(id)
        }
      })

    const reconcileDue = Effect.gen(function* () {
      const at = yield* now
      const rows = yield* LinksRepo.attemptsInFlight.pipe(Effect.provideService(PgClient.PgClient, sql))
      for (const row of rows) {
        const loaded = yield* Effect.either(load(row.link_id))
        if (Either.isLeft(loaded)) continue
        const last = yield* lastAttempt(row.link_id)
        if (Option.isNone(last) || last.value.id !== row.id) continue
        yield* reconcile(loaded.right.link, loaded.right.merchant, last.value, at)
      }
      return rows.length
    }).pipe(Effect.orDie)

    return { page, status, requestCode, pay, reconcileDue }
  })
)

/** Every process asks the bank about waiting payments every few seconds. Safe to race. */
export const CheckoutReconcilerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const checkout = yield* Checkout
    const round = checkout.reconcileDue.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("checkout reconcile failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(round, Effect.sleep("2 seconds"))))
  })
)
