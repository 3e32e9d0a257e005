/**
 * Actions on links in `revision` (their payment attempt unclear past the window and the bank
 * unable to say; OperadorRoutes.ts lists them in the queue). Nothing is sent again: an operator
 * asks the bank now about the attempt (each answer is kept; a final one is applied), marks the
 * payment done with the bank's reference (the link becomes `pagado` with `link.pagado` and its
 * settlement, as if the bank had confirmed), or closes it as not debited with a note (the link
 * reopens for the payer, no event, as after a bank rejection). The move itself is the
 * checkout's (platform/LinksEnRevision.ts), conditional on the link still being in `revision`.
 * Marking paid and closing take four eyes from SWITCH_CUATRO_OJOS_DESDE (Cola.ts `manuales`).
 */
import { HttpRouter, type HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Money } from "@switch/core"
import { Effect, Option, Schema } from "effect"
import { Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import { LinksEnRevision, type Resultado } from "../../platform/LinksEnRevision.js"
import { OperadorError, OperadorService, type OperadorSession } from "../OperadorService.js"
import {
  bankView,
  type Contexto,
  type Fuente,
  guardarRespuesta,
  manuales,
  pagadaAMano,
  type Ruta,
  rechazadaAMano
} from "./Cola.js"

export const TIPO = "link"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const MarcarPagadaBody = Schema.Struct({
  referencia_banco: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

const ESTADO: Record<Resultado, string> = { pagado: "pagado", reabierto: "pendiente", sin_cambio: "revision" }

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const links = yield* LinksEnRevision
    const operadores = yield* OperadorService
    const settings = yield* Settings

    const linkId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    /** The link locked for this transaction, if it is in review with an attempt to resolve. */
    const lock = (id: string) =>
      Effect.gen(function* () {
        const [row] = yield* sql<{ id: string; estado: string; monto: number }>`
          select id::text as id, estado, monto from links where id = ${id} for update`
        if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
        if (row.estado !== "revision" || Option.isNone(yield* links.intento(id)))
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `El link está ${row.estado}, no en revisión.`)
          )
        return row
      })

    const resolve = (
      accion: string,
      run: (
        who: OperadorSession,
        id: string
      ) => Effect.Effect<
        { resultado: Resultado; nota?: string | undefined; banco?: unknown },
        OperadorError | SqlError,
        HttpServerRequest.HttpServerRequest
      >
    ): Ruta["handler"] =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const id = yield* linkId
        return json(
          yield* sql
            .withTransaction(
              Effect.gen(function* () {
                yield* lock(id)
                const done = yield* run(who, id)
                const estado = ESTADO[done.resultado]
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: TIPO,
                  objeto_id: id,
                  antes: { estado: "revision" },
                  despues: { estado, ...(done.banco === undefined ? {} : { banco: done.banco }) },
                  nota: done.nota
                })
                return { link_id: id, estado, ...(done.banco === undefined ? {} : { banco: done.banco }) }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
        )
      }) as Ruta["handler"]

    const base = "/admin/v1/operador/revision/links/:id" as const
    const out: ReadonlyArray<Ruta> = [
      {
        method: "post",
        path: `${base}/consultar`,
        handler: resolve("link.consultar_banco", (who, id) =>
          Effect.gen(function* () {
            const { answer, resultado } = yield* links.consultar(id)
            yield* guardarRespuesta(sql, {
              objeto_tipo: TIPO,
              objeto_id: id,
              answer,
              origen: "operador",
              operadorId: who.id
            })
            return { resultado, banco: bankView(answer) }
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
        clave: linkId,
        objetoId: (id) => id,
        bloquear: lock,
        monto: (row) => row.monto,
        vista: (row) => ({ estado: row.estado, monto: Money.toNumber(Money.Cents(row.monto)) }),
        marcarPagada: {
          auditoria: "link.marcar_pagado",
          schema: MarcarPagadaBody,
          aplicar: (_who, row, input) =>
            Effect.map(links.aplicar(row.id, pagadaAMano(input.referencia_banco)), (resultado) => ({
              despues: { estado: ESTADO[resultado] },
              respuesta: { link_id: row.id, estado: ESTADO[resultado] },
              nota: input.nota
            }))
        },
        cerrar: {
          auditoria: "link.cerrar_sin_cobro",
          schema: CerrarBody,
          aplicar: (_who, row, input) =>
            Effect.map(links.aplicar(row.id, rechazadaAMano("BANCO_NO_DISPONIBLE")), (resultado) => ({
              despues: { estado: ESTADO[resultado] },
              respuesta: { link_id: row.id, estado: ESTADO[resultado] },
              nota: input.nota
            }))
        }
      })
    ]
    return out
  })

/** Listed by OperadorRoutes.ts (the queue's first sources); this module adds their actions. */
export const linksEnRevision: Fuente<SqlClient.SqlClient | LinksEnRevision | OperadorService | Settings> = {
  listar: Effect.succeed([]),
  rutas
}
