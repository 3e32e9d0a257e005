/**
 * Collect with a one-time code (SPEC "Collect: request the code", "Collect: execute").
 *
 * `/cobrar/token` creates the operation under its idempotency key and asks the payer's bank
 * for the code; `/cobrar` with the same key takes the operation from `codigo` to `enviando`
 * with one conditional update, so of any number of concurrent repeats exactly one debits; the
 * others wait for its answer and return it. `/cobrar` with a key never seen is a collection
 * whose code the partner captured in-band: it is checked as a code request would be (caps,
 * close) and debited at once.
 */
import type { Caller } from "@switch/api"
import { Direct } from "@switch/api"
import { BankCalendar, Caps, Money, type Ports } from "@switch/core"
import { Effect, Option } from "effect"
import { Settings } from "../Config.js"
import {
  bankFor,
  decodeBody,
  keyConflict,
  merchantOf,
  now,
  party,
  requireActive,
  requireOwn,
  storedParty
} from "./Common.js"
import { capRefusal, chargeRefusal, closedFor, limitsAt } from "./Limits.js"
import * as Store from "./Store.js"

/** The original result of an operation found under the key, unless the key is another's (`409`). */
const replay = (caller: Caller, row: Store.OpRow) =>
  Option.match(keyConflict(caller, row, "cobro"), {
    onSome: Effect.fail,
    onNone: () => Effect.map(Store.awaitSettled(row), (settled) => ({ row: settled, replay: true }))
  })

const rejectWithout = (motivo: Ports.BankAnswer["motivo_rechazo"]): Ports.BankAnswer => ({
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: motivo
})

/** `503 tasa_no_disponible`: a dollar limit in force and no usable BCV rate (platform/Limits.ts). */
const noRate = () =>
  Effect.fail(
    new Direct.RateUnavailable({ error: "tasa_no_disponible", motivo: Caps.MOTIVO_TASA_NO_DISPONIBLE })
  )

/** Refusals that stop a code request: the banks' close (live) and a receive cap. */
const codeGate = (
  caller: Caller,
  monto: Money.Cents,
  at: Date,
  cobrador: Direct.CobrarTokenBody["cobrador"]
) =>
  Effect.gen(function* () {
    const merchant = yield* merchantOf(caller)
    yield* requireActive(merchant)
    yield* requireOwn(caller, merchant, "cobrador", cobrador)
    const closed = closedFor(yield* Settings, caller.mode, at)
    if (Option.isSome(closed))
      return yield* Effect.fail(
        new Direct.BankClosed({
          error: "cierre_bancario",
          motivo: BankCalendar.MOTIVO_CIERRE,
          reintentar_en: closed.value
        })
      )
    const cap = yield* capRefusal(merchant, caller.mode, monto, at).pipe(
      Effect.catchTag("RateUnavailable", noRate)
    )
    if (Option.isSome(cap)) return yield* Effect.fail(new Direct.CapExceeded(cap.value))
    return merchant
  })

const detalleOf = (body: Direct.CobrarTokenBody) => ({
  canal: body.canal ?? "boton_pago",
  origen_ip: body.origen_ip ?? null,
  banco_preferido: body.banco_preferido ?? null,
  telefono_pagador: body.telefono_pagador ?? null,
  cobrador: body.cobrador,
  pagador: body.pagador
})

/** `POST /cobrar/token`. */
export const requestCode = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const body = yield* decodeBody(Direct.CobrarTokenBody)(raw)
    const existing = yield* Store.findByKey(caller.comercioId, body.idempotency_key)
    if (Option.isSome(existing)) return yield* replay(caller, existing.value)
    const at = yield* now
    const monto = body.monto.valor
    const merchant = yield* codeGate(caller, monto, at, body.cobrador)
    const base = {
      caller,
      operacion: "cobro" as const,
      idempotencyKey: body.idempotency_key,
      monto,
      concepto: body.concepto,
      detalle: detalleOf(body),
      at
    }
    const limit = yield* chargeRefusal(merchant, caller.mode, monto, at).pipe(
      Effect.catchTag("RateUnavailable", noRate)
    )
    if (Option.isSome(limit)) {
      // Refused by the merchant's per-charge limits: no code. Recorded with its notice, as a
      // bank's rejection is, so a repeat answers the same.
      const refused = yield* Store.insertRejected(
        { ...base, fase: "enviada", operacionBanco: null },
        limit.value
      )
      if (Option.isNone(refused)) return yield* retryExisting(caller, body.idempotency_key)
      return { row: refused.value, replay: false }
    }
    const inserted = yield* Store.insertNew({
      ...base,
      estado: "DESCONOCIDA",
      fase: "pidiendo_codigo",
      operacionBanco: null
    })
    if (Option.isNone(inserted)) return yield* retryExisting(caller, body.idempotency_key)
    const row = inserted.value
    const bank = yield* bankFor(caller.mode)
    const answer = yield* bank.requestCode({
      operacionId: `${row.id}:codigo`,
      monto,
      concepto: body.concepto,
      cobrador: party(body.cobrador),
      pagador: party(body.pagador)
    })
    const settled = yield* Store.apply(
      row,
      answer,
      yield* now,
      answer.estado === "RECHAZADA" ? "enviada" : "codigo"
    )
    return { row: settled, replay: false }
  })

