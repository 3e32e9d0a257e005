/**
 * Refunds (`POST /reintegro`) and reversals (`POST /reverso`) of a collection.
 *
 * A refund is keyed by the charge and its `retry_nonce` (none on the first attempt): repeating
 * a request returns that attempt's result. A new nonce sends a new attempt only when every
 * earlier one was rejected by the bank without moving money; otherwise SPEC's `409`s say why:
 * running (`reintegro_en_curso`), paid (`reintegro_ya_pagado`), unclear
 * (`reintegro_intento_ambiguo`), nothing to retry (`reintegro_sin_intento_previo`). The charge
 * itself must be confirmed by the bank at that moment (`cobro_no_confirmado_banco`), must not
 * have been settled to the merchant (`cobro_ya_liquidado_al_comercio`) nor split
 * (`cobro_con_split_repartido`; a split not yet paying stops and goes to review in the return's
 * transaction, RepartoDetenido.ts). Live merchant keys get `403 reintegro_no_habilitado`.
 *
 * A charge's money goes back at most once, by refund or by reversal: a new attempt of either is
 * inserted under a lock on the charge, and only while no earlier one of either kind is running,
 * paid or unclear (the same `409`s; a reversal answers them too).
 */
import { PgClient } from "@effect/sql-pg"
import { type Caller, Direct, Forbidden, NotFound } from "@switch/api"
import { Fees, Money, type Resultado } from "@switch/core"
import { Effect, Option } from "effect"
import * as LinksRepo from "../platform/LinksRepo.js"
import { bankFor, decodeBody, keyConflict, now } from "./Common.js"
import { refresh } from "./Consultas.js"
import * as RepartoDetenido from "./RepartoDetenido.js"
import * as Store from "./Store.js"

const conflict = (error: typeof Direct.DirectConflictCode.Type, detail: string) =>
  Effect.fail(new Direct.DirectConflict({ error, detail }))

/** Bank answers after which nobody can say whether money moved. */
const TECNICOS: ReadonlyArray<Resultado.MotivoRechazo> = ["RECHAZO_TECNICO", "DESCONOCIDO", "PENDIENTE_BCV"]

const ambiguous = (row: Store.OpRow) =>
  row.estado === "DESCONOCIDA" ||
  row.estado === "PENDIENTE" ||
  row.estado === "ACEPTADA" ||
  row.estado === "ERROR" ||
  (row.estado === "RECHAZADA" && row.motivo_rechazo !== null && TECNICOS.includes(row.motivo_rechazo))

/** The charge, confirmed by the bank now (queried if still waiting). */
const confirmedCharge = (caller: Caller, id: string) =>
  Effect.gen(function* () {
    const found = yield* Store.findForCaller(caller, id)
    if (Option.isNone(found) || found.value.operacion !== "cobro")
      return yield* Effect.fail(new NotFound({ detail: "El cobro no existe." }))
    const charge = yield* refresh(found.value)
    if (charge.estado !== "LIQUIDADA")
      return yield* conflict(
        "cobro_no_confirmado_banco",
        `El banco no ha confirmado el cobro (estado ${charge.estado}); consulte y reintente cuando esté LIQUIDADA.`
      )
    return charge
  })

