/**
 * What every source of the money-in-review queue shares (issue 32): the shape of a queue item,
 * the shape of a source, the bank answers' history and the context a source's actions run in.
 *
 * A source is one module of this folder (Repartos.ts, Directas.ts, …) exporting a
 * {@link Fuente}: how to list its items and the routes of its actions. Fuentes.ts lists them;
 * adding a source is one module and one line there. The settlements in `REVISION` are listed
 * and resolved by OperadorRoutes.ts itself (the first source, kept where it landed).
 *
 * Every source's hand-recorded resolutions, "marcar pagado" and "cerrar sin pagar", are built by
 * {@link manuales}, with four eyes (issue 41): from SWITCH_CUATRO_OJOS_DESDE (bolivars; unset:
 * always) the first `tesoreria` operator's request only records a pending action
 * (`acciones_pendientes`, its body kept) and answers `202 {estado: "pendiente_confirmacion",
 * accion_pendiente}`; another `tesoreria` operator applies it with `…/confirmar`, and the one who
 * asked is refused (`403 cuatro_ojos`). Nothing moves before the confirmation, nothing else is
 * done to the item while one waits (`409 accion_pendiente`), and both steps are audited
 * (`<accion>_solicitado`, `<accion>_confirmado`). Below the threshold one operator does it, as
 * before.
 */
import { randomUUID } from "node:crypto"
import type { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { Mode } from "@switch/api"
import { Money, type Ports } from "@switch/core"
import { Effect, Schema } from "effect"
import type { ServerSettings, Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import * as RespuestasBanco from "../../platform/RespuestasBanco.js"
import {
  type AuditEntry,
  decodeBody,
  type Operador,
  OperadorError,
  type OperadorSession
} from "../OperadorService.js"

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
  /** The session's operator, if the matched route's entry in Roles.ts admits its role. */
  readonly operador: () => Effect.Effect<OperadorSession, OperadorError, HttpServerRequest.HttpServerRequest>
  readonly body: Effect.Effect<unknown, OperadorError, HttpServerRequest.HttpServerRequest>
}

export interface Fuente<R = never> {
  /** The items waiting for a person, oldest first. */
  readonly listar: Effect.Effect<ReadonlyArray<Item>, never, SqlClient.SqlClient | Settings>
  /** The routes of its actions. */
  readonly rutas: (contexto: Contexto) => Effect.Effect<ReadonlyArray<Ruta>, never, R>
}

/** A bank answer as the queue shows it, with the bank's own code and words when it said them. */
export interface Respuesta {
  readonly estado: string
  readonly referencia_banco: string | null
  readonly motivo_rechazo: string | null
  readonly codigo_banco: string | null
  readonly mensaje_banco: string | null
  readonly origen: "operador" | "envio"
  readonly created_at: string
}

export const bankView = (answer: Ports.BankAnswer) => ({
  estado: answer.estado,
  referencia_banco: answer.referencia_banco,
  motivo_rechazo: answer.motivo_rechazo,
  codigo_banco: answer.codigo_banco ?? null,
  mensaje_banco: answer.mensaje_banco ?? null
})

/** Keeps one bank answer in the item's history; in the caller's transaction when it has one. */
export const guardarRespuesta = RespuestasBanco.guardar

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
  readonly codigo_banco: string | null
  readonly mensaje_banco: string | null
  readonly origen: "operador" | "envio"
  readonly created_at: Date
}

const toRespuesta = (row: RespuestaRow): Respuesta => ({
  estado: row.estado,
  referencia_banco: row.referencia_banco,
  motivo_rechazo: row.motivo_rechazo,
  codigo_banco: row.codigo_banco,
  mensaje_banco: row.mensaje_banco,
  origen: row.origen,
  created_at: row.created_at.toISOString()
})

/** The history of an item's bank answers, newest first (at most 100). */
export const historial = (sql: SqlClient.SqlClient, objetoTipo: string, objetoId: string) =>
  sql<RespuestaRow>`
      select objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, codigo_banco, mensaje_banco, origen, created_at
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
        objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, codigo_banco, mensaje_banco, origen, created_at
      from respuestas_banco
      where (objeto_tipo, objeto_id) in (
        select * from unnest(${keys.map((k) => k.objeto_tipo)}::text[], ${keys.map((k) => k.objeto_id)}::text[]))
      order by objeto_tipo, objeto_id, id desc`
    for (const row of rows) out.set(`${row.objeto_tipo}/${row.objeto_id}`, toRespuesta(row))
    return out
  }).pipe(Effect.orDie)

