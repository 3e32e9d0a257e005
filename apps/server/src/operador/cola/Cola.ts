/**
 * What every source of the money-in-review queue shares (issue 32): the shape of a queue item,
 * the shape of a source, the bank answers' history and the context a source's actions run in.
 *
 * A source is one module of this folder (Repartos.ts, Directas.ts, …) exporting a
 * {@link Fuente}: how to list its items and the routes of its actions. Fuentes.ts lists them;
 * adding a source is one module and one line there. The settlements in `REVISION` are listed
 * and resolved by OperadorRoutes.ts itself (the first source, kept where it landed).
 */
import type { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import type { Ports } from "@switch/core"
import { Effect } from "effect"
import type { Settings } from "../../Config.js"
import type { OperadorError, OperadorSession, Rol } from "../OperadorService.js"

/** One item of the queue, as `GET /admin/v1/operador/revision` shows it. */
export interface Item {
  readonly tipo: string
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: Mode
  /** Bolivars. */
  readonly monto: number
  readonly motivo: string | null
  readonly con_reparto: boolean
  readonly desde: Date
  /** Extra fields of the source (a split part's `indice`, an operation's `operacion`…). */
  readonly extra?: Record<string, unknown>
  /** Key of the item's bank answers in `respuestas_banco`. */
  readonly respuestas: { readonly objeto_tipo: string; readonly objeto_id: string }
}

export type Handler = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  OperadorError,
  HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext
>

export interface Ruta {
  readonly method: "get" | "post"
  readonly path: `/admin/v1/operador/${string}`
  readonly handler: Handler
}

/** What OperadorRoutes hands each source: its session check and its body reader. */
export interface Contexto {
  readonly operador: (
    roles: ReadonlyArray<Rol> | "todos"
  ) => Effect.Effect<OperadorSession, OperadorError, HttpServerRequest.HttpServerRequest>
  readonly body: Effect.Effect<unknown, OperadorError, HttpServerRequest.HttpServerRequest>
}

export interface Fuente<R = never> {
  /** The items waiting for a person, oldest first. */
  readonly listar: Effect.Effect<ReadonlyArray<Item>, never, SqlClient.SqlClient | Settings>
  /** The routes of its actions. */
  readonly rutas: (contexto: Contexto) => Effect.Effect<ReadonlyArray<Ruta>, never, R>
}

/** A bank answer as the queue shows it. */
export interface Respuesta {
  readonly estado: string
  readonly referencia_banco: string | null
  readonly motivo_rechazo: string | null
  readonly origen: "operador" | "envio"
  readonly created_at: string
}

export const bankView = (answer: Ports.BankAnswer) => ({
  estado: answer.estado,
  referencia_banco: answer.referencia_banco,
  motivo_rechazo: answer.motivo_rechazo
})

/** Keeps one bank answer in the item's history; in the caller's transaction when it has one. */
export const guardarRespuesta = (
  sql: SqlClient.SqlClient,
  input: {
    readonly objeto_tipo: string
    readonly objeto_id: string
    readonly answer: Ports.BankAnswer
    readonly origen: "operador" | "envio"
    readonly operadorId: string | null
  }
) =>
  sql`
      insert into respuestas_banco (objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, origen, operador_id)
      values (${input.objeto_tipo}, ${input.objeto_id}, ${input.answer.estado}, ${input.answer.referencia_banco},
        ${input.answer.motivo_rechazo}, ${input.origen}, ${input.operadorId})`.pipe(
    Effect.asVoid,
    Effect.orDie
  )

/** What an operator records by hand on "marcar pagado": paid, with the bank's reference. */
export const pagadaAMano = (referencia_banco: string): Ports.BankAnswer => ({
  estado: "LIQUIDADA",
  referencia_banco,
  endtoend: null,
  motivo_rechazo: null
})

/** What an operator records by hand on "cerrar sin pagar": the bank did not move the money. */
export const rechazadaAMano = (
  motivo_rechazo: NonNullable<Ports.BankAnswer["motivo_rechazo"]>
): Ports.BankAnswer => ({
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo
})

/** Closes an item's review with the operator's note, so it leaves the queue; once. */
export const cerrarRevision = (
  sql: SqlClient.SqlClient,
  input: {
    readonly objeto_tipo: string
    readonly objeto_id: string
    readonly operadorId: string
    readonly nota: string
  }
) =>
  sql`
      insert into revisiones_cerradas (objeto_tipo, objeto_id, operador_id, nota)
      values (${input.objeto_tipo}, ${input.objeto_id}, ${input.operadorId}, ${input.nota}) on conflict do nothing`

interface RespuestaRow {
  readonly objeto_tipo: string
  readonly objeto_id: string
  readonly estado: string
  readonly referencia_banco: string | null
  readonly motivo_rechazo: string | null
  readonly origen: "operador" | "envio"
  readonly created_at: Date
}

const toRespuesta = (row: RespuestaRow): Respuesta => ({
  estado: row.estado,
  referencia_banco: row.referencia_banco,
  motivo_rechazo: row.motivo_rechazo,
  origen: row.origen,
  created_at: row.created_at.toISOString()
})

/** The history of an item's bank answers, newest first (at most 100). */
export const historial = (sql: SqlClient.SqlClient, objetoTipo: string, objetoId: string) =>
  sql<RespuestaRow>`
      select objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, origen, created_at
      from respuestas_banco where objeto_tipo = ${objetoTipo} and objeto_id = ${objetoId}
      order by id desc limit 100`.pipe(
    Effect.map((rows) => rows.map(toRespuesta)),
    Effect.orDie
  )

/** The latest answer of each item given, keyed `objeto_tipo/objeto_id`. */
export const ultimas = (
  sql: SqlClient.SqlClient,
  keys: ReadonlyArray<{ readonly objeto_tipo: string; readonly objeto_id: string }>
) =>
  Effect.gen(function* () {
    const out = new Map<string, Respuesta>()
    if (keys.length === 0) return out
    const rows = yield* sql<RespuestaRow>`
      select distinct on (objeto_tipo, objeto_id)
        objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, origen, created_at
      from respuestas_banco
      where (objeto_tipo, objeto_id) in (
        select * from unnest(${keys.map((k) => k.objeto_tipo)}::text[], ${keys.map((k) => k.objeto_id)}::text[]))
      order by objeto_tipo, objeto_id, id desc`
    for (const row of rows) out.set(`${row.objeto_tipo}/${row.objeto_id}`, toRespuesta(row))
    return out
  }).pipe(Effect.orDie)
