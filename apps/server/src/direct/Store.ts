/**
 * Direct-API operations in `transacciones`: reading them, creating one per idempotency key,
 * claiming the right to talk to the bank, and recording what the bank said with its notices in
 * one transaction. Every move goes through @switch/core's `Operation.move` and is a
 * conditional update on the state it moves from, so two observers of the same bank answer
 * (a `/consultar` and the reconciler, two processes) record it, and notify it, once.
 *
 * `fase` is where the operation stands in our own steps:
 * `pidiendo_codigo` → `codigo` (a collection's code was requested; `/cobrar` may debit) →
 * `enviando` (an order is at the bank right now) → `enviada` (the bank's answer is recorded).
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Caller, Mode } from "@switch/api"
import { Money, Operation, type Ports, type Resultado } from "@switch/core"
import { Duration, Effect, Either, Option } from "effect"
import { Settings } from "../Config.js"
import * as Outbox from "../platform/Outbox.js"

export type Fase = "pidiendo_codigo" | "codigo" | "enviando" | "enviada"

export interface OpRow {
  readonly id: string
  readonly comercio_id: string
  readonly mode: Mode
  readonly operacion: Operation.Operacion | "liquidacion"
  readonly estado: Operation.OperationState
  readonly link_id: string | null
  readonly monto: number
  readonly propina: number
  readonly moneda: string
  readonly concepto: string | null
  readonly referencia_banco: string | null
  readonly endtoend: string | null
  readonly motivo_rechazo: Resultado.MotivoRechazo | null
  readonly intentos: number
  readonly idempotency_key: string | null
  readonly detalle: Record<string, unknown> | null
  readonly operacion_banco: string | null
  readonly fase: Fase | null
  readonly original_id: string | null
  readonly retry_nonce: string | null
  readonly desconocida_desde: Date | null
  /** Unresolved after the abandon window while the bank could not be asked: a person decides. */
  readonly revision_desde: Date | null
  readonly proxima_consulta: Date | null
  readonly consultas: number
  readonly updated_at: Date
  readonly created_at: Date
}