/** The hand-recorded resolutions that need four eyes from SWITCH_CUATRO_OJOS_DESDE. */
export type AccionManual = "marcar_pagada" | "cerrar"

const RUTA: Record<AccionManual, string> = { marcar_pagada: "marcar-pagada", cerrar: "cerrar" }
const NOMBRE: Record<AccionManual, string> = { marcar_pagada: "marcar pagado", cerrar: "cerrar sin pagar" }

/** A resolution waiting for a second operator, as the queue and the answers show it. */
export interface AccionPendiente {
  readonly id: string
  readonly accion: AccionManual
  /** Bolivars. */
  readonly monto: number
  readonly solicitado_por: string
  readonly solicitado_por_id: string
  readonly creada_en: string
}

interface PendienteRow {
  readonly id: string
  readonly objeto_tipo: string
  readonly objeto_id: string
  readonly accion: AccionManual
  readonly monto: number
  readonly cuerpo: unknown
  readonly solicitado_por: string
  readonly email: string
  readonly created_at: Date
}

const pendienteJson = (row: PendienteRow): AccionPendiente => ({
  id: row.id,
  accion: row.accion,
  monto: Money.toNumber(Money.Cents(row.monto)),
  solicitado_por: row.email,
  solicitado_por_id: row.solicitado_por,
  creada_en: row.created_at.toISOString()
})

/** Whether resolving `montoCentimos` by hand needs a second operator (SWITCH_CUATRO_OJOS_DESDE; unset: always). */
export const requiereSegundo = (settings: ServerSettings, montoCentimos: number) =>
  montoCentimos >= Math.round((settings.cuatroOjosDesde ?? 0) * 100)

const pendienteRows = (sql: SqlClient.SqlClient, objetoTipo: string, objetoId: string) => sql<PendienteRow>`
  select a.id::text as id, a.objeto_tipo, a.objeto_id, a.accion, a.monto, a.cuerpo,
    a.solicitado_por::text as solicitado_por, o.email, a.created_at
  from acciones_pendientes a join operadores o on o.id = a.solicitado_por
  where a.objeto_tipo = ${objetoTipo} and a.objeto_id = ${objetoId} and a.estado = 'pendiente'
  for update of a`

/**
 * Refuses anything else on an item while a resolution of it waits for a second operator (run it
 * under the item's lock); asking the bank stays allowed.
 */
export const sinPendiente = (sql: SqlClient.SqlClient, objetoTipo: string, objetoId: string) =>
  Effect.flatMap(pendienteRows(sql, objetoTipo, objetoId), ([row]) =>
    row === undefined
      ? Effect.void
      : Effect.fail(
          OperadorError.conflict(
            "accion_pendiente",
            `${row.email} pidió ${NOMBRE[row.accion]} y espera la confirmación de otro operador de tesorería: confírmalo o anúlalo primero.`
          )
        )
  )

/** The waiting resolutions of the items given, keyed `objeto_tipo/objeto_id`. */
export const pendientes = (
  sql: SqlClient.SqlClient,
  keys: ReadonlyArray<{ readonly objeto_tipo: string; readonly objeto_id: string }>
) =>
  Effect.gen(function* () {
    const out = new Map<string, AccionPendiente>()
    if (keys.length === 0) return out
    const rows = yield* sql<PendienteRow>`
      select a.id::text as id, a.objeto_tipo, a.objeto_id, a.accion, a.monto, a.cuerpo,
        a.solicitado_por::text as solicitado_por, o.email, a.created_at
      from acciones_pendientes a join operadores o on o.id = a.solicitado_por
      where a.estado = 'pendiente' and (a.objeto_tipo, a.objeto_id) in (
        select * from unnest(${keys.map((k) => k.objeto_tipo)}::text[], ${keys.map((k) => k.objeto_id)}::text[]))`
    for (const row of rows) out.set(`${row.objeto_tipo}/${row.objeto_id}`, pendienteJson(row))
    return out
  }).pipe(Effect.orDie)