/** Lost an insert race: the winner's operation is the answer. */
const retryExisting = (caller: Caller, key: string) =>
  Effect.gen(function* () {
    const row = yield* Store.findByKey(caller.comercioId, key)
    if (Option.isNone(row)) return yield* Effect.dieMessage("idempotency conflict without a row")
    return yield* replay(caller, row.value)
  })

/** The debit of a claimed operation, after the per-charge limits of this moment. */
const debit = (caller: Caller, row: Store.OpRow, otp: string) =>
  Effect.gen(function* () {
    const at = yield* now
    const merchant = yield* merchantOf(caller)
    // The rate was checked before the claim; one gone stale since refuses without debiting.
    const limit = yield* chargeRefusal(merchant, caller.mode, Money.Cents(row.monto), at, row.id).pipe(
      Effect.catchTag("RateUnavailable", () => Effect.succeed(Option.some("RECHAZO_TECNICO" as const)))
    )
    if (Option.isSome(limit)) return yield* Store.apply(row, rejectWithout(limit.value), at)
    const bank = yield* bankFor(caller.mode)
    const answer = yield* bank.debit({
      operacionId: row.operacion_banco ?? `${row.id}:debito`,
      monto: Money.Cents(row.monto),
      concepto: row.concepto ?? "",
      otp,
      cobrador: storedParty(row, "cobrador"),
      pagador: storedParty(row, "pagador")
    })
    return yield* Store.apply(row, answer, yield* now)
  })

/** `POST /cobrar`. */
export const collect = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const body = yield* decodeBody(Direct.CobrarBody)(raw)
    const existing = yield* Store.findByKey(caller.comercioId, body.idempotency_key)
    if (Option.isSome(existing)) {
      const row = existing.value
      const conflict = keyConflict(caller, row, "cobro")
      if (Option.isSome(conflict)) return yield* Effect.fail(conflict.value)
      // A code already requested is not stopped by the caps (SPEC): only the first /cobrar debits.
      if (row.fase === "codigo" && (row.estado === "ACEPTADA" || row.estado === "DESCONOCIDA")) {
        // Dollar limits still apply to the debit: without a usable rate nothing is claimed.
        yield* limitsAt(yield* merchantOf(caller), caller.mode, yield* now).pipe(
          Effect.catchTag("RateUnavailable", noRate)
        )
        const claimed = yield* Store.claim(row, "codigo", `${row.id}:debito`, yield* now)
        if (Option.isSome(claimed))
          return { row: yield* debit(caller, claimed.value, body.otp), replay: false }
        // Another request claimed it between our read and our claim: wait for its answer.
        return yield* replay(
          caller,
          Option.getOrElse(yield* Store.findById(row.id), () => row)
        )
      }
      return yield* replay(caller, row)
    }
    const at = yield* now
    yield* codeGate(caller, body.monto.valor, at, body.cobrador)
    const id = crypto.randomUUID()
    const inserted = yield* Store.insertNew({
      id,
      caller,
      operacion: "cobro",
      idempotencyKey: body.idempotency_key,
      monto: body.monto.valor,
      concepto: body.concepto,
      detalle: detalleOf(body),
      estado: "DESCONOCIDA",
      fase: "enviando",
      operacionBanco: `${id}:debito`,
      at
    })
    if (Option.isNone(inserted)) return yield* retryExisting(caller, body.idempotency_key)
    return { row: yield* debit(caller, inserted.value, body.otp), replay: false }
  })
