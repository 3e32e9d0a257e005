/**
 * Queue source: direct-API operations (SPEC "Direct API": collections and payouts) that wait
 * for a person:
 *
 * - `DESCONOCIDA` or `ERROR` past the abandon window (`SWITCH_CONCILIAR_ABANDONO_SEGUNDOS`), or
 *   already marked for review by the reconciler (`revision_desde`: the bank could not be asked);
 * - payouts `RECHAZADA` with `SIN_DEBITO_EN_EXTRACTO` (SPEC: "do not resend with another key
 *   without review"), until an operator closes the review with a note.
 *
 * Refunds and reversals are not listed here (their own source). Nothing is ever sent again
 * (SPEC "Unknown outcome"), so there is no "pay": an operator asks the bank now (each answer is
 * kept; a final one is recorded), marks the operation settled with the bank's reference, or
 * closes it as not done with a note. Each resolution moves the operation as @switch/core's
 * `Operation.move` allows, conditionally on the state it was read in, with the `transaccion.*`
 * notices SPEC names (`aprobada` + `liquidada` together, or `rechazada`), once. Marking settled
 * and closing take four eyes from SWITCH_CUATRO_OJOS_DESDE (Cola.ts `manuales`).
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

export const TIPO = "transaccion"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface OpRow {
  readonly id: string
  readonly comercio_id: string
  readonly mode: Mode
  readonly operacion: Operation.Operacion
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
  readonly revision_desde: Date | null
  readonly desconocida_desde: Date | null
  readonly created_at: Date
}

const bs = (cents: number) => Money.toNumber(Money.Cents(cents))

/** The queue's condition over `transacciones` (`t`), for the window given in seconds. */
const enCola = (sql: SqlClient.SqlClient, ventana: number) => sql`
  t.operacion in ('cobro', 'pago') and t.link_id is null and t.fase is not null and (
    (t.estado in ('DESCONOCIDA', 'ERROR') and (t.revision_desde is not null
      or coalesce(t.desconocida_desde, t.created_at) <= now() - make_interval(secs => ${ventana}::float8)))
    or (t.estado = 'RECHAZADA' and t.motivo_rechazo = 'SIN_DEBITO_EN_EXTRACTO'
      and not exists (select 1 from revisiones_cerradas r where r.objeto_tipo = 'transaccion' and r.objeto_id = t.id::text)))`

const listar: Fuente["listar"] = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const ventana = (yield* Settings).conciliarAbandonoSegundos
  const rows = yield* sql<OpRow & { comercio: string }>`
      select t.id::text as id, c.codigo as comercio, t.mode, t.operacion, t.estado, t.monto, t.motivo_rechazo,
        t.revision_desde, t.desconocida_desde, t.created_at
      from transacciones t join comercios c on c.id = t.comercio_id
      where (t.estado in ('DESCONOCIDA', 'ERROR') or t.motivo_rechazo = 'SIN_DEBITO_EN_EXTRACTO')
        and ${enCola(sql, ventana)}
      order by t.created_at asc limit 500`
  return rows.map(
    (r): Item => ({
      tipo: TIPO,
      id: r.id,
      link_id: null,
      comercio: r.comercio,
      mode: r.mode,
      monto: bs(r.monto),
      motivo: r.estado === "RECHAZADA" ? r.motivo_rechazo : r.estado,
      con_reparto: false,
      desde: r.created_at,
      extra: { operacion: r.operacion, estado: r.estado },
      respuestas: { objeto_tipo: TIPO, objeto_id: r.id }
    })
  )
}).pipe(Effect.orDie)

