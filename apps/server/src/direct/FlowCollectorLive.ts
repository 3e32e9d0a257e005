/**
 * The direct API's side of the Flows port (`platform/FlowCollector.ts`): the Flows endpoint
 * collects through the direct API's own steps (`/cobrar/token` and `/cobrar`), so a WhatsApp
 * payment has the same idempotency, caps, limits, records and notices as any direct
 * collection, under the binding's merchant and mode.
 */
import { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { type Caller, Direct } from "@switch/api"
import { Money } from "@switch/core"
import { Effect, Layer } from "effect"
import type { Settings } from "../Config.js"
import type { Banks } from "../platform/bank/Banks.js"
import { type CollectOrder, FlowCollector, type Refused } from "../platform/FlowCollector.js"
import { collect, requestCode } from "./Cobros.js"
import { resultado } from "./Store.js"

const refusal = (error: unknown): Refused => {
  if (error instanceof Direct.CapExceeded)
    return { _tag: "Refused", error: error.error, motivo: error.motivo }
  if (error instanceof Direct.BankClosed) return { _tag: "Refused", error: error.error, motivo: error.motivo }
  if (error instanceof Direct.DirectConflict) {
    return { _tag: "Refused", error: error.error, motivo: "Esta orden ya se usó en otro modo." }
  }
  return {
    _tag: "Refused",
    error: "no_procesado",
    motivo: "No pudimos procesar el pago. Revisa tus datos e intenta de nuevo."
  }
}

const body = (order: CollectOrder, otp?: string) => ({
  idempotency_key: order.idempotencyKey,
  monto: { valor: Money.toNumber(order.monto), moneda: "VES" },
  concepto: order.concepto.slice(0, 120),
  canal: "whatsapp",
  cobrador: order.cobrador,
  pagador: order.pagador,
  telefono_pagador: order.telefonoPagador,
  ...(otp === undefined ? {} : { otp })
})

export const FlowCollectorLive = Layer.effect(
  FlowCollector,
  Effect.gen(function* () {
    const context = yield* Effect.context<PgClient.PgClient | SqlClient.SqlClient | Settings | Banks>()
    const sql = yield* SqlClient.SqlClient
    const callerOf = (order: CollectOrder) =>
      Effect.map(
        sql<{ codigo: string }>`select codigo from comercios where id = ${order.comercioId}`,
        (rows): Caller => ({
          comercioId: order.comercioId,
          codigo: rows[0]?.codigo ?? "",
          mode: order.mode,
          llaveId: "flow"
        })
      )
    const run = <E>(
      order: CollectOrder,
      step: (
        caller: Caller,
        raw: unknown
      ) => Effect.Effect<{ readonly row: Parameters<typeof resultado>[0] }, E, never>,
      otp?: string
    ) =>
      Effect.flatMap(callerOf(order), (caller) => step(caller, body(order, otp))).pipe(
        Effect.map(({ row }) => ({ _tag: "Answered" as const, resultado: resultado(row) })),
        Effect.catchAll((error) => Effect.succeed(refusal(error))),
        Effect.orDie
      )
    return {
      requestCode: (order) => run(order, (c, raw) => requestCode(c, raw).pipe(Effect.provide(context))),
      collect: (order) => run(order, (c, raw) => collect(c, raw).pipe(Effect.provide(context)), order.otp)
    }
  })
)
