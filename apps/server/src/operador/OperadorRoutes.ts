/**
 * The operators' routes (issue 32), plain routes beside the public HttpApi (kept out of
 * `/openapi.json`, like the rest of the admin API):
 *
 * - `POST /admin/v1/operadores` (the `x-admin-token` of SWITCH_ADMIN_TOKEN, for automation):
 *   creates an operator `{email, password, rol}` and answers `201` with its TOTP secret, shown
 *   this once (`Cache-Control: no-store`); `409 operador_existe` for a known e-mail.
 * - `/admin/v1/operador/...`: the console's API, for an operator session only. Sign-in
 *   (`POST /admin/v1/operador/sesion` with `{email, password, codigo}`; an operator whose TOTP was
 *   reset and who sends no code gets `202 {estado: "totp_por_configurar", totp_secret, totp_uri}`
 *   after its password, and enrols with its first code) sets the `switch_operador`
 *   cookie (HttpOnly, SameSite=Strict, scoped to this path: never the merchants' cookie and never
 *   sent anywhere else); every other unsafe request needs the session's `x-csrf-token`. The role
 *   is checked here, on the server: `soporte` reads, `riesgo` approves, reviews, suspends and
 *   reactivates merchants. Every action writes its audit row in the action's own transaction;
 *   a signed-in operator's request refused for its role or its CSRF token writes one too
 *   (`acceso.rechazado`, the route as `objeto_id`, the answer in `despues`).
 *
 * With SWITCH_ADMIN_TOKEN unset the whole admin API (these routes too) answers `404`.
 */
import { randomUUID, timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import type { RateLimit } from "@switch/core"
import { Money, type Ports } from "@switch/core"
import { Effect, Option, Redacted, Schema } from "effect"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { csrfMatches } from "../http/Session.js"
import * as AvisosDueno from "../platform/AvisosDueno.js"
import { Banks } from "../platform/bank/Banks.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { adminOpenApi } from "./AdminOpenApi.js"
import { type AccionError, ComercioAcciones } from "./Comercios.js"
import { configuracionRoute } from "./Configuracion.js"
import { consolaRoutes } from "./Consola.js"
import { cuentasBloqueadasRoutes } from "./CuentasBloqueadas.js"
import * as Cola from "./cola/Cola.js"
import { colaRoutes, listarCola } from "./cola/Fuentes.js"
import type { SettlementRow } from "./cola/Liquidaciones.js"
import * as Liquidaciones from "./cola/Liquidaciones.js"
import { operadoresRoutes } from "./Operadores.js"
import {
  ABSOLUTE_HOURS,
  type AuditRow,
  decodeBody,
  OperadorError,
  OperadorService,
  type OperadorSession
} from "./OperadorService.js"
import { admite, type Quien, rolesDe } from "./Roles.js"

export const OPERADOR_COOKIE = "switch_operador"
const COOKIE_PATH = "/admin/v1/operador"
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])
const CODIGO = /^[a-z0-9_-]{3,32}$/

/** Requests per minute per IP to the operators' routes, counted before any check. */
const OPERADOR_POR_IP: RateLimit.Policy = {
  name: "operador_ip",
  limit: 300,
  windowSeconds: 60,
  scope: "ip",
  liveOnly: false
}