const MarcarPagadaBody = Schema.Struct({
  referencia_banco: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

/** `transaccion.*` notice data, as direct/Store.ts writes it (`aprobada` carries `estado` LIQUIDADA). */
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

const view = (row: OpRow) => ({
  id: row.id,
  operacion: row.operacion,
  estado: row.estado,
  monto: bs(row.monto),
  referencia_banco: row.referencia_banco,
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null
})

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const banks = yield* Banks
    const settings = yield* Settings
    const operadores = yield* OperadorService
    const ventana = settings.conciliarAbandonoSegundos

    const opId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    /** The operation locked for this transaction, if it is in the queue. */
    const lock = (id: string) =>
      Effect.gen(function* () {
        const [row] = yield* sql<OpRow & { en_cola: boolean }>`
          select t.id::text as id, t.comercio_id::text as comercio_id, t.mode, t.operacion, t.estado, t.monto,
            t.moneda, t.concepto, t.referencia_banco, t.endtoend, t.motivo_rechazo, t.intentos,
            t.original_id::text as original_id, t.operacion_banco, t.revision_desde, t.desconocida_desde,
            t.created_at, ${enCola(sql, ventana)} as en_cola
          from transacciones t where t.id = ${id} for update`
        if (row === undefined || !["cobro", "pago"].includes(row.operacion))
          return yield* Effect.fail(OperadorError.notFound())
        if (!row.en_cola)
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `La operación está ${row.estado} y no espera revisión.`)
          )
        return row
      })

    /** Moves the operation to `answer`'s state (if allowed) with its notices, once. */
    const apply = (row: OpRow, answer: Ports.BankAnswer) =>
      Effect.gen(function* () {
        const target = answer.estado === "DESCONOCIDA" ? row.estado : answer.estado
        const moved = Operation.move(row.estado, target, row.operacion)
        if (Either.isLeft(moved) || moved.right.estado === row.estado) return row
        const estado = moved.right.estado
        const final = Operation.isFinal(estado)
        const at = new Date()
        const [updated] = yield* sql<OpRow>`
          update transacciones set estado = ${estado}, fase = 'enviada',
            referencia_banco = coalesce(${answer.referencia_banco}, referencia_banco),
            endtoend = coalesce(${answer.endtoend}, endtoend),
            motivo_rechazo = ${estado === "RECHAZADA" ? (answer.motivo_rechazo ?? "DESCONOCIDO") : null},
            liquidada_at = ${estado === "LIQUIDADA" ? at : null},
            desconocida_desde = ${estado === "DESCONOCIDA" ? (row.desconocida_desde ?? at) : null},
            proxima_consulta = ${final ? null : new Date(at.getTime() + settings.conciliarSegundos * 1000)},
            updated_at = ${at}
          where id = ${row.id} and estado = ${row.estado}
          returning id::text as id, comercio_id::text as comercio_id, mode, operacion, estado, monto, moneda,
            concepto, referencia_banco, endtoend, motivo_rechazo, intentos, original_id::text as original_id,
            operacion_banco, revision_desde, desconocida_desde, created_at`
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
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: TIPO,
                  objeto_id: id,
                  antes: view(antes),
                  despues: view(done.row),
                  nota: done.nota
                })
                return { ...view(done.row), ...(done.banco === undefined ? {} : { banco: done.banco }) }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
        )
      }) as Ruta["handler"]

    const pendiente = (row: OpRow) =>
      row.estado === "RECHAZADA"
        ? Effect.fail(
            OperadorError.conflict(
              "operacion_final",
              "La operación ya está RECHAZADA: solo se cierra su revisión con una nota."
            )
          )
        : Effect.void

    const base = "/admin/v1/operador/revision/transacciones/:id" as const
    const out: ReadonlyArray<Ruta> = [
      {
        method: "post",
        path: `${base}/consultar`,
        handler: resolve("transaccion.consultar_banco", (who, row) =>
          Effect.gen(function* () {
            const answer = yield* banks.forMode(row.mode).query(row.operacion_banco ?? row.id)
            yield* guardarRespuesta(sql, {
              objeto_tipo: TIPO,
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
        vista: view,
        marcarPagada: {
          auditoria: "transaccion.marcar_liquidada",
          schema: MarcarPagadaBody,
          admite: pendiente,
          aplicar: (_who, row, input) =>
            Effect.map(apply(row, pagadaAMano(input.referencia_banco)), (moved) => ({
              despues: view(moved),
              respuesta: view(moved),
              nota: input.nota
            }))
        },
        cerrar: {
          auditoria: "transaccion.cerrar",
          schema: CerrarBody,
          aplicar: (who, row, input) =>
            Effect.gen(function* () {
              const cerrada = { objeto_tipo: TIPO, objeto_id: row.id, operadorId: who.id, nota: input.nota }
              // Not done: a payout absent from the statement, anything else the bank did not process.
              const moved =
                row.estado === "RECHAZADA"
                  ? row
                  : yield* apply(
                      row,
                      rechazadaAMano(
                        row.operacion === "pago" ? "SIN_DEBITO_EN_EXTRACTO" : "BANCO_NO_DISPONIBLE"
                      )
                    )
              // Reviewed already: the payout rejected here does not come back to the queue.
              yield* cerrarRevision(sql, cerrada)
              return { despues: view(moved), respuesta: view(moved), nota: input.nota }
            })
        }
      })
    ]
    return out
  })

export const directas: Fuente<SqlClient.SqlClient | PgClient.PgClient | Banks | Settings | OperadorService> =
  {
    listar,
    rutas
  }
