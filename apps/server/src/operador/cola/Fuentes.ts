/**
 * The sources of the money-in-review queue beyond the settlements OperadorRoutes.ts lists
 * itself. Adding a source: a module of this folder exporting a {@link Fuente}, and its line in
 * {@link FUENTES}. {@link colaRoutes} registers every source's action routes, the bank answers'
 * history and the cancellation of a resolution waiting for a second operator; {@link
 * listarFuentes} gives the items for `GET /admin/v1/operador/revision` and {@link conRespuestas}
 * adds each item's latest bank answer and its waiting resolution (`accion_pendiente`).
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { type ServerSettings, Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import { decodeBody, OperadorError, OperadorService } from "../OperadorService.js"
import { cargosTarjeta } from "./CargosTarjeta.js"
import { anular, type Contexto, historial, type Item, pendientes, type Ruta, ultimas } from "./Cola.js"
import { directas } from "./Directas.js"
import { linksEnRevision } from "./Links.js"
import { propias } from "./Propias.js"
import { reembolsos } from "./Reembolsos.js"
import { repartos } from "./Repartos.js"

export const FUENTES = [propias, repartos, directas, linksEnRevision, reembolsos, cargosTarjeta] as const

export const listarFuentes = Effect.map(
  Effect.all(
    FUENTES.map((f) => f.listar),
    { concurrency: 1 }
  ),
  (lists) => lists.flat()
)

/** The whole queue, oldest first, as `GET /admin/v1/operador/revision` answers it. */
export const listarCola = (sql: SqlClient.SqlClient, settings: ServerSettings) =>
  Effect.flatMap(
    listarFuentes.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.provideService(Settings, settings)
    ),
    (items) => conRespuestas(sql, items)
  )

/** Items as JSON with their age and the bank's latest answer about each (null: none yet). */
export const conRespuestas = (sql: SqlClient.SqlClient, items: ReadonlyArray<Item>) =>
  Effect.gen(function* () {
    const latest = yield* ultimas(
      sql,
      items.map((i) => i.respuestas)
    )
    const waiting = yield* pendientes(
      sql,
      items.map((i) => ({ objeto_tipo: i.tipo, objeto_id: i.id }))
    )
    const now = Date.now()
    return [...items]
      .sort((a, b) => a.desde.getTime() - b.desde.getTime())
      .map((i) => ({
        tipo: i.tipo,
        id: i.id,
        link_id: i.link_id,
        comercio: i.comercio,
        mode: i.mode,
        monto: i.monto,
        motivo: i.motivo,
        con_reparto: i.con_reparto,
        desde: i.desde.toISOString(),
        edad_segundos: Math.max(0, Math.floor((now - i.desde.getTime()) / 1000)),
        ...i.extra,
        ultima_respuesta: latest.get(`${i.respuestas.objeto_tipo}/${i.respuestas.objeto_id}`) ?? null,
        accion_pendiente: waiting.get(`${i.tipo}/${i.id}`) ?? null
      }))
  })

const OBJETO = /^(liquidacion|reparto|transaccion|[a-z_]{3,30})$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const NotaBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })
const OBJETO_ID = /^[0-9a-f-]{36}(:[0-4])?$/

/** Every source's action routes, and `GET /admin/v1/operador/revision/respuestas`. */
export const colaRoutes = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const operadores = yield* OperadorService
    const routes: Array<Ruta> = [
      {
        // A resolution waiting for a second operator dropped (its requester's mistake, or no longer
        // wanted): any tesoreria operator, audited; the item stays as it was.
        method: "post",
        path: "/admin/v1/operador/revision/acciones/:id/anular",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const id = yield* Effect.flatMap(HttpRouter.params, (params) =>
            UUID.test(params.id ?? "")
              ? Effect.succeed(params.id ?? "")
              : Effect.fail(OperadorError.notFound())
          )
          const input = yield* decodeBody(NotaBody)(yield* ctx.body)
          const done = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const done = yield* anular(sql, id, who)
                if (done === undefined) return undefined
                const { objeto_tipo, objeto_id, ...pendiente } = done
                yield* operadores.auditar(who, {
                  accion: "accion_pendiente.anular",
                  objeto_tipo,
                  objeto_id,
                  antes: { accion_pendiente: pendiente },
                  nota: input.nota
                })
                return done
              })
            )
            .pipe(Effect.orDie)
          if (done === undefined)
            return yield* Effect.fail(
              OperadorError.conflict("sin_accion_pendiente", "No hay una acción pendiente con ese id.")
            )
          return json({ ...done, estado: "anulada" })
        }) as Ruta["handler"]
      },
      {
        method: "get",
        path: "/admin/v1/operador/revision/respuestas",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          const request = yield* HttpServerRequest.HttpServerRequest
          const params = new URL(request.url, "http://x").searchParams
          const tipo = params.get("objeto_tipo") ?? ""
          const id = params.get("objeto_id") ?? ""
          if (!OBJETO.test(tipo) || !OBJETO_ID.test(id))
            return yield* Effect.fail(
              OperadorError.validation({
                fieldErrors: { objeto_tipo: ["tipo del elemento"], objeto_id: ["id del elemento"] }
              })
            )
          return json({ data: yield* historial(sql, tipo, id) })
        }) as Ruta["handler"]
      }
    ]
    for (const fuente of FUENTES) routes.push(...(yield* fuente.rutas(ctx)))
    return routes
  })
