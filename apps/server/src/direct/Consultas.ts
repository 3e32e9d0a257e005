/**
 * `POST /consultar` and the refresh every reader of an operation's state uses: an operation
 * still waiting on the bank is asked about by its bank operation id (never resent), and the
 * answer is recorded through Store.apply (ACEPTADA → LIQUIDADA emits its notices once).
 */
import { type Caller, Direct, NotFound } from "@switch/api"
import { Effect, Option } from "effect"
import { bankFor, decodeBody, now } from "./Common.js"
import * as Store from "./Store.js"

/** The operation with the bank's latest word on it, when it is still waiting on the bank. */
export const refresh = (row: Store.OpRow) =>
  Effect.gen(function* () {
    const at = yield* now
    if (!Store.queryable(row, at) || row.operacion_banco === null) return row
    const bank = yield* bankFor(row.mode)
    const answer = yield* bank.query(row.operacion_banco)
    return yield* Store.apply(row, answer, yield* now)
  })

/** `POST /consultar`: `404` for an unknown id or one of another merchant or mode. */
export const consultar = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const body = yield* decodeBody(Direct.ConsultarBody)(raw)
    const found = yield* Store.findForCaller(caller, body.id)
    if (Option.isNone(found)) return yield* Effect.fail(new NotFound({ detail: "La operación no existe." }))
    return yield* refresh(found.value)
  })