/** Drops a waiting resolution (any `tesoreria` operator, its requester too); the row as it was. */
export const anular = (sql: SqlClient.SqlClient, id: string, who: Operador) =>
  sql<PendienteRow>`
    update acciones_pendientes a set estado = 'anulada', resuelto_por = ${who.id}, resuelto_at = now()
    from operadores o
    where a.id = ${id} and a.estado = 'pendiente' and o.id = a.solicitado_por
    returning a.id::text as id, a.objeto_tipo, a.objeto_id, a.accion, a.monto, a.cuerpo,
      a.solicitado_por::text as solicitado_por, o.email, a.created_at`.pipe(
    Effect.map(([row]) =>
      row === undefined
        ? undefined
        : { ...pendienteJson(row), objeto_tipo: row.objeto_tipo, objeto_id: row.objeto_id }
    ),
    Effect.orDie
  )

/** One hand-recorded resolution of a source: its audit name, its body and what it does. */
export interface Manual<Row, I, E> {
  /** The audit row's `accion` (`link.marcar_pagado`…); the four-eyes steps add `_solicitado`, `_confirmado`. */
  readonly auditoria: string
  readonly schema: Schema.Schema<I, E>
  /** A refusal known before anything is recorded (a final state…), checked on request and on confirmation. */
  readonly admite?: (row: Row) => Effect.Effect<void, OperadorError>
  /** Applies it, under the item's lock: the audit row's `despues`, the answer and the note. */
  readonly aplicar: (
    who: OperadorSession,
    row: Row,
    input: I
  ) => Effect.Effect<
    { readonly despues: unknown; readonly respuesta: unknown; readonly nota?: string | undefined },
    OperadorError | SqlError
  >
}

const NotaBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })

/**
 * A source's "marcar pagado" and "cerrar sin pagar" with four eyes: `POST {base}/marcar-pagada`,
 * `…/cerrar` and their `…/confirmar`. `bloquear` locks the item for the transaction and refuses
 * it when it no longer waits (or a payment through the bank is under way); `monto` (cents) decides
 * whether a second operator is needed.
 */