/** A link payment already settled to the merchant, or whose split paid someone, cannot be refunded here. */
export const linkChecks = (charge: Store.OpRow) =>
  Effect.gen(function* () {
    if (charge.link_id === null) return
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<{ liquidado: boolean; repartido: boolean }>`
      select
        exists (select 1 from transacciones where link_id = ${charge.link_id} and operacion = 'liquidacion') as liquidado,
        ${LinksRepo.splitPaidOut(sql, charge.link_id)} as repartido`
    const r = rows[0]
    if (r?.repartido)
      return yield* conflict(
        "cobro_con_split_repartido",
        "El reparto de este cobro ya pagó (o está pagando) a un beneficiario."
      )
    if (r?.liquidado)
      return yield* conflict(
        "cobro_ya_liquidado_al_comercio",
        "La liquidación inmediata de este cobro ya está en curso, hecha o en revisión."
      )
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** The charge's refund attempts and reversals, oldest first. */
export const returnsOf = (chargeId: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    return yield* sql<Store.OpRow>`
      select * from transacciones where original_id = ${chargeId} and operacion in ('devolucion', 'reverso')
      order by created_at, intentos`
  }).pipe(Effect.orDie)

/** Why an earlier return of the charge (refund or reversal) forbids another, if it does. */
const blockedBy = (earlier: ReadonlyArray<Store.OpRow>) => {
  if (earlier.some((a) => a.fase === "enviando"))
    return conflict("reintegro_en_curso", "Un intento de devolver este cobro está en curso.")
  if (earlier.some((a) => a.estado === "LIQUIDADA"))
    return conflict(
      "reintegro_ya_pagado",
      "Un reintegro o reverso anterior ya devolvió el dinero de este cobro."
    )
  if (earlier.some(ambiguous))
    return conflict(
      "reintegro_intento_ambiguo",
      "El resultado de un reintegro o reverso anterior no es claro; consulte antes de reintentar."
    )
  return undefined
}

/**
 * Inserts a return of the charge (`op`) unless an earlier one forbids it, under a lock on the
 * charge's row, so that two returns (refunds, reversals or one of each) racing for one charge
 * are decided one after the other and at most one can move money. None when `op` itself
 * conflicted (the same refund attempt sent twice at once).
 */
const insertReturn = (charge: Store.OpRow, op: Store.NewOp & { readonly id: string }) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // A link's row first (its split's lock, as the console's "pagar" takes it), then the charge.
        if (charge.link_id !== null) yield* sql`select id from links where id = ${charge.link_id} for update`
        yield* sql`select id from transacciones where id = ${charge.id} for update`
        const blocked = blockedBy(yield* returnsOf(charge.id))
        if (blocked !== undefined) return yield* blocked
        const inserted = yield* Store.insertNew(op)
        // A split not yet paying stops and goes to review with this return; one paying is 409
        // (and the return's row goes with the transaction).
        if (Option.isSome(inserted)) yield* RepartoDetenido.detener(charge.link_id, op.id)
        return inserted
      })
    )
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** `POST /reintegro`. */
export const reintegro = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    if (caller.mode === "live")
      return yield* Effect.fail(
        new Forbidden({
          error: "reintegro_no_habilitado",
          detail: "Los reintegros no están habilitados con llaves live."
        })
      )
    const body = yield* decodeBody(Direct.ReintegroBody)(raw)
    const nonce = body.retry_nonce ?? null
    const found = yield* Store.findForCaller(caller, body.id)
    if (Option.isNone(found) || found.value.operacion !== "cobro")
      return yield* Effect.fail(new NotFound({ detail: "El cobro no existe." }))
    // Earlier returns first, refreshed from the bank: a repeat returns its own attempt.
    const returns = yield* Effect.forEach(yield* returnsOf(body.id), refresh)
    const attempts = returns.filter((a) => a.operacion === "devolucion")
    const same = attempts.find((a) => a.retry_nonce === nonce)
    if (same !== undefined) {
      if (same.fase === "enviando")
        return yield* conflict("reintegro_en_curso", "Un intento de reintegro de este cobro está en curso.")
      return same
    }
    if (nonce !== null && attempts.length === 0)
      return yield* conflict(
        "reintegro_sin_intento_previo",
        "No hay un intento previo que reintentar; envíe sin retry_nonce."
      )
    // Decided again under the charge's lock when inserting; here it spares the bank a query.
    const blocked = blockedBy(returns)
    if (blocked !== undefined) return yield* blocked
    const charge = yield* confirmedCharge(caller, body.id)
    yield* linkChecks(charge)
    const cobrado = Fees.total(Money.Cents(charge.monto), Money.Cents(charge.propina))
    const monto = body.monto ?? cobrado
    if (monto > cobrado)
      return yield* Effect.fail(
        new Direct.DirectValidationError({
          detail: { fieldErrors: { monto: ["supera el monto del cobro"] } }
        })
      )
    const id = crypto.randomUUID()
    const inserted = yield* insertReturn(charge, {
      id,
      caller,
      operacion: "devolucion",
      idempotencyKey: null,
      monto,
      concepto: body.motivo ?? null,
      detalle: { motivo: body.motivo ?? null },
      estado: "DESCONOCIDA",
      fase: "enviando",
      operacionBanco: `${id}:1`,
      originalId: charge.id,
      retryNonce: nonce,
      intentos: attempts.length + 1,
      at: yield* now
    })
    if (Option.isNone(inserted))
      return yield* conflict("reintegro_en_curso", "Un intento de reintegro de este cobro está en curso.")
    const bank = yield* bankFor(caller.mode)
    const answer = yield* bank.refund({
      operacionId: `${id}:1`,
      originalId: charge.operacion_banco ?? charge.id,
      monto,
      motivo: body.motivo ?? "reintegro"
    })
    return yield* Store.apply(inserted.value, answer, yield* now)
  })

/** A reversal's earlier result under its key, unless the key is another's (`409`). */
const earlierReverso = (caller: Caller, row: Store.OpRow) =>
  Option.match(keyConflict(caller, row, "reverso"), {
    onSome: Effect.fail,
    onNone: () => Store.awaitSettled(row)
  })

/** `POST /reverso`: a same-day reversal of a confirmed collection; `NO_SOPORTADO` where the bank cannot. */
export const reverso = (caller: Caller, raw: unknown) =>
  Effect.gen(function* () {
    const body = yield* decodeBody(Direct.ReversoBody)(raw)
    const existing = yield* Store.findByKey(caller.comercioId, body.idempotency_key)
    if (Option.isSome(existing)) return yield* earlierReverso(caller, existing.value)
    const charge = yield* confirmedCharge(caller, body.id)
    yield* linkChecks(charge)
    // Earlier returns of the charge, refreshed from the bank, as a refund does.
    const blocked = blockedBy(yield* Effect.forEach(yield* returnsOf(charge.id), refresh))
    if (blocked !== undefined) return yield* blocked
    const id = crypto.randomUUID()
    const inserted = yield* insertReturn(charge, {
      id,
      caller,
      operacion: "reverso",
      idempotencyKey: body.idempotency_key,
      monto: Fees.total(Money.Cents(charge.monto), Money.Cents(charge.propina)),
      concepto: body.motivo ?? null,
      detalle: { motivo: body.motivo ?? null },
      estado: "DESCONOCIDA",
      fase: "enviando",
      operacionBanco: `${id}:1`,
      originalId: charge.id,
      at: yield* now
    })
    if (Option.isNone(inserted)) {
      const winner = yield* Store.findByKey(caller.comercioId, body.idempotency_key)
      if (Option.isNone(winner))
        return yield* conflict(
          "idempotency_key_en_uso",
          "Este idempotency_key ya se usó con una llave del otro modo."
        )
      return yield* earlierReverso(caller, winner.value)
    }
    const bank = yield* bankFor(caller.mode)
    const answer = yield* bank.reverse({
      operacionId: `${id}:1`,
      originalId: charge.operacion_banco ?? charge.id,
      monto: Money.Cents(inserted.value.monto),
      motivo: body.motivo ?? "reverso"
    })
    return yield* Store.apply(inserted.value, answer, yield* now)
  })
