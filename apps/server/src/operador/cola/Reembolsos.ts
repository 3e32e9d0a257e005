/**
 * Queue source: refunds from the portal (issue 33) the bank answered unclearly (`DESCONOCIDA`,
 * `ERROR`, `PENDIENTE`, `ACEPTADA` once sent, or `RECHAZADA` for a technical reason): never resent
 * (SPEC "Unknown outcome"), listed for a person until one resolves them. The reconciler keeps
 * asking the bank meanwhile; whatever it learns first is the record.
 *
 * The actions follow Directas.ts, `tesoreria` only, each in one transaction with its audit row
 * (before and after), conditionally on the state the refund was read in, so a second action on a
 * resolved refund is `409 no_en_revision`:
 *
 * - "consultar al banco ahora": asks the bank port about the refund's own order
 *   (`operacion_banco`), keeps the answer in the item's history and records a clear one;
 * - "marcar pagado" with the bank's reference: the refund is `LIQUIDADA`; `link.devuelto` with
 *   `monto` (this refund) and `monto_devuelto` (every paid refund of the charge) is written in the
 *   same transaction, once (the same dedupe as direct/Store.ts, so the reconciler never adds one);
 * - "cerrar sin pagar" with a note: no money moved. A refund still waiting becomes `RECHAZADA`
 *   (`BANCO_NO_DISPONIBLE`, not a technical reason); one the bank already rejected for a technical
 *   reason keeps its state and its review is closed (`revisiones_cerradas`). Either way the amount
 *   is refundable again (direct/Reembolsos.ts reads both as a refund that moved nothing).
 *
 * The refund's bank order is never sent again: no action here calls the bank's refund. Marking
 * paid and closing take four eyes from SWITCH_CUATRO_OJOS_DESDE (Cola.ts `manuales`).
 */
import { HttpRouter, type HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Money, Operation, type Ports } from "@switch/core"
import { Effect, Either, Schema } from "effect"
import { Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import { Banks } from "../../platform/bank/Banks.js"
import * as Outbox from "../../platform/Outbox.js"
import { OperadorError, OperadorService, type OperadorSession } from "../OperadorService.js"
import {
  bankView,
  type Contexto,
  cerrarRevision,
  type Fuente,
  guardarRespuesta,
  type Item,
  manuales,
  pagadaAMano,
  type Ruta,
  rechazadaAMano
} from "./Cola.js"

/** The audit rows' and closed reviews' `objeto_tipo`. */
export const TIPO = "reembolso"
/** The bank answers' key, as the queue lists them (the refund is a `transaccion`). */
const RESPUESTAS = "transaccion"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface ReembolsoRow {
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: Mode
  readonly monto: number
  readonly motivo: string | null
  readonly desde: Date
}

/** The queue's condition over `transacciones` (`t`): a portal refund waiting for a person. */
const enCola = (sql: SqlClient.SqlClient) => sql`
  t.operacion = 'devolucion' and t.detalle->>'origen' = 'panel' and t.fase = 'enviada'
    and (t.estado in ('DESCONOCIDA', 'ERROR', 'PENDIENTE', 'ACEPTADA')
      or (t.estado = 'RECHAZADA' and t.motivo_rechazo in ('RECHAZO_TECNICO', 'DESCONOCIDO', 'PENDIENTE_BCV')))
    and not exists (select 1 from revisiones_cerradas r where r.objeto_tipo = ${TIPO} and r.objeto_id = t.id::text)`

const listar: Fuente["listar"] = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<ReembolsoRow>`
    select t.id::text as id, t.detalle->>'link_id' as link_id, c.codigo as comercio, t.mode, t.monto,
      coalesce(t.motivo_rechazo, t.estado) as motivo, t.created_at as desde
    from transacciones t join comercios c on c.id = t.comercio_id
    where ${enCola(sql)}
    order by t.created_at asc limit 500`
  return rows.map(
    (r): Item => ({
      tipo: "reembolso",
      id: r.id,
      link_id: r.link_id,
      comercio: r.comercio,
      mode: r.mode,
      monto: Money.toNumber(Money.Cents(r.monto)),
      motivo: r.motivo,
      con_reparto: false,
      desde: r.desde,
      respuestas: { objeto_tipo: RESPUESTAS, objeto_id: r.id }
    })
  )
}).pipe(Effect.orDie)