export const manuales = <K, Row, IP, EP, IC, EC>(spec: {
  readonly ctx: Contexto
  readonly sql: SqlClient.SqlClient
  readonly settings: ServerSettings
  readonly auditar: (who: Operador, entry: AuditEntry) => Effect.Effect<void>
  readonly base: `/admin/v1/operador/${string}`
  readonly objetoTipo: string
  readonly clave: Effect.Effect<K, OperadorError, HttpRouter.RouteContext>
  readonly objetoId: (clave: K) => string
  readonly bloquear: (clave: K) => Effect.Effect<Row, OperadorError | SqlError>
  readonly monto: (row: Row) => number
  readonly vista: (row: Row) => unknown
  readonly marcarPagada: Manual<Row, IP, EP>
  readonly cerrar: Manual<Row, IC, EC>
  /** The last segment of "marcar pagado"'s route when the source names it otherwise (`marcar-acreditado`). */
  readonly rutaMarcarPagada?: string
}): ReadonlyArray<Ruta> => {
  const { ctx, sql, settings, objetoTipo } = spec
  const marcar = spec.rutaMarcarPagada ?? RUTA.marcar_pagada

  const solicitar = <I, E>(accion: AccionManual, manual: Manual<Row, I, E>): Ruta["handler"] =>
    Effect.gen(function* () {
      const who = yield* ctx.operador()
      const clave = yield* spec.clave
      const input = yield* decodeBody(manual.schema)(yield* ctx.body)
      const nota = (input as { readonly nota?: string }).nota
      const objetoId = spec.objetoId(clave)
      const answer = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const row = yield* spec.bloquear(clave)
            yield* sinPendiente(sql, objetoTipo, objetoId)
            if (manual.admite !== undefined) yield* manual.admite(row)
            const monto = spec.monto(row)
            if (!requiereSegundo(settings, monto)) {
              const done = yield* manual.aplicar(who, row, input)
              yield* spec.auditar(who, {
                accion: manual.auditoria,
                objeto_tipo: objetoTipo,
                objeto_id: objetoId,
                antes: spec.vista(row),
                despues: done.despues,
                nota: done.nota
              })
              return { status: 200, body: done.respuesta }
            }
            const id = randomUUID()
            yield* sql`
              insert into acciones_pendientes (id, objeto_tipo, objeto_id, accion, monto, cuerpo, solicitado_por)
              values (${id}, ${objetoTipo}, ${objetoId}, ${accion}, ${monto}, ${JSON.stringify(input)}::jsonb, ${who.id})`
            const [created] = yield* pendienteRows(sql, objetoTipo, objetoId)
            if (created === undefined)
              return yield* Effect.dieMessage("acciones_pendientes insert returned nothing")
            const pendiente = pendienteJson(created)
            yield* spec.auditar(who, {
              accion: `${manual.auditoria}_solicitado`,
              objeto_tipo: objetoTipo,
              objeto_id: objetoId,
              antes: spec.vista(row),
              despues: { accion_pendiente: pendiente, cuerpo: input },
              nota
            })
            return {
              status: 202,
              body: {
                estado: "pendiente_confirmacion",
                detail: `${settings.cuatroOjosDesde === undefined ? "" : `Desde Bs ${settings.cuatroOjosDesde}, `}otro operador de tesorería debe confirmarlo; nada cambia hasta entonces.`,
                objeto_tipo: objetoTipo,
                objeto_id: objetoId,
                accion_pendiente: pendiente
              }
            }
          })
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      return json(answer.body, answer.status)
    }) as Ruta["handler"]

  const confirmar = <I, E>(accion: AccionManual, manual: Manual<Row, I, E>): Ruta["handler"] =>
    Effect.gen(function* () {
      const who = yield* ctx.operador()
      const clave = yield* spec.clave
      const extra = yield* decodeBody(NotaBody)(yield* ctx.body)
      const objetoId = spec.objetoId(clave)
      const respuesta = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const row = yield* spec.bloquear(clave)
            const [pendiente] = (yield* pendienteRows(sql, objetoTipo, objetoId)).filter(
              (p) => p.accion === accion
            )
            if (pendiente === undefined)
              return yield* Effect.fail(
                OperadorError.conflict("sin_accion_pendiente", `No hay un "${NOMBRE[accion]}" por confirmar.`)
              )
            if (pendiente.solicitado_por === who.id)
              return yield* Effect.fail(
                OperadorError.forbidden(
                  "cuatro_ojos",
                  "Otro operador de tesorería debe confirmar lo que pediste."
                )
              )
            const input = yield* decodeBody(manual.schema)(pendiente.cuerpo)
            if (manual.admite !== undefined) yield* manual.admite(row)
            const done = yield* manual.aplicar(who, row, input)
            yield* sql`
              update acciones_pendientes set estado = 'confirmada', resuelto_por = ${who.id}, resuelto_at = now()
              where id = ${pendiente.id} and estado = 'pendiente'`
            yield* spec.auditar(who, {
              accion: `${manual.auditoria}_confirmado`,
              objeto_tipo: objetoTipo,
              objeto_id: objetoId,
              antes: spec.vista(row),
              despues: {
                ...(typeof done.despues === "object" && done.despues !== null
                  ? done.despues
                  : { valor: done.despues }),
                accion_pendiente: pendienteJson(pendiente)
              },
              nota: extra.nota ?? done.nota
            })
            return done.respuesta
          })
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      return json(respuesta)
    }) as Ruta["handler"]

  return [
    {
      method: "post",
      path: `${spec.base}/${marcar}`,
      handler: solicitar("marcar_pagada", spec.marcarPagada)
    },
    {
      method: "post",
      path: `${spec.base}/${marcar}/confirmar`,
      handler: confirmar("marcar_pagada", spec.marcarPagada)
    },
    { method: "post", path: `${spec.base}/${RUTA.cerrar}`, handler: solicitar("cerrar", spec.cerrar) },
    {
      method: "post",
      path: `${spec.base}/${RUTA.cerrar}/confirmar`,
      handler: confirmar("cerrar", spec.cerrar)
    }
  ]
}
