/**
 * The operators' routes (issue 32), plain routes beside the public HttpApi (kept out of
 * `/openapi.json`, like the rest of the admin API):
 *
 * - `POST /admin/v1/operadores` (the `x-admin-token` of SWITCH_ADMIN_TOKEN, for automation):
 *   creates an operator `{email, password, rol}` and answers `201` with its TOTP secret, shown
 *   this once (`Cache-Control: no-store`); `409 operador_existe` for a known e-mail.
 * - `/admin/v1/operador/...`: the console's API, for an operator session only. Sign-in
 *   (`POST /admin/v1/operador/sesion` with `{email, password, codigo}`) sets the `switch_operador`
 *   cookie (HttpOnly, SameSite=Strict, scoped to this path: never the merchants' cookie and never
 *   sent anywhere else); every other unsafe request needs the session's `x-csrf-token`. The role
 *   is checked here, on the server: `soporte` reads, `riesgo` approves, reviews, suspends and
 *   reactivates merchants. Every action writes its audit row in the action's own transaction.
 *
 * With SWITCH_ADMIN_TOKEN unset the whole admin API (these routes too) answers `404`.
 */
import { timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { RateLimit } from "@switch/core"
import { Effect, Option, Redacted, Schema } from "effect"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { csrfMatches } from "../http/Session.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { type AccionError, ComercioAcciones } from "./Comercios.js"
import {
  ABSOLUTE_HOURS,
  type AuditRow,
  decodeBody,
  OperadorError,
  OperadorService,
  type OperadorSession,
  type Rol
} from "./OperadorService.js"

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

    /** The operator of the request's session, with the CSRF check on unsafe methods and the role check. */
    const operador = (roles: ReadonlyArray<Rol> | "todos") =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = request.cookies[OPERADOR_COOKIE]
        const found = token === undefined || token === "" ? Option.none() : yield* operadores.sesion(token)
        if (Option.isNone(found))
          return yield* Effect.fail(OperadorError.unauthorized("Inicia sesión como operador."))
        const s = found.value
        if (!SAFE_METHODS.has(request.method) && !csrfMatches(request.headers["x-csrf-token"], s.csrf))
          return yield* Effect.fail(
            OperadorError.forbidden(
              "csrf_invalido",
              "Falta el encabezado x-csrf-token de la sesión o no coincide."
            )
          )
        if (roles !== "todos" && !roles.includes(s.rol))
          return yield* Effect.fail(
            OperadorError.forbidden("rol_insuficiente", `El rol ${s.rol} no puede hacer esta acción.`)
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
          return setCookie(json(sessionView(signed.sesion)), signed.token, ABSOLUTE_HOURS * 3600)
        })
      )
    )
    yield* router.get(
      "/admin/v1/operador/sesion",
      gate(Effect.map(operador("todos"), (s) => json(sessionView(s))))
    )
    yield* router.del(
      "/admin/v1/operador/sesion",
      gate(
        Effect.gen(function* () {
          yield* operadores.cerrar(yield* operador("todos"))
          return setCookie(HttpServerResponse.empty({ status: 204 }), "", 0)
        })
      )
    )

    yield* router.get(
      "/admin/v1/operador/resumen",
      gate(
        Effect.gen(function* () {
          yield* operador("todos")
          const [row] = yield* sql<{ pendientes: number; suspendidos: number; links_revision: number }>`
            select
              (select count(*)::int from comercios where estado = 'pendiente' and aprobado_at is null) as pendientes,
              (select count(*)::int from comercios where estado = 'suspendido') as suspendidos,
              (select count(*)::int from links where estado = 'revision') as links_revision`.pipe(
            Effect.orDie
          )
          return json({
            comercios_pendientes: row?.pendientes ?? 0,
            comercios_suspendidos: row?.suspendidos ?? 0,
            links_en_revision: row?.links_revision ?? 0
          })
        })
      )
    )

    yield* router.get(
      "/admin/v1/operador/comercios",
      gate(
        Effect.gen(function* () {
          yield* operador("todos")
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
          }>`
            select codigo, nombre, identificacion, email, estado, kyc_tier, revisado, aprobado_at, created_at
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
          yield* operador("todos")
          return json(yield* admin.view(yield* codigo).pipe(Effect.mapError(fromAdmin)))
        })
      )
    )

    /** A merchant action by a `riesgo` operator: before, the action, after and its audit row, in one transaction. */
    const merchantAction = (
      accion: string,
      run: (codigo: string, input: Record<string, unknown>) => Effect.Effect<unknown, AccionError>,
      schema: Schema.Schema<{ readonly nota?: string | undefined }, unknown> = NotaBody as never
    ) =>
      gate(
        Effect.gen(function* () {
          const who = yield* operador(["riesgo"])
          const code = yield* codigo
          const input = (yield* decodeBody(schema)(yield* body)) as Record<string, unknown> & {
            nota?: string
          }
          const { nota, ...rest } = input
          const result = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const antes = yield* admin.view(code)
                const result = yield* run(code, rest)
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
          return secretJson(result)
        })
      )

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
      merchantAction("comercio.suspender", (code) => admin.patch(code, { estado: "suspendido" }))
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
          yield* operador("todos")
          const page = yield* operadores.auditoria(yield* auditQuery)
          return json({ data: page.data.map(auditJson), has_more: page.has_more })
        })
      )
    )
    yield* router.get(
      "/admin/v1/operador/auditoria.csv",
      gate(
        Effect.gen(function* () {
          yield* operador("todos")
          const query = yield* auditQuery
          const page = yield* operadores.auditoria({ ...query, limit: Math.max(query.limit, 1000) })
          return HttpServerResponse.text(`${toCsv(page.data)}\r\n`, {
            contentType: "text/csv; charset=utf-8",
            headers: { "content-disposition": 'attachment; filename="auditoria.csv"' }
          })
        })
      )
    )
  })
)
