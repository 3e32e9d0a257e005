/**
 * Pay out (SPEC "Pay (payout)") and disbursements: only for merchants the service enabled
 * (`403 pagar_no_habilitado`). To an account the rail is always `credito_inmediato`.
 *
 * A credit the bank provably did not process (`RECHAZADA BANCO_NO_DISPONIBLE`: the adapter
 * says so only when nothing reached the bank, or the bank said it did not process it) is
 * re-routed through the next bank with a new bank operation id, up to {@link RUTAS}; any other
 * answer, including no answer, is final for this request and only ever queried afterwards.
 */
import type { Caller } from "@switch/api"
import { Direct, Forbidden } from "@switch/api"
import type { Money, Resultado } from "@switch/core"
import { Effect, Option } from "effect"
import type { RoutedCreditOrder } from "../platform/bank/HttpBank.js"
import {
  bankFor,
  decodeBody,
  keyConflict,
  merchantOf,
  now,
  requireActive,
  requireOwn,
  storedParty
} from "./Common.js"
import * as Store from "./Store.js"

/** Banks a payout may be routed through, after the partner's `banco_preferido`. */
export const RUTAS = ["0102", "0134", "0105"]
const MAX_INTENTOS = 3

const notEnabled = new Forbidden({
  error: "pagar_no_habilitado",
  detail: "Los pagos y dispersiones requieren habilitación del servicio."
})
/** The merchant, if the service enabled it to pay out. */
export const ensureEnabled = (caller: Caller) =>
  Effect.flatMap(merchantOf(caller), (m) =>
    m.pagar_habilitado ? Effect.succeed(m) : Effect.fail(notEnabled)
  )

/** A payout's earlier result under its key, unless the key is another's (`409`). */
const earlier = (caller: Caller, row: Store.OpRow) =>
  Option.match(keyConflict(caller, row, "pago"), {
    onSome: Effect.fail,
    onNone: () => Store.awaitSettled(row)
  })

interface Payout {
  readonly key: string
  readonly monto: Money.Cents
  readonly concepto: string
  readonly ordenante: Direct.PagarBody["ordenante"]
  readonly beneficiario: Direct.PagarBody["beneficiario"]
  readonly via: "credito_inmediato" | "pago_movil" | undefined
  readonly proposito: string | undefined
  readonly canal: string | undefined
  readonly origen_ip: string | undefined
  readonly banco_preferido: string | undefined
}

const routesFor = (row: Store.OpRow): ReadonlyArray<string> => {
  const preferred = row.detalle?.banco_preferido
  return [...new Set([...(typeof preferred === "string" ? [preferred] : []), ...RUTAS])]
}

/** Sends the credit of a claimed operation, re-routing only what provably did not happen. */
const send = (caller: Caller, claimed: Store.OpRow) =>
  Effect.gen(function* () {
    const bank = yield* bankFor(caller.mode)
    const routes = routesFor(claimed)
    let row = claimed
    for (let attempt = 1; ; attempt++) {
      const order: RoutedCreditOrder = {
        operacionId: row.operacion_banco ?? `${row.id}:${attempt}`,
        monto: row.monto as Money.Cents,
        concepto: row.concepto ?? "",
        ordenante: storedParty(row, "ordenante"),
        beneficiario: storedParty(row, "beneficiario"),
        via: row.detalle?.via === "pago_movil" ? "pago_movil" : "credito_inmediato",
        bancoRuta: routes[(attempt - 1) % routes.length]
      }
      const answer = yield* bank.credit(order)
      const reroute =
        answer.estado === "RECHAZADA" &&
        answer.motivo_rechazo === "BANCO_NO_DISPONIBLE" &&
        attempt < MAX_INTENTOS
      if (!reroute) return yield* Store.apply(row, answer, yield* now)
      row = yield* Store.nextAttempt(row, `${row.id}:${attempt + 1}`, yield* now)
    }
  })

/** One payout under its idempotency key: created and sent once, else the original result. */
export const payout = (caller: Caller, p: Payout) =>
  Effect.gen(function* () {
    const existing = yield* Store.findByKey(caller.comercioId, p.key)
    if (Option.isSome(existing)) return yield* earlier(caller, existing.value)
    // A suspended merchant still gets its earlier results back, but starts no new payout.
    yield* requireActive(yield* merchantOf(caller))
    const id = crypto.randomUUID()
    // To an account the rail is always crédito inmediato, whatever was asked.
    const via = p.beneficiario.tipo === "cuenta" ? "credito_inmediato" : (p.via ?? "credito_inmediato")
    const inserted = yield* Store.insertNew({
      id,
      caller,
      operacion: "pago",
      idempotencyKey: p.key,
      monto: p.monto,
      concepto: p.concepto,
      detalle: {
        via,
        proposito: p.proposito ?? "transferencia",
        canal: p.canal ?? "boton_pago",
        origen_ip: p.origen_ip ?? null,
        banco_preferido: p.banco_preferido ?? null,
        ordenante: p.ordenante,
        beneficiario: p.beneficiario
      },
      estado: "DESCONOCIDA",
      fase: "enviando",
      operacionBanco: `${id}:1`,
      at: yield* now
    })
    if (Option.isNone(inserted)) {
      const winner = yield* Store.findByKey(caller.comercioId, p.key)
      if (Option.isNone(winner)) return yield* Effect.dieMessage("idempotency conflict without a row")
      return yield* earlier(caller, winner.value)
    }
    return yield* send(caller, inserted.value)
  })

/** `POST /pagar`. */
export const pagar = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const merchant = yield* ensureEnabled(caller)
    const body = yield* decodeBody(Direct.PagarBody)(raw)
    yield* requireOwn(caller, merchant, "ordenante", body.ordenante)
    return yield* payout(caller, {
      key: body.idempotency_key,
      monto: body.monto.valor,
      concepto: body.concepto,
      ordenante: body.ordenante,
      beneficiario: body.beneficiario,
      via: body.via,
      proposito: body.proposito,
      canal: body.canal,
      origen_ip: body.origen_ip,
      banco_preferido: body.banco_preferido
    })
  })

/** `POST /dispersiones`: each payment is its own operation, keyed `<idempotency_key>:<n>`. */
export const dispersar = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const merchant = yield* ensureEnabled(caller)
    const body = yield* decodeBody(Direct.DispersionesBody)(raw)
    yield* requireOwn(caller, merchant, "ordenante", body.ordenante)
    const rows = yield* Effect.forEach(
      body.pagos,
      (item, n) =>
        payout(caller, {
          key: `${body.idempotency_key}:${n}`,
          monto: item.monto.valor,
          concepto: item.concepto ?? body.concepto,
          ordenante: body.ordenante,
          beneficiario: item.beneficiario,
          via: item.via,
          proposito: item.proposito,
          canal: body.canal,
          origen_ip: body.origen_ip,
          banco_preferido: body.banco_preferido
        }),
      { concurrency: 4 }
    )
    const result: { idempotency_key: string; resultados: ReadonlyArray<Resultado.Resultado> } = {
      idempotency_key: body.idempotency_key,
      resultados: rows.map(Store.resultado)
    }
    return result
  })