/** SPEC's result object: exactly these fields, never `banco_usado` or `raw`. */
export const resultado = (row: OpRow): Resultado.Resultado => ({
  id: row.id,
  estado: row.estado,
  referencia_banco: row.referencia_banco,
  endtoend: row.endtoend,
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null,
  intentos: row.intentos
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Direct-API keys are UUIDs: one key in upper or lower case is the same operation. */
export const findByKey = (comercioId: string, key: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<OpRow>`
      select * from transacciones where comercio_id = ${comercioId} and idempotency_key = ${key.toLowerCase()}`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

/** The caller's operation by id: another merchant's or mode's is none (a `404`). */
export const findForCaller = (caller: Caller, id: string) =>
  Effect.gen(function* () {
    if (!UUID.test(id)) return Option.none<OpRow>()
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<OpRow>`
      select * from transacciones where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

export const findById = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<OpRow>`select * from transacciones where id = ${id}`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

export interface NewOp {
  readonly id?: string
  readonly caller: Caller
  readonly operacion: Operation.Operacion
  readonly idempotencyKey: string | null
  readonly monto: Money.Cents
  readonly concepto: string | null
  readonly detalle: Record<string, unknown>
  readonly estado: Operation.OperationState
  readonly motivo?: Resultado.MotivoRechazo | null
  readonly fase: Fase
  readonly operacionBanco: string | null
  readonly originalId?: string | null
  readonly retryNonce?: string | null
  readonly intentos?: number
  readonly at: Date
}

/** Inserts the operation unless its idempotency key (or refund nonce) already has one: none then. */
export const insertNew = (op: NewOp) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const id = op.id ?? randomUUID()
    const rows = yield* sql<OpRow>`
      insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, concepto, motivo_rechazo,
        intentos, idempotency_key, detalle, operacion_banco, fase, original_id, retry_nonce, desconocida_desde,
        proxima_consulta, created_at, updated_at)
      values (${id}, ${op.caller.comercioId}, ${op.caller.mode}, ${op.operacion}, ${op.estado}, ${op.monto}, 'VES',
        ${op.concepto}, ${op.motivo ?? null}, ${op.intentos ?? 1}, ${op.idempotencyKey?.toLowerCase() ?? null}, ${sql.json(op.detalle)},
        ${op.operacionBanco}, ${op.fase}, ${op.originalId ?? null}, ${op.retryNonce ?? null},
        ${op.estado === "DESCONOCIDA" ? op.at : null}, ${op.fase === "enviando" ? yield* staleAfter(op.at) : null},
        ${op.at}, ${op.at})
      on conflict do nothing
      returning *`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

/**
 * When an operation still `enviando` is presumed abandoned (its process stopped mid-call) and
 * the reconciler asks the bank about it: well after any bank call, retries included, ends.
 */
export const staleAfter = (at: Date) =>
  Effect.map(Settings, (s) => new Date(at.getTime() + s.bankTimeoutMs * 3 + 5_000))

/** Takes the operation from `from` to `enviando` if it is still there: only one request talks to the bank. */
export const claim = (row: OpRow, from: Fase, operacionBanco: string, at: Date) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<OpRow>`
      update transacciones set fase = 'enviando', estado = 'DESCONOCIDA', operacion_banco = ${operacionBanco},
        desconocida_desde = ${at}, proxima_consulta = ${yield* staleAfter(at)}, updated_at = ${at}
      where id = ${row.id} and fase = ${from} and estado = ${row.estado}
      returning *`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

/** Moves to the next attempt (a re-route) while still `enviando`. */
export const nextAttempt = (row: OpRow, operacionBanco: string, at: Date) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<OpRow>`
      update transacciones set operacion_banco = ${operacionBanco}, intentos = intentos + 1, updated_at = ${at}
      where id = ${row.id} and fase = 'enviando' returning *`
    return rows[0] ?? row
  }).pipe(Effect.orDie)

const money = (cents: number) => Money.toNumber(Money.Cents(cents))

/** `transaccion.*` notice data; `aprobada` carries `estado` LIQUIDADA (SPEC "Events"). */
const noticeData = (row: OpRow, notice: Operation.OperationNotice) => ({
  id: row.id,
  operacion: notice.operacion,
  estado: notice.estado,
  monto: money(row.monto),
  moneda: row.moneda,
  concepto: row.concepto,
  referencia_banco: row.referencia_banco,
  endtoend: row.endtoend,
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null,
  intentos: row.intentos,
  ...(row.original_id === null ? {} : { original_id: row.original_id }),
  mode: row.mode
})

const noticeOperacion = (row: OpRow): Operation.Operacion =>
  row.operacion === "liquidacion" ? "pago" : row.operacion

/**
 * `link.devuelto` for a portal refund just paid: `monto` this refund, `monto_devuelto` every paid
 * refund of the charge so far (this one included: it runs in the transaction that marked it).
 */
const linkDevuelto = (row: OpRow, at: Date) =>
  Effect.gen(function* () {
    const linkId = row.detalle?.link_id
    if (row.operacion !== "devolucion" || row.detalle?.origen !== "panel" || typeof linkId !== "string")
      return
    const sql = yield* PgClient.PgClient
    const [sum] = yield* sql<{ total: string }>`
      select coalesce(sum(monto), 0)::text as total from transacciones
      where original_id = ${row.original_id} and operacion = 'devolucion' and estado = 'LIQUIDADA'`
    yield* Outbox.write({
      comercioId: row.comercio_id,
      mode: row.mode,
      evento: "link.devuelto",
      data: {
        link_id: linkId,
        monto: money(row.monto),
        monto_devuelto: money(Number(sum?.total ?? 0)),
        mode: row.mode
      },
      dedupe: `link.devuelto:${row.id}`,
      at
    })
  })

/**
 * Applies a bank answer (or our own decision) to the operation, if it is still in the state it
 * was read in. A `DESCONOCIDA` answer changes nothing but the schedule. Not final → the
 * reconciler asks again after `conciliarSegundos`; `fase` becomes `fase` (default `enviada`).
 */
export const apply = (row: OpRow, answer: Ports.BankAnswer, at: Date, fase: Fase = "enviada") =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    // "No answer" from a query tells nothing: the operation keeps the state it had.
    const target = answer.estado === "DESCONOCIDA" ? row.estado : answer.estado
    const moved = Operation.move(row.estado, target, noticeOperacion(row))
    if (Either.isLeft(moved)) return row
    const estado = moved.right.estado
    const final = Operation.isFinal(estado)
    // A code request is not reconciled: the debit that follows, or not, tells the story.
    const proxima =
      final || fase !== "enviada"
        ? null
        : new Date(at.getTime() + Duration.toMillis(Duration.seconds(settings.conciliarSegundos)))
    const write = Effect.gen(function* () {
      const rows = yield* sql<OpRow>`
        update transacciones set estado = ${estado}, fase = ${fase},
          referencia_banco = coalesce(${answer.referencia_banco}, referencia_banco),
          endtoend = coalesce(${answer.endtoend}, endtoend),
          motivo_rechazo = ${estado === "RECHAZADA" ? (answer.motivo_rechazo ?? "DESCONOCIDO") : null},
          liquidada_at = ${estado === "LIQUIDADA" ? at : null},
          desconocida_desde = ${estado === "DESCONOCIDA" ? (row.desconocida_desde ?? at) : null},
          proxima_consulta = ${proxima}, updated_at = ${at}
        where id = ${row.id} and estado = ${row.estado}
        returning *`
      const updated = rows[0]
      if (updated === undefined) return Option.none<OpRow>()
      for (const notice of moved.right.notices) {
        yield* Outbox.write({
          comercioId: updated.comercio_id,
          mode: updated.mode,
          evento: notice.evento,
          data: noticeData(updated, notice),
          dedupe: `${notice.evento}:${updated.id}`,
          at
        })
      }
      // A refund from the portal that reached the payer: `link.devuelto`, once (issue 33).
      if (updated.estado === "LIQUIDADA" && row.estado !== "LIQUIDADA") yield* linkDevuelto(updated, at)
      return Option.some(updated)
    })
    const written = yield* sql.withTransaction(write)
    if (Option.isSome(written)) return written.value
    // Someone else moved it first: theirs is the record.
    return Option.getOrElse(yield* findById(row.id), () => row)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/**
 * Inserts an operation our own rules rejected before any bank call (a per-charge limit), as
 * `RECHAZADA` with `motivo` and its `transaccion.rechazada` notice, both or neither: it enters
 * as `DESCONOCIDA` and {@link apply} moves it, in one transaction. None when the key (or
 * nonce) already has an operation.
 */
export const insertRejected = (op: Omit<NewOp, "estado" | "motivo">, motivo: Resultado.MotivoRechazo) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rejected = Effect.gen(function* () {
      const row = yield* insertNew({ ...op, estado: "DESCONOCIDA" })
      if (Option.isNone(row)) return row
      const answer = {
        estado: "RECHAZADA",
        referencia_banco: null,
        endtoend: null,
        motivo_rechazo: motivo
      } as const
      return Option.some(yield* apply(row.value, answer, op.at, op.fase))
    })
    return yield* sql.withTransaction(rejected)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** Waits while another request is talking to the bank about this operation, then reads it. */
export const awaitSettled = (row: OpRow) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const deadline = Date.now() + settings.bankTimeoutMs * 3 + 3_000
    let current = row
    while ((current.fase === "enviando" || current.fase === "pidiendo_codigo") && Date.now() < deadline) {
      yield* Effect.sleep(Duration.millis(50))
      current = Option.getOrElse(yield* findById(row.id), () => current)
    }
    return current
  })

/** Whether the operation is waiting on the bank and a query may tell more. */
export const queryable = (row: OpRow, at: Date): boolean =>
  !Operation.isFinal(row.estado) &&
  row.operacion_banco !== null &&
  (row.fase === "enviada" ||
    (row.fase === "enviando" && row.proxima_consulta !== null && row.proxima_consulta <= at))
