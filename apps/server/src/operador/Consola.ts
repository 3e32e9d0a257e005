/**
 * The console's routes beyond merchants and the queue (issue 32):
 *
 * - the BCV rate: `GET /admin/v1/operador/tasa-bcv` (the rate in force, whether it is older than
 *   SWITCH_TASA_MAX_HORAS, the proposal waiting for a second person, and the history with who set
 *   each), `POST …/tasa-bcv` (tesorería sets it by hand) and `POST …/tasa-bcv/fuente` (tesorería
 *   fetches SWITCH_TASA_FUENTE_URL now). A rate further than SWITCH_TASA_SALTO_MAX_PCT from the
 *   one in force, from any of them or the admin token, is only proposed (`202`,
 *   platform/TasaBcv.ts): `POST …/tasa-bcv/propuestas/{id}/confirmar` by a tesorería operator
 *   other than its proposer puts it in force (`403 cuatro_ojos` for the proposer), and
 *   `…/rechazar` (any tesorería operator, its proposer too) drops it (issue 41);
 * - incidents by bank: `GET /admin/v1/operador/incidentes` (open ones and those of the last 7
 *   days), `POST …/incidentes` and `POST …/incidentes/{id}/cerrar` (riesgo or tesorería), which
 *   /estado and /estado.json show for 7 days;
 * - `GET /admin/v1/operador/alertas`: the open alerts (alertas/Alertas.ts).
 *
 * Every change is audited in its own transaction.
 */
import { randomUUID } from "node:crypto"
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Money } from "@switch/core"
import { Effect, Either, Option, Schema } from "effect"
import { Settings } from "../Config.js"
import { json } from "../http/Respond.js"
import * as TasaBcv from "../platform/TasaBcv.js"
import * as Alertas from "./alertas/Alertas.js"
import type { Contexto, Ruta } from "./cola/Cola.js"
import { decodeBody, OperadorError, OperadorService } from "./OperadorService.js"
import * as FuenteTasa from "./tasa/FuenteTasa.js"