const sameToken = (expected: Redacted.Redacted<string>, given: string): boolean => {
  const a = Buffer.from(Redacted.value(expected), "utf8")
  const b = Buffer.from(given, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

const errorBody = (error: {
  readonly error: string
  readonly detail?: unknown
  readonly reintentar_en?: number | undefined
}) => ({
  error: error.error,
  ...(error.detail === undefined ? {} : { detail: error.detail }),
  ...(error.reintentar_en === undefined ? {} : { reintentar_en: error.reintentar_en })
})

const fromAdmin = (error: AccionError | OperadorError) =>
  error instanceof OperadorError
    ? error
    : new OperadorError({ status: error.status, error: error.error, detail: error.detail })

const sessionView = (s: OperadorSession) => ({
  operador: { id: s.id, email: s.email, rol: s.rol },
  csrf_token: s.csrf,
  expira_en: s.expiresAt.toISOString()
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const MarcarPagadaBody = Schema.Struct({
  referencia_banco: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

const NotaBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })
const AprobarBody = Schema.Struct({
  cuenta_liquidacion: Schema.optional(Schema.Unknown),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})

/** A CSV field: quoted, quotes doubled; a leading `= + - @` is defused for spreadsheets. */
const csvField = (value: unknown): string => {
  const text =
    value === null || value === undefined
      ? ""
      : value instanceof Date
        ? value.toISOString()
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value)
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replaceAll('"', '""')}"`
}

const CSV_COLUMNS = [
  "id",
  "created_at",
  "actor",
  "operador_id",
  "accion",
  "objeto_tipo",
  "objeto_id",
  "antes",
  "despues",
  "nota"
] as const

export const toCsv = (rows: ReadonlyArray<AuditRow>) =>
  [CSV_COLUMNS.join(","), ...rows.map((row) => CSV_COLUMNS.map((c) => csvField(row[c])).join(","))].join(
    "\r\n"
  )

const auditJson = (row: AuditRow) => ({ ...row, created_at: row.created_at.toISOString() })

export const OperadorRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const limiter = yield* RateLimiter
    const operadores = yield* OperadorService
    const admin = yield* ComercioAcciones
    const sql = yield* SqlClient.SqlClient
    const banks = yield* Banks
    const pg = yield* PgClient.PgClient
    const secure = settings.baseUrl.startsWith("https:")

    type Handler<R> = Effect.Effect<HttpServerResponse.HttpServerResponse, OperadorError, R>

    /** The admin API's gate (404 without the setting) and the per-address limit. */
    const gate = <R>(handler: Handler<R>) =>
      Effect.gen(function* () {
        if (Option.isNone(settings.adminToken)) return yield* Effect.fail(OperadorError.notFound())
        const decision = yield* limiter.hit(OPERADOR_POR_IP, yield* clientIp)
        if (!decision.allowed)
          return yield* Effect.fail(
            new OperadorError({
              status: 429,
              error: "demasiadas_solicitudes",
              detail: `Demasiadas solicitudes. Intenta de nuevo en ${decision.retryAfterSeconds} s.`,
              reintentar_en: decision.retryAfterSeconds
            })
          )
        return yield* handler
      }).pipe(
        Effect.catchTag("OperadorError", (error) =>
          Effect.succeed(
            error.status === 429 && error.reintentar_en !== undefined
              ? HttpServerResponse.unsafeJson(errorBody(error), {
                  status: 429,
                  headers: { "retry-after": String(error.reintentar_en) }
                })
              : json(errorBody(error), error.status)
          )
        ),
        Effect.map((response) => HttpServerResponse.setHeader(response, "cache-control", "no-store"))
      )

    const withToken = <R>(handler: Handler<R>) =>
      gate(
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (
            Option.isNone(settings.adminToken) ||
            !sameToken(settings.adminToken.value, request.headers["x-admin-token"] ?? "")
          )
            return yield* Effect.fail(OperadorError.unauthorized("Falta x-admin-token o no es válido."))
          return yield* handler
        })
      )

    /**
     * A refused attempt of a signed-in operator (issue 41): its audit row, on its own (no action's
     * transaction is open yet), with the route asked for and the answer it got.
     */
    const refused = (s: OperadorSession, error: OperadorError, roles: Quien | undefined) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const path = new URL(request.url, "http://x").pathname.slice(0, 300)
        yield* operadores.auditar(s, {
          accion: "acceso.rechazado",
          objeto_tipo: "ruta",
          objeto_id: `${request.method} ${path}`,
          despues: {
            resultado: error.status,
            error: error.error,
            rol: s.rol,
            ...(roles === "todos" ? {} : { roles_permitidos: roles ?? [] })
          }
        })
        return yield* Effect.fail(error)
      })

    /**
     * The operator of the request's session, with the CSRF check on unsafe methods and the role
     * check: the roles are the matched route's entry in Roles.ts (none: nobody's); a refusal of
     * either is audited.
     */
    const operador = () =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const matched = yield* Effect.serviceOption(HttpRouter.RouteContext)
        const roles = Option.isSome(matched)
          ? rolesDe(matched.value.route.method, matched.value.route.path)
          : undefined
        const token = request.cookies[OPERADOR_COOKIE]
        const found = token === undefined || token === "" ? Option.none() : yield* operadores.sesion(token)
        if (Option.isNone(found))
          return yield* Effect.fail(OperadorError.unauthorized("Inicia sesión como operador."))
        const s = found.value
        if (!SAFE_METHODS.has(request.method) && !csrfMatches(request.headers["x-csrf-token"], s.csrf))
          return yield* refused(
            s,
            OperadorError.forbidden(
              "csrf_invalido",
              "Falta el encabezado x-csrf-token de la sesión o no coincide."
            ),
            roles
          )
        if (!admite(roles, s.rol))
          return yield* refused(
            s,
            OperadorError.forbidden("rol_insuficiente", `El rol ${s.rol} no puede hacer esta acción.`),
            roles
          )
        return s
      })

    const body = jsonBody.pipe(Effect.mapError((e) => OperadorError.validation(e.detail)))

    const codigo = Effect.flatMap(HttpRouter.params, (params) => {
      const value = params.codigo ?? ""
      return CODIGO.test(value) ? Effect.succeed(value) : Effect.fail(OperadorError.notFound())
    })

    const setCookie = (
      response: HttpServerResponse.HttpServerResponse,
      token: string,
      maxAgeSeconds: number
    ) =>
      HttpServerResponse.unsafeSetCookie(response, OPERADOR_COOKIE, token, {
        httpOnly: true,
        secure,
        sameSite: "strict",
        path: COOKIE_PATH,
        maxAge: `${maxAgeSeconds} seconds`
      })

    yield* router.get("/admin/v1/openapi.json", gate(Effect.succeed(json(adminOpenApi()))))

    // Operators are created by automation with the admin token.
    yield* router.post(
      "/admin/v1/operadores",
      withToken(
        Effect.gen(function* () {
          const created = yield* operadores.crear(yield* body)
          yield* operadores.auditar("admin", {
            accion: "operador.crear",
            objeto_tipo: "operador",
            objeto_id: created.id,
            despues: { email: created.email, rol: created.rol, activo: created.activo }
          })
          return secretJson(created, 201)
        })
      )
    )

    yield* router.post(
      "/admin/v1/operador/sesion",
      gate(
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const signed = yield* operadores.iniciar(
            yield* body,
            yield* clientIp,
            request.cookies[OPERADOR_COOKIE]
          )
          // A TOTP reset: no session yet; the new secret goes to the operator who gave its password.
          if (signed._tag === "Enrolar")
            return secretJson(
              {
                estado: "totp_por_configurar",
                detail:
                  "Tu autenticador fue restablecido: agrega esta clave a tu aplicación y entra con su código.",
                totp_secret: signed.totp_secret,
                totp_uri: signed.totp_uri
              },
              202
            )
          return setCookie(json(sessionView(signed.sesion)), signed.token, ABSOLUTE_HOURS * 3600)
        })
      )
    )
    yield* router.get("/admin/v1/operador/sesion", gate(Effect.map(operador(), (s) => json(sessionView(s)))))
    yield* router.del(
      "/admin/v1/operador/sesion",
      gate(
        Effect.gen(function* () {
          yield* operadores.cerrar(yield* operador())
          return setCookie(HttpServerResponse.empty({ status: 204 }), "", 0)
        })
      )
    )

    yield* router.get(
      "/admin/v1/operador/resumen",
      gate(
        Effect.gen(function* () {
          yield* operador()
          const [row] = yield* sql<{
            pendientes: number
            suspendidos: number
            links_revision: number
            liquidaciones_revision: number
          }>`
            select
              (select count(*)::int from comercios where estado = 'pendiente' and aprobado_at is null) as pendientes,
              (select count(*)::int from comercios where estado = 'suspendido') as suspendidos,
              (select count(*)::int from links where estado = 'revision') as links_revision,
              (select count(*)::int from transacciones where operacion = 'liquidacion' and estado = 'REVISION')
                as liquidaciones_revision`.pipe(Effect.orDie)
          return json({
            comercios_pendientes: row?.pendientes ?? 0,
            comercios_suspendidos: row?.suspendidos ?? 0,
            links_en_revision: row?.links_revision ?? 0,
            liquidaciones_en_revision: row?.liquidaciones_revision ?? 0
          })
        })
      )
    )

    yield* router.get(
      "/admin/v1/operador/comercios",
      gate(
        Effect.gen(function* () {
          yield* operador()
          const request = yield* HttpServerRequest.HttpServerRequest
          const estado = new URL(request.url, "http://x").searchParams.get("estado") ?? "pendiente"
          if (!["pendiente", "activo", "suspendido"].includes(estado))
            return yield* Effect.fail(
              OperadorError.validation({ fieldErrors: { estado: ["pendiente, activo o suspendido"] } })
            )
          const rows = yield* sql<{
            codigo: string
            nombre: string
            identificacion: string
            email: string
            estado: string
            kyc_tier: number
            revisado: boolean
            aprobado_at: Date | null
            created_at: Date
            liquidacion_inmediata: boolean
            split_habilitado: boolean
            tarjeta_habilitada: boolean
            reembolsos_habilitado: boolean
          }>`
            select codigo, nombre, identificacion, email, estado, kyc_tier, revisado, aprobado_at, created_at,
              liquidacion_inmediata, split_habilitado, tarjeta_habilitada, reembolsos_habilitado
            from comercios
            where estado = ${estado} and (${estado} <> 'pendiente' or aprobado_at is null)
            order by created_at asc limit 200`.pipe(Effect.orDie)
          return json({
            data: rows.map((r) => ({
              ...r,
              aprobado_at: r.aprobado_at?.toISOString() ?? null,
              created_at: r.created_at.toISOString()
            }))
          })
        })
      )
    )
    yield* router.get(
      "/admin/v1/operador/comercios/:codigo",
      gate(
        Effect.gen(function* () {
          yield* operador()
          return json(yield* admin.view(yield* codigo).pipe(Effect.mapError(fromAdmin)))
        })
      )
    )

    /** A merchant action by a `riesgo` operator: before, the action, after and its audit row, in one transaction. */
    const merchantAction = (
      accion: string,
      run: (
        codigo: string,
        input: Record<string, unknown>,
        nota: string | undefined
      ) => Effect.Effect<unknown, AccionError>,
      schema: Schema.Schema<{ readonly nota?: string | undefined }, unknown> = NotaBody as never
    ) =>
      gate(
        Effect.gen(function* () {
          const who = yield* operador()
          const code = yield* codigo
          const input = (yield* decodeBody(schema)(yield* body)) as Record<string, unknown> & {
            nota?: string
          }
          const { nota, ...rest } = input
          const result = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const antes = yield* admin.view(code)
                const result = yield* run(code, rest, nota)
                const despues = yield* admin.view(code)
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: "comercio",
                  objeto_id: code,
                  antes,
                  despues,
                  nota
                })
                return result
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die), Effect.mapError(fromAdmin))
          return json(result)
        })
      )

    // No key for operators (issue 41): approving here mints none; the merchant's owner creates
    // its live keys in the portal.
    yield* router.post(
      "/admin/v1/operador/comercios/:codigo/aprobar",
      merchantAction("comercio.aprobar", (code, input) => admin.approve(code, input), AprobarBody as never)
    )
    yield* router.post(
      "/admin/v1/operador/comercios/:codigo/revisar",
      merchantAction("comercio.revisar", (code) => admin.review(code))
    )
    yield* router.post(
      "/admin/v1/operador/comercios/:codigo/suspender",
      merchantAction("comercio.suspender", (code, _input, nota) =>
        admin.patch(code, { estado: "suspendido" }, { nota })
      )
    )
    yield* router.post(
      "/admin/v1/operador/comercios/:codigo/reactivar",
      merchantAction("comercio.reactivar", (code) => admin.patch(code, { estado: "activo" }))
    )

    const auditQuery = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = new URL(request.url, "http://x").searchParams
      const limit = Number(params.get("limit") ?? "50")
      const after = params.get("starting_after")
      if (
        !Number.isInteger(limit) ||
        limit < 1 ||
        limit > 1000 ||
        (after !== null && !/^\d{1,18}$/.test(after))
      )
        return yield* Effect.fail(
          new OperadorError({
            status: 400,
            error: "parametro",
            detail: "limit (1 a 1000) o starting_after no válido."
          })
        )
      return {
        limit,
        startingAfter: after === null ? undefined : Number(after),
        objetoTipo: params.get("objeto_tipo") ?? undefined,
        objetoId: params.get("objeto_id") ?? undefined
      }
    })

    yield* router.get(
      "/admin/v1/operador/auditoria",
      gate(
        Effect.gen(function* () {
          yield* operador()
          const page = yield* operadores.auditoria(yield* auditQuery)
          return json({ data: page.data.map(auditJson), has_more: page.has_more })
        })
      )
    )
    yield* router.get(
      "/admin/v1/operador/auditoria.csv",
      gate(
        Effect.gen(function* () {
          yield* operador()
          const query = yield* auditQuery
          const page = yield* operadores.auditoria({ ...query, limit: Math.max(query.limit, 1000) })
          return HttpServerResponse.text(`${toCsv(page.data)}\r\n`, {
            contentType: "text/csv; charset=utf-8",
            headers: { "content-disposition": 'attachment; filename="auditoria.csv"' }
          })
        })
      )
    )

    // Money in review: settlements (`liquidacion` transactions in `REVISION`) and links in
    // `revision`, oldest first, with their age and amount.
    yield* router.get(
      "/admin/v1/operador/revision",
      gate(
        Effect.gen(function* () {
          yield* operador()
          return json({ data: yield* listarCola(sql, settings) })
        })
      )
    )

    const txnId = Effect.flatMap(HttpRouter.params, (params) => {
      const value = params.id ?? ""
      return UUID.test(value) ? Effect.succeed(value) : Effect.fail(OperadorError.notFound())
    })

    /**
     * The settlement in review, locked for this transaction. A link with a split: only the
     * merchant's part of a finished live split (`repartido` or `cerrado`, not stopped by a refund,
     * the row's amount its `monto_comercio`) is resolved here, and its `link.acreditado` carries
     * the `reparto` (SPEC); any other (the whole net held because the link has a split) is refused.
     */
    const lockSettlement = (id: string) =>
      Effect.gen(function* () {
        const row = Option.getOrUndefined(yield* Liquidaciones.bloquear(pg, id))
        if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
        if (row.estado !== "REVISION")
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `La liquidación está ${row.estado}, no en revisión.`)
          )
        if (row.con_reparto)
          return yield* Effect.fail(
            OperadorError.conflict(
              "reparto_en_revision",
              "La liquidación de un link con reparto se resuelve por partes; la consola aún no lo hace."
            )
          )
        return row
      })

    const settlementView = (row: SettlementRow) => ({
      id: row.id,
      link_id: row.link_id,
      estado: row.estado,
      monto: Money.toNumber(Money.Cents(row.monto)),
      motivo: row.motivo_rechazo,
      referencia_banco: row.referencia_banco
    })

    /** LIQUIDADA with the bank's reference, and `link.acreditado` once (its dedupe is per link). */
    const settle = (row: SettlementRow, referencia: string) => Liquidaciones.liquidar(pg, row, referencia)

    const resolve = <A>(
      accion: string,
      run: (
        who: OperadorSession,
        row: SettlementRow
      ) => Effect.Effect<
        { row: SettlementRow; nota?: string | undefined; extra?: A },
        OperadorError | SqlError,
        HttpServerRequest.HttpServerRequest
      >
    ) =>
      gate(
        Effect.gen(function* () {
          const who = yield* operador()
          const id = yield* txnId
          const result = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                // Asking the bank: allowed while a payment or a hand-recorded resolution is under way.
                const antes = yield* lockSettlement(id)
                const done = yield* run(who, antes)
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: "liquidacion",
                  objeto_id: id,
                  antes: settlementView(antes),
                  despues: settlementView(done.row),
                  nota: done.nota
                })
                return {
                  ...settlementView(done.row),
                  ...(done.extra === undefined ? {} : { banco: done.extra })
                }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          return json(result)
        })
      )

    // Marking paid and closing without paying, with four eyes from SWITCH_CUATRO_OJOS_DESDE (cola/Cola.ts).
    for (const ruta of Cola.manuales({
      ctx: { operador, body },
      sql,
      settings,
      auditar: operadores.auditar,
      base: "/admin/v1/operador/revision/liquidaciones/:id",
      objetoTipo: "liquidacion",
      clave: txnId,
      objetoId: (id) => id,
      // While a payment through the bank is asked for or on its way, only asking the bank is allowed.
      bloquear: (id) =>
        Effect.gen(function* () {
          const row = yield* lockSettlement(id)
          const open = yield* sql`
            select 1 from pagos_revision where transaccion_id = ${id} and estado in ('pendiente', 'enviado')`
          if (open.length > 0)
            return yield* Effect.fail(
              OperadorError.conflict("pago_en_curso", "Hay un pago por el banco pendiente o enviado.")
            )
          return row
        }),
      monto: (row) => row.monto,
      vista: settlementView,
      marcarPagada: {
        auditoria: "liquidacion.marcar_pagada",
        schema: MarcarPagadaBody,
        aplicar: (_who, row, input) =>
          Effect.map(settle(row, input.referencia_banco), (done) => ({
            despues: settlementView(done),
            respuesta: settlementView(done),
            nota: input.nota
          }))
      },
      cerrar: {
        auditoria: "liquidacion.cerrar_sin_pagar",
        schema: CerrarBody,
        aplicar: (_who, row, input) =>
          Effect.gen(function* () {
            const motivo = `cerrada sin pagar: ${input.nota}`
            yield* sql`
              update transacciones set estado = 'RECHAZADA', motivo_rechazo = ${motivo}
              where id = ${row.id} and estado = 'REVISION'`
            // The owners hear of it, with the operator's note (issue 45).
            yield* AvisosDueno.encolar(sql, row.comercio_id, {
              tipo: "liquidacion_cerrada",
              liquidacion_id: row.id,
              link_id: row.link_id,
              monto: row.monto,
              nota: input.nota
            })
            const done = settlementView({ ...row, estado: "RECHAZADA", motivo_rechazo: motivo })
            return { despues: done, respuesta: done, nota: input.nota }
          })
      }
    }))
      yield* router.post(ruta.path, gate(ruta.handler))
    yield* router.post(
      "/admin/v1/operador/revision/liquidaciones/:id/consultar",
      resolve("liquidacion.consultar_banco", (who, row) =>
        Effect.gen(function* () {
          // Asks about the order by its own id (a payment under way: its request's id); nothing is sent again.
          const [pago] = yield* sql<{ id: string }>`
            select id from pagos_revision where transaccion_id = ${row.id} and estado = 'enviado'`
          const answer = yield* banks.forMode(row.mode).query(pago?.id ?? row.id)
          yield* Cola.guardarRespuesta(sql, {
            objeto_tipo: "liquidacion",
            objeto_id: row.id,
            answer,
            origen: "operador",
            operadorId: who.id
          })
          if (pago !== undefined && answer.estado === "LIQUIDADA" && answer.referencia_banco !== null)
            yield* sql`update pagos_revision set estado = 'pagado' where id = ${pago.id}`
          const extra = {
            estado: answer.estado,
            referencia_banco: answer.referencia_banco,
            motivo_rechazo: answer.motivo_rechazo
          }
          if (answer.estado === "LIQUIDADA" && answer.referencia_banco !== null)
            return { row: yield* settle(row, answer.referencia_banco), extra }
          return { row, extra }
        })
      )
    )

    /** The service's operating account, the payer of settlement credits (as in settlement/Settlement.ts). */
    const ORDENANTE: Ports.Party = {
      tipo: "cuenta",
      valor: "01020000000000000000",
      banco: "0102",
      identificacion: "J000000000",
      tipo_doc: "J",
      nombre: "Switch liquidaciones"
    }
    const umbralCentimos = Math.round((settings.cuatroOjosDesde ?? 0) * 100)

    /**
     * Sends a confirmed payment to the bank. The request row (its id is the order's id) was
     * committed as `enviado` before this runs, so a crash never sends a second order: the
     * request stays `enviado`, and its id is what the bank is asked about.
     */
    const sendPayment = (who: OperadorSession, pagoId: string, row: SettlementRow) =>
      Effect.gen(function* () {
        const [merchant] = yield* sql<{ cuenta_liquidacion: Ports.Party | null }>`
          select cuenta_liquidacion from comercios where id = ${row.comercio_id}`
        const cuenta = merchant?.cuenta_liquidacion ?? null
        const answer: Ports.BankAnswer =
          cuenta === null
            ? { estado: "ERROR", referencia_banco: null, endtoend: null, motivo_rechazo: "CUENTA_NO_EXISTE" }
            : yield* banks.forMode(row.mode).credit({
                operacionId: pagoId,
                monto: Money.Cents(row.monto),
                concepto: `Liquidación del link ${row.link_id ?? row.id}`,
                ordenante: ORDENANTE,
                beneficiario: cuenta,
                via: "credito_inmediato"
              })
        const banco = {
          estado: answer.estado,
          referencia_banco: answer.referencia_banco,
          motivo_rechazo: answer.motivo_rechazo
        }
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* Cola.guardarRespuesta(sql, {
              objeto_tipo: "liquidacion",
              objeto_id: row.id,
              answer,
              origen: "envio",
              operadorId: who.id
            })
            const antes = yield* lockSettlement(row.id).pipe(Effect.option)
            const liquidada = answer.estado === "LIQUIDADA" && answer.referencia_banco !== null
            const paid = liquidada && antes._tag === "Some"
            const estado = liquidada
              ? "pagado"
              : answer.estado === "ACEPTADA" || answer.estado === "PENDIENTE"
                ? "enviado"
                : "fallido"
            // Left `enviado`, it is asked about again by the reconciler (cola/Liquidaciones.ts).
            const proxima =
              estado === "enviado" ? Liquidaciones.proximaConsulta(settings.conciliarSegundos, 0) : null
            yield* sql`
              update pagos_revision set estado = ${estado},
                respuesta = ${JSON.stringify(banco)}::jsonb, proxima_consulta = ${proxima}
              where id = ${pagoId}`
            const despues = paid ? yield* settle(row, answer.referencia_banco ?? "") : row
            yield* operadores.auditar(who, {
              accion: "liquidacion.pagar_enviado",
              objeto_tipo: "liquidacion",
              objeto_id: row.id,
              antes: settlementView(row),
              despues: { ...settlementView(despues), pago_id: pagoId, banco }
            })
            return { ...settlementView(despues), pago: { id: pagoId, estado }, banco }
          })
        )
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    yield* router.post(
      "/admin/v1/operador/revision/liquidaciones/:id/pagar",
      gate(
        Effect.gen(function* () {
          const who = yield* operador()
          const id = yield* txnId
          const input = yield* decodeBody(NotaBody)(yield* body)
          const pagoId = randomUUID()
          const asked = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const row = yield* lockSettlement(id)
                yield* Cola.sinPendiente(sql, "liquidacion", id)
                const alone = row.monto < umbralCentimos
                const inserted = yield* sql`
                  insert into pagos_revision (id, transaccion_id, monto, solicitado_por, estado, proxima_consulta)
                  values (${pagoId}, ${id}, ${row.monto}, ${who.id}, ${alone ? "enviado" : "pendiente"},
                    ${alone ? Liquidaciones.trasElEnvio(settings) : null})
                  on conflict do nothing returning id`
                if (inserted.length === 0)
                  return yield* Effect.fail(
                    OperadorError.conflict(
                      "pago_en_curso",
                      "Ya hay un pago de esta liquidación pendiente o enviado."
                    )
                  )
                yield* operadores.auditar(who, {
                  accion: "liquidacion.pagar_solicitado",
                  objeto_tipo: "liquidacion",
                  objeto_id: id,
                  antes: settlementView(row),
                  despues: {
                    pago_id: pagoId,
                    monto: Money.toNumber(Money.Cents(row.monto)),
                    cuatro_ojos: !alone
                  },
                  nota: input.nota
                })
                return { row, alone }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          if (!asked.alone)
            return json(
              {
                ...settlementView(asked.row),
                pago: { id: pagoId, estado: "pendiente", requiere_confirmacion: true }
              },
              202
            )
          return json(yield* sendPayment(who, pagoId, asked.row))
        })
      )
    )
    yield* router.post(
      "/admin/v1/operador/revision/liquidaciones/:id/pagar/confirmar",
      gate(
        Effect.gen(function* () {
          const who = yield* operador()
          const id = yield* txnId
          const row = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const row = yield* lockSettlement(id)
                const [pago] = yield* sql<{ id: string; solicitado_por: string }>`
                  select id, solicitado_por from pagos_revision
                  where transaccion_id = ${id} and estado = 'pendiente' for update`
                if (pago === undefined)
                  return yield* Effect.fail(
                    OperadorError.conflict("sin_pago_pendiente", "No hay un pago por confirmar.")
                  )
                if (pago.solicitado_por === who.id)
                  return yield* Effect.fail(
                    OperadorError.forbidden(
                      "cuatro_ojos",
                      "Otro operador de tesorería debe confirmar este pago."
                    )
                  )
                yield* sql`
                  update pagos_revision set estado = 'enviado', confirmado_por = ${who.id}, confirmado_at = now(),
                    proxima_consulta = ${Liquidaciones.trasElEnvio(settings)}
                  where id = ${pago.id}`
                yield* operadores.auditar(who, {
                  accion: "liquidacion.pagar_confirmado",
                  objeto_tipo: "liquidacion",
                  objeto_id: id,
                  despues: { pago_id: pago.id }
                })
                return { row, pagoId: pago.id }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          return json(yield* sendPayment(who, row.pagoId, row.row))
        })
      )
    )

    // The queue's other sources (cola/Fuentes.ts): their actions and the bank answers' history.
    for (const ruta of [
      ...(yield* colaRoutes({ operador, body })),
      ...(yield* consolaRoutes({ operador, body })),
      ...(yield* operadoresRoutes({ operador, body })),
      ...(yield* cuentasBloqueadasRoutes({ operador, body }))
    ])
      yield* ruta.method === "get"
        ? router.get(ruta.path, gate(ruta.handler))
        : router.post(ruta.path, gate(ruta.handler))

    // A merchant's commission, limits and pilots (Configuracion.ts), for `riesgo`.
    yield* router.patch(
      "/admin/v1/operador/comercios/:codigo",
      gate(yield* configuracionRoute({ operador, body }))
    )
  })
)