interface OpRow {
  readonly id: string
  readonly comercio_id: string
  readonly mode: Mode
  readonly estado: Operation.OperationState
  readonly monto: number
  readonly moneda: string
  readonly concepto: string | null
  readonly referencia_banco: string | null
  readonly endtoend: string | null
  readonly motivo_rechazo: string | null
  readonly intentos: number
  readonly original_id: string | null
  readonly operacion_banco: string | null
  readonly desconocida_desde: Date | null
  readonly link_id: string | null
}

const COLUMNAS = (sql: SqlClient.SqlClient) => sql`
  t.id::text as id, t.comercio_id::text as comercio_id, t.mode, t.estado, t.monto, t.moneda, t.concepto,
  t.referencia_banco, t.endtoend, t.motivo_rechazo, t.intentos, t.original_id::text as original_id,
  t.operacion_banco, t.desconocida_desde, t.detalle->>'link_id' as link_id`

const MarcarPagadoBody = Schema.Struct({
  referencia_banco: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

const bs = (cents: number) => Money.toNumber(Money.Cents(cents))

/** `transaccion.*` notice data, as direct/Store.ts writes it. */
const noticeData = (row: OpRow, notice: Operation.OperationNotice) => ({
  id: row.id,
  operacion: notice.operacion,
  estado: notice.estado,
  monto: bs(row.monto),
  moneda: row.moneda,
  concepto: row.concepto,
  referencia_banco: row.referencia_banco,
  endtoend: row.endtoend,
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null,
  intentos: row.intentos,
  ...(row.original_id === null ? {} : { original_id: row.original_id }),
  mode: row.mode
})

const view = (row: OpRow, cerrada = false) => ({
  id: row.id,
  link_id: row.link_id,
  estado: row.estado,
  monto: bs(row.monto),
  referencia_banco: row.referencia_banco,
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null,
  revision_cerrada: cerrada
})

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const banks = yield* Banks
    const settings = yield* Settings
    const operadores = yield* OperadorService

    const opId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    /** The portal refund locked for this transaction, if it waits in the queue. */
    const lock = (id: string) =>
      Effect.gen(function* () {
        const [row] = yield* sql<OpRow & { en_cola: boolean }>`
          select ${COLUMNAS(sql)}, ${enCola(sql)} as en_cola
          from transacciones t
          where t.id = ${id} and t.operacion = 'devolucion' and t.detalle->>'origen' = 'panel' for update`
        if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
        if (!row.en_cola)
          return yield* Effect.fail(
            OperadorError.conflict(
              "no_en_revision",
              `El reembolso está ${row.estado} y no espera revisión (ya se resolvió).`
            )
          )
        return row
      })

    /** Moves the refund to `answer`'s state (if allowed) with its notices and `link.devuelto`, once. */
    const apply = (row: OpRow, answer: Ports.BankAnswer) =>
      Effect.gen(function* () {
        const target = answer.estado === "DESCONOCIDA" ? row.estado : answer.estado
        const moved = Operation.move(row.estado, target, "devolucion")
        if (Either.isLeft(moved) || moved.right.estado === row.estado) return row
        const estado = moved.right.estado
        const final = Operation.isFinal(estado)
        const at = new Date()
        const [updated] = yield* sql<OpRow>`
          update transacciones t set estado = ${estado}, fase = 'enviada',
            referencia_banco = coalesce(${answer.referencia_banco}, referencia_banco),
            endtoend = coalesce(${answer.endtoend}, endtoend),
            motivo_rechazo = ${estado === "RECHAZADA" ? (answer.motivo_rechazo ?? "DESCONOCIDO") : null},
            liquidada_at = ${estado === "LIQUIDADA" ? at : null},
            desconocida_desde = ${estado === "DESCONOCIDA" ? (row.desconocida_desde ?? at) : null},
            proxima_consulta = ${final ? null : new Date(at.getTime() + settings.conciliarSegundos * 1000)},
            updated_at = ${at}
          where id = ${row.id} and estado = ${row.estado}
          returning ${COLUMNAS(sql)}`
        if (updated === undefined) return row
        for (const notice of moved.right.notices)
          yield* Outbox.write({
            comercioId: updated.comercio_id,
            mode: updated.mode,
            evento: notice.evento,
            data: noticeData(updated, notice),
            dedupe: `${notice.evento}:${updated.id}`,
            at
          }).pipe(Effect.provideService(PgClient.PgClient, pg))
        if (updated.estado === "LIQUIDADA" && updated.link_id !== null) {
          const [sum] = yield* sql<{ total: string }>`
            select coalesce(sum(monto), 0)::text as total from transacciones
            where original_id = ${updated.original_id} and operacion = 'devolucion' and estado = 'LIQUIDADA'`
          yield* Outbox.write({
            comercioId: updated.comercio_id,
            mode: updated.mode,
            evento: "link.devuelto",
            data: {
              link_id: updated.link_id,
              monto: bs(updated.monto),
              monto_devuelto: bs(Number(sum?.total ?? 0)),
              mode: updated.mode
            },
            dedupe: `link.devuelto:${updated.id}`,
            at
          }).pipe(Effect.provideService(PgClient.PgClient, pg))
        }
        return updated
      })

    const resolve = (
      accion: string,
      run: (
        who: OperadorSession,
        row: OpRow
      ) => Effect.Effect<
        { row: OpRow; nota?: string | undefined; banco?: unknown },
        OperadorError | SqlError,
        HttpServerRequest.HttpServerRequest
      >
    ): Ruta["handler"] =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const id = yield* opId
        return json(
          yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const antes = yield* lock(id)
                const done = yield* run(who, antes)
                const despues = view(done.row)
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: TIPO,
                  objeto_id: id,
                  antes: view(antes),
                  despues,
                  nota: done.nota
                })
                return { ...despues, ...(done.banco === undefined ? {} : { banco: done.banco }) }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
        )
      }) as Ruta["handler"]

    const base = "/admin/v1/operador/revision/reembolsos/:id" as const
    const out: ReadonlyArray<Ruta> = [
      {
        method: "post",
        path: `${base}/consultar`,
        handler: resolve("reembolso.consultar_banco", (who, row) =>
          Effect.gen(function* () {
            const answer = yield* banks.forMode(row.mode).query(row.operacion_banco ?? `${row.id}:1`)
            yield* guardarRespuesta(sql, {
              objeto_tipo: RESPUESTAS,
              objeto_id: row.id,
              answer,
              origen: "operador",
              operadorId: who.id
            })
            return {
              row: row.estado === "RECHAZADA" ? row : yield* apply(row, answer),
              banco: bankView(answer)
            }
          })
        )
      },
      ...manuales({
        ctx,
        sql,
        settings,
        auditar: operadores.auditar,
        base,
        objetoTipo: TIPO,
        clave: opId,
        objetoId: (id) => id,
        bloquear: lock,
        monto: (row) => row.monto,
        vista: (row) => view(row),
        marcarPagada: {
          auditoria: "reembolso.marcar_pagado",
          schema: MarcarPagadoBody,
          admite: (row) =>
            row.estado === "RECHAZADA"
              ? Effect.fail(
                  OperadorError.conflict(
                    "operacion_final",
                    "El banco ya dio el reembolso por RECHAZADO: solo se cierra su revisión con una nota."
                  )
                )
              : Effect.void,
          aplicar: (_who, row, input) =>
            Effect.map(apply(row, pagadaAMano(input.referencia_banco)), (moved) => ({
              despues: view(moved),
              respuesta: view(moved),
              nota: input.nota
            }))
        },
        cerrar: {
          auditoria: "reembolso.cerrar_sin_pagar",
          schema: CerrarBody,
          aplicar: (who, row, input) =>
            Effect.gen(function* () {
              // Not done: no money reached the payer; the amount may be refunded again.
              const moved =
                row.estado === "RECHAZADA" ? row : yield* apply(row, rechazadaAMano("BANCO_NO_DISPONIBLE"))
              yield* cerrarRevision(sql, {
                objeto_tipo: TIPO,
                objeto_id: row.id,
                operadorId: who.id,
                nota: input.nota
              })
              return { despues: view(moved, true), respuesta: view(moved, true), nota: input.nota }
            })
        }
      })
    ]
    return out
  })

export const reembolsos: Fuente<
  SqlClient.SqlClient | PgClient.PgClient | Banks | Settings | OperadorService
> = {
  listar,
  rutas
}