const TasaBody = Schema.Struct({
  ves_por_usd: Schema.Union(Schema.Number, Schema.String.pipe(Schema.maxLength(30))),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const IncidenteBody = Schema.Struct({
  banco: Schema.String.pipe(Schema.pattern(/^\d{4}$/)),
  titulo: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(140)),
  detalle: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CierreBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })
const PROPUESTA_ID = /^[1-9][0-9]{0,17}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface IncidenteRow {
  readonly id: string
  readonly banco: string
  readonly titulo: string
  readonly detalle: string | null
  readonly abierto_por: string
  readonly abierto_at: Date
  readonly cerrado_por: string | null
  readonly cerrado_at: Date | null
  readonly nota_cierre: string | null
}

const incidenteJson = (r: IncidenteRow) => ({
  id: r.id,
  banco: r.banco,
  titulo: r.titulo,
  detalle: r.detalle,
  abierto_por: r.abierto_por,
  abierto_en: r.abierto_at.toISOString(),
  cerrado_por: r.cerrado_por,
  cerrado_en: r.cerrado_at?.toISOString() ?? null,
  nota_cierre: r.nota_cierre
})

export const consolaRoutes = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const operadores = yield* OperadorService

    const saltoMaxPct = settings.tasaSaltoMaxPct ?? TasaBcv.SALTO_MAX_PCT

    const tasaView = Effect.gen(function* () {
      const rows = yield* sql<{
        ves_por_usd: string
        fuente: string
        actor: string | null
        confirmada_por: string | null
        created_at: Date
      }>`
        select t.ves_por_usd::text as ves_por_usd, t.fuente, t.actor, o.email as confirmada_por, t.created_at
        from tasas_bcv t
          left join tasas_bcv_propuestas p on p.tasa_id = t.id
          left join operadores o on o.id = p.resuelta_por
        order by t.id desc limit 100`
      const now = Date.now()
      const shown = rows.map((r) => ({
        ves_por_usd: Number(r.ves_por_usd),
        fuente: r.fuente,
        fijada_por:
          r.fuente === "token" ? "token de administración" : r.fuente === "url" ? "fuente" : r.actor,
        confirmada_por: r.confirmada_por,
        actualizada_en: r.created_at.toISOString()
      }))
      const vigente = rows[0]
      const pendiente = yield* TasaBcv.pendiente.pipe(Effect.provideService(SqlClient.SqlClient, sql))
      return {
        vigente: shown[0] ?? null,
        vencida:
          vigente === undefined || now - vigente.created_at.getTime() > settings.tasaMaxHoras * 3600_000,
        max_horas: settings.tasaMaxHoras,
        salto_max_pct: saltoMaxPct,
        pendiente: Option.getOrNull(pendiente),
        fuente_configurada: (settings.tasaFuenteUrl ?? null) !== null,
        historial: shown
      }
    }).pipe(Effect.orDie)

    const propuestaId = Effect.flatMap(HttpRouter.params, (params) =>
      PROPUESTA_ID.test(params.id ?? "")
        ? Effect.succeed(Number(params.id))
        : Effect.fail(OperadorError.notFound())
    )

    /** A tesorería operator's answer to the waiting rate, audited with it; the alert ends with it. */
    const resolverPropuesta = (decision: "confirmar" | "rechazar"): Ruta["handler"] =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const id = yield* propuestaId
        const input = yield* decodeBody(CierreBody)(yield* ctx.body)
        const done = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const antes = (yield* tasaView).vigente
              const done = yield* TasaBcv.resolver(id, decision, who).pipe(
                Effect.provideService(SqlClient.SqlClient, sql)
              )
              if (Either.isLeft(done)) return done
              yield* operadores.auditar(who, {
                accion: decision === "confirmar" ? "tasa.confirmar" : "tasa.rechazar",
                objeto_tipo: "tasa_bcv_propuesta",
                objeto_id: String(id),
                antes,
                despues: {
                  ...done.right.propuesta,
                  ...(done.right.tasaId === null ? {} : { tasa_id: done.right.tasaId })
                },
                nota: input.nota
              })
              yield* Alertas.resolver(sql, "tasa:salto")
              return done
            })
          )
          .pipe(Effect.orDie)
        if (Either.isLeft(done))
          return yield* Effect.fail(
            done.left === "no_existe"
              ? OperadorError.notFound()
              : done.left === "no_pendiente"
                ? OperadorError.conflict(
                    "propuesta_resuelta",
                    "Esa tasa propuesta ya no espera confirmación."
                  )
                : OperadorError.forbidden(
                    "cuatro_ojos",
                    "Otro operador de tesorería debe confirmar la tasa que propusiste."
                  )
          )
        return json(yield* tasaView)
      }) as Ruta["handler"]

    const incidenteId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    const routes: ReadonlyArray<Ruta> = [
      {
        method: "get",
        path: "/admin/v1/operador/tasa-bcv",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          return json(yield* tasaView)
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/tasa-bcv",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const input = yield* decodeBody(TasaBody)(yield* ctx.body)
          const rate = Money.rate(String(input.ves_por_usd))
          if (Either.isLeft(rate) || !/^\d{1,12}(\.\d{1,8})?$/.test(String(input.ves_por_usd)))
            return yield* Effect.fail(
              OperadorError.validation({ fieldErrors: { ves_por_usd: ["mayor que 0, hasta 8 decimales"] } })
            )
          const done = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const antes = (yield* tasaView).vigente
                const done = yield* TasaBcv.proponer(
                  rate.right,
                  { fuente: "operador", operadorId: who.id, actor: who.email },
                  saltoMaxPct,
                  input.nota
                ).pipe(Effect.provideService(SqlClient.SqlClient, sql))
                yield* operadores.auditar(
                  who,
                  done._tag === "Fijada"
                    ? {
                        accion: "tasa.fijar",
                        objeto_tipo: "tasa_bcv",
                        objeto_id: String(done.id),
                        antes,
                        despues: { ves_por_usd: Money.rateToNumber(rate.right) },
                        nota: input.nota
                      }
                    : {
                        accion: "tasa.proponer",
                        objeto_tipo: "tasa_bcv_propuesta",
                        objeto_id: String(done.propuesta.id),
                        antes,
                        despues: done.propuesta,
                        nota: input.nota
                      }
                )
                if (done._tag === "Pendiente") yield* Alertas.alertarSalto(sql, settings, done.propuesta)
                return done
              })
            )
            .pipe(Effect.orDie)
          if (done._tag === "Pendiente")
            return json(
              {
                estado: "pendiente_confirmacion",
                detail: `La tasa se aleja ${done.propuesta.salto_pct} % de la vigente (más de ${saltoMaxPct} %): otro operador de tesorería debe confirmarla. Mientras tanto rige la vigente.`,
                ...(yield* tasaView)
              },
              202
            )
          return json(yield* tasaView, 201)
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/tasa-bcv/fuente",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const got = yield* FuenteTasa.fetchOnce(sql, settings)
          yield* operadores.auditar(who, {
            accion: "tasa.consultar_fuente",
            objeto_tipo: "tasa_bcv",
            objeto_id: "fuente",
            despues: Either.isRight(got)
              ? {
                  ves_por_usd: Money.rateToNumber(got.right.rate),
                  ...(got.right.resultado._tag === "Pendiente"
                    ? { pendiente_confirmacion: got.right.resultado.propuesta.id }
                    : {})
                }
              : { error: got.left }
          })
          if (Either.isLeft(got))
            return yield* Effect.fail(
              new OperadorError({ status: 502, error: "fuente_tasa_fallo", detail: got.left })
            )
          return json(yield* tasaView)
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/tasa-bcv/propuestas/:id/confirmar",
        handler: resolverPropuesta("confirmar")
      },
      {
        method: "post",
        path: "/admin/v1/operador/tasa-bcv/propuestas/:id/rechazar",
        handler: resolverPropuesta("rechazar")
      },
      {
        method: "get",
        path: "/admin/v1/operador/incidentes",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          const rows = yield* sql<IncidenteRow>`
            select id::text as id, banco, titulo, detalle, (select email from operadores o where o.id = abierto_por) as abierto_por,
              abierto_at, (select email from operadores o where o.id = cerrado_por) as cerrado_por, cerrado_at, nota_cierre
            from incidentes where cerrado_at is null or cerrado_at > now() - interval '7 days'
            order by abierto_at desc limit 200`.pipe(Effect.orDie)
          return json({ data: rows.map(incidenteJson) })
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/incidentes",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const input = yield* decodeBody(IncidenteBody)(yield* ctx.body)
          const id = randomUUID()
          const row = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const [row] = yield* sql<IncidenteRow>`
                  insert into incidentes (id, banco, titulo, detalle, abierto_por)
                  values (${id}, ${input.banco}, ${input.titulo}, ${input.detalle ?? null}, ${who.id})
                  returning id::text as id, banco, titulo, detalle, ${who.email} as abierto_por, abierto_at,
                    null as cerrado_por, cerrado_at, nota_cierre`
                yield* operadores.auditar(who, {
                  accion: "incidente.abrir",
                  objeto_tipo: "incidente",
                  objeto_id: id,
                  despues: { banco: input.banco, titulo: input.titulo, detalle: input.detalle ?? null }
                })
                return row as IncidenteRow
              })
            )
            .pipe(Effect.orDie)
          return json(incidenteJson(row), 201)
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/incidentes/:id/cerrar",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const id = yield* incidenteId
          const input = yield* decodeBody(CierreBody)(yield* ctx.body)
          const row = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const [row] = yield* sql<IncidenteRow>`
                  update incidentes set cerrado_at = now(), cerrado_por = ${who.id}, nota_cierre = ${input.nota ?? null}
                  where id = ${id} and cerrado_at is null
                  returning id::text as id, banco, titulo, detalle,
                    (select email from operadores o where o.id = abierto_por) as abierto_por, abierto_at,
                    ${who.email} as cerrado_por, cerrado_at, nota_cierre`
                if (row === undefined) return undefined
                yield* operadores.auditar(who, {
                  accion: "incidente.cerrar",
                  objeto_tipo: "incidente",
                  objeto_id: id,
                  despues: { cerrado_en: row.cerrado_at?.toISOString() },
                  nota: input.nota
                })
                return row
              })
            )
            .pipe(Effect.orDie)
          if (row === undefined) {
            const exists = yield* sql`select 1 from incidentes where id = ${id}`.pipe(Effect.orDie)
            return yield* Effect.fail(
              exists.length === 0
                ? OperadorError.notFound()
                : OperadorError.conflict("incidente_cerrado", "El incidente ya está cerrado.")
            )
          }
          return json(incidenteJson(row))
        })
      },
      {
        method: "get",
        path: "/admin/v1/operador/alertas",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          return json({ data: (yield* Alertas.abiertas(sql)).map(Alertas.alertaJson) })
        })
      }
    ]
    return routes
  })
