/**
 * The payer's side of a link: request the bank code, pay with it, follow the bank's answer.
 * Rules come from @switch/core (LinkMachine, Fees, Caps, RateLimit, BankCalendar); this module
 * orders them and keeps "paid exactly once" in conditional updates.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { BankCalendar, Caps, Fees, LinkMachine, Money, type Ports, RateLimit, Resultado } from "@switch/core"
import { Context, Effect, Either, Layer, Option } from "effect"
import { Banks } from "../bank/Banks.js"
import { bankClose, Settings } from "../Config.js"
import { isUuid, snapshot } from "../links/LinksService.js"
import { findMerchant, type MerchantRow } from "../merchants/Merchants.js"
import { resolveNow } from "./CheckoutClock.js"
import { capRefusal, chargeRefusal, releaseCodeSlots, reserveCodeSlots } from "./Guards.js"
import { decodeCodeRequest, decodePayment, huella, type Payer } from "./Input.js"
import { type Attempt, applyAnswer, CHECKOUT_COLUMNS, type CheckoutLink, IN_FLIGHT } from "./Settle.js"

/** A refusal the page shows: HTTP status, SPEC-shaped body, and `Retry-After` when waiting helps. */
export class PageError {
  readonly _tag = "PageError"
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly retryAfter?: number
  ) {}
}

/** How long a second submission waits for the first one's bank answer. */
export const BANK_WINDOW_MS = 35_000
/**
 * An attempt still "sending" after its bank call's deadline (three tries of
 * `bankTimeoutMs`, HttpBank.ts) lost its process; the bank is asked about it. The same bound as
 * the direct API's lease (Reconcile.ts).
 */
const staleSendMs = (bankTimeoutMs: number) => bankTimeoutMs * 3 + 5_000
/** A rejection is shown on reopening the page for this long. */
const REJECTION_SHOWN_MS = 15 * 60_000

export interface LastAttempt {
  readonly id: string
  readonly estado: string
  readonly motivo_rechazo: Resultado.MotivoRechazo | null
  readonly created_at: Date
  readonly actualizado_at: Date
  readonly huella: string | null
}

export interface PageModel {
  readonly link: CheckoutLink
  readonly merchant: MerchantRow
  readonly estado: LinkMachine.LinkState
  readonly last: Option.Option<LastAttempt>
  readonly at: Date
  readonly cierre: BankCalendar.BankCloseStatus
}

export interface Status {
  readonly estado: LinkMachine.LinkState
  readonly motivo?: string
  readonly desde?: number
}

export type PayReply =
  | { readonly estado: "pagado"; readonly referencia: string; readonly codigo_verificacion: string }
  | { readonly estado: "procesando" }
  | {
      readonly estado: "rechazado"
      readonly motivo_rechazo: Resultado.MotivoRechazo
      readonly motivo: string
    }
  | { readonly estado: LinkMachine.LinkState }

/** What an order the bank never came to know is settled as (Reconcile.ts's `giveUp`). */
const NOT_DONE: Ports.BankAnswer = {
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: "BANCO_NO_DISPONIBLE"
}

const notFound = new PageError(404, { error: "not_found" })
const unavailable = (estado: string) =>
  new PageError(409, { error: "link_no_disponible", estado, detail: "Este link ya no admite pagos." })
const suspended = new PageError(403, {
  error: "comercio_suspendido",
  motivo: "Este comercio no puede recibir pagos en este momento."
})
const validation = (detail: unknown) => new PageError(400, { error: "validation", detail })

const party = (merchant: MerchantRow & { identificacion?: string }): Ports.Party =>
  merchant.cuenta_liquidacion ?? {
    tipo: "cuenta",
    valor: "",
    banco: "0000",
    identificacion: merchant.identificacion ?? "",
    nombre: merchant.nombre.slice(0, 40)
  }

const payerParty = (payer: Payer, nombre: string | null): Ports.Party => ({
  tipo: "telefono",
  valor: payer.telefono,
  banco: payer.banco,
  identificacion: `${payer.tipo_doc}${payer.identificacion}`,
  tipo_doc: payer.tipo_doc,
  nombre: (nombre ?? "Pagador").slice(0, 40)
})

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
    const now = yield* resolveNow
    const provide = <A, E>(effect: Effect.Effect<A, E, PgClient.PgClient | SqlClient.SqlClient | Settings>) =>
      effect.pipe(
        Effect.provideService(PgClient.PgClient, sql),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Settings, settings)
      )

    const load = (id: string) =>
      Effect.gen(function* () {
        if (!isUuid(id)) return yield* Effect.fail(notFound)
        const rows =
          yield* sql<CheckoutLink>`select ${sql.unsafe(CHECKOUT_COLUMNS)} from links where id = ${id}`
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

    /**
     * Asks the bank about the link's open attempt and applies a final answer. A query with no
     * news (`DESCONOCIDA`) changes nothing, except that a lost "sending" attempt becomes unknown
     * (`revision`), and an order the bank still does not know `conciliarAbandonoSegundos` after
     * that was not done: as in the direct API (Reconcile.ts), it is settled `RECHAZADA
     * BANCO_NO_DISPONIBLE` and the link reopens instead of waiting in `revision` forever.
     */
    const reconcile = (link: CheckoutLink, merchant: MerchantRow, attempt: LastAttempt, at: Date) =>
      Effect.gen(function* () {
        if (
          attempt.estado === "ENVIANDO" &&
          at.getTime() - attempt.created_at.getTime() < staleSendMs(settings.bankTimeoutMs)
        )
          return
        let answer = yield* banks.forMode(link.mode).query(attempt.id)
        if ((answer.estado === "ACEPTADA" || answer.estado === "PENDIENTE") && link.estado === "procesando")
          return
        if (answer.estado === "DESCONOCIDA" && link.estado === "procesando") return
        if (answer.estado === "DESCONOCIDA" && link.estado === "revision") {
          const unknownForMs = at.getTime() - attempt.actualizado_at.getTime()
          if (unknownForMs < settings.conciliarAbandonoSegundos * 1000) return
          answer = NOT_DONE
        }
        yield* provide(applyAnswer({ attempt, link, merchant, answer, at }))
      })

    const visible = (link: CheckoutLink, at: Date) =>
      LinkMachine.visibleState({ estado: link.estado, expiresAt: link.expires_at }, at)

    const page = (id: string) =>
      Effect.gen(function* () {
        const at = yield* now
        const { link, merchant } = yield* load(id)
        const last = yield* lastAttempt(link.id)
        return {
          link,
          merchant,
          estado: visible(link, at),
          last,
          at,
          cierre: bankClose(settings, at)
        }
      })

    const status = (id: string) =>
      Effect.gen(function* () {
        const at = yield* now
        let { link, merchant } = yield* load(id)
        let last = yield* lastAttempt(link.id)
        if (IN_FLIGHT.includes(link.estado) && Option.isSome(last)) {
          yield* reconcile(link, merchant, last.value, at)
          ;({ link, merchant } = yield* load(id))
          last = yield* lastAttempt(link.id)
        }
        const estado = visible(link, at)
        const out: { estado: LinkMachine.LinkState; motivo?: string; desde?: number } = { estado }
        if (Option.isSome(last)) {
          const a = last.value
          if (IN_FLIGHT.includes(estado)) out.desde = a.created_at.getTime()
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
        const cierre = bankClose(settings, at)
        // Test links are not affected by the banks' close.
        if (link.mode === "live" && cierre._tag === "Cerrado") {
          return yield* Effect.fail(
            new PageError(
              503,
              {
                error: "cierre_bancario",
                motivo: BankCalendar.MOTIVO_CIERRE,
                reintentar_en: cierre.reintentarEn
              },
              cierre.reintentarEn
            )
          )
        }
        const cap = yield* provide(capRefusal(merchant, link.mode, Money.Cents(link.monto), at))
        if (Option.isSome(cap))
          return yield* Effect.fail(new PageError(409, { ...Caps.refusalBody(cap.value, false) }))
        const keys = yield* provide(
          reserveCodeSlots(
            link.mode,
            { link: link.id, idPhone: huella(settings.secret, payer), ip },
            at.getTime()
          )
        ).pipe(
          Effect.catchTag("CodeLimitReached", (e) =>
            Effect.fail(
              new PageError(
                429,
                {
                  error: "demasiadas_solicitudes",
                  detail: RateLimit.esperaMensaje(e.retryAfterSeconds),
                  reintentar_en: e.retryAfterSeconds
                },
                e.retryAfterSeconds
              )
            )
          )
        )
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
          return yield* Effect.fail(
            new PageError(422, {
              error: "codigo_rechazado",
              motivo_rechazo: motivo,
              motivo: Resultado.motivoParaPagador[motivo]
            })
          )
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
        if (IN_FLIGHT.includes(estado)) return yield* waitForFirst(id)
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
        const total = Money.Cents(link.monto + tip.right)
        const limit = yield* provide(chargeRefusal(merchant, link.mode, total, at))
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
              const rows = yield* sql<CheckoutLink>`
              update links set estado = 'cobrando', metodo = 'debito', propina = ${tip.right},
                alta_cliente = ${input.alta_cliente}, pagador_nombre = ${input.nombre}
              where id = ${link.id} and estado = 'pendiente' and (expires_at is null or expires_at > ${at})
                and not exists (select 1 from comercios where id = ${link.comercio_id} and estado = 'suspendido')
              returning ${sql.unsafe(CHECKOUT_COLUMNS)}`
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
      const rows = yield* sql<{ id: string; link_id: string }>`
        select i.id, i.link_id from intentos_pago i join links l on l.id = i.link_id
        where i.estado in ('ENVIANDO', 'ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')
          and l.estado in ('cobrando', 'procesando', 'revision')
        order by i.created_at limit 100`
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
