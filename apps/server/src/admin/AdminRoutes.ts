/**
 * The operators' admin API (DESIGN.md §5): plain routes beside the public HttpApi, so they are
 * not in `/openapi.json`. Every route needs `x-admin-token` equal to SWITCH_ADMIN_TOKEN; when
 * that setting is absent the whole admin API answers `404` as if it did not exist.
 *
 * Routes and the choices SPEC and DESIGN leave open:
 * - `POST /admin/v1/comercios/{codigo}/aprobar` (body optional: `{cuenta_liquidacion,
 *   emitir_llave}`): KYC tier at least 1 and `activo`. It issues no key unless the caller asks
 *   with `"emitir_llave": true` (issue 41): the merchant's owner creates its live keys in the
 *   portal, so no person in between sees one; automation that needs a live key at once (test
 *   suites, scripts) asks for it, and gets one labelled `aprobacion`, returned once. It needs a
 *   settlement account in the merchant's own name, on record or in the body (else
 *   `409 cuenta_liquidacion_requerida`), so no live payment reaches the bank without one.
 *   Approving again answers `200` with the same state and `ya_aprobado: true`, and mints no key
 *   even when asked (more live keys come from the keys API). A suspended merchant answers
 *   `409 comercio_suspendido`: approval never lifts a suspension by the way. Approval is not the
 *   account review: the new-account caps (US$ 300 a day, US$ 1,000 in total) stay on live money.
 * - `POST /admin/v1/comercios/{codigo}/revisar`: marks the account reviewed, lifting the
 *   new-account caps; `200` with the admin view, the same when repeated.
 * - `PATCH /admin/v1/comercios/{codigo}`: `null` clears a limit, the agreed commission (back to
 *   the 1 % default), the tip cap or the settlement account. `estado: "activo"` lifts a
 *   suspension (back to `pendiente` if the merchant was never approved) and answers
 *   `409 requiere_aprobacion` for a merchant still pending. An approved merchant's settlement
 *   account can be replaced, not cleared (`409 cuenta_liquidacion_requerida`). The settlement account must be in the
 *   merchant's own id (SPEC: receiving accounts are in the merchant's name); accounts are stored
 *   as 20 digits, phones as 11, ids in their canonical form.
 * - `POST /admin/v1/comercios/{codigo}/cuentas-aprobadas`: `201` with the list when added, `200`
 *   with the unchanged list when the account was already there, `409 limite_cuentas` past 20,
 *   `409 cuenta_otro_titular` for an account known under another holder: @switch/core's
 *   `CuentasAprobadas.add`, the rule and answers of the portal's `POST /switch/v1/cuentas-aprobadas`.
 * - `PUT /admin/v1/tasa-bcv`: every rate is a new row; the latest is current (see TasaBcv.ts). A
 *   rate more than SWITCH_TASA_SALTO_MAX_PCT (20 %) away from the current one is not set but
 *   proposed: `202 {estado: "pendiente_confirmacion", propuesta, vigente}`, and nothing converts
 *   at it until a `tesoreria` operator confirms it in the console (issue 41). The token gets no
 *   way around it: it is one secret a single person or a script holds, and a jump from a script
 *   (a unit slip, a bad feed) is the mistake this guard is for.
 * - Additions for operators: `GET /admin/v1/comercios/{codigo}` (the admin view) and
 *   `GET /admin/v1/tasa-bcv` (the current rate, `404` before the first is set).
 */
import { timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { ValidationError } from "@switch/api"
import type { RateLimit } from "@switch/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { AdminError, AdminService, AdminServiceLive } from "./AdminService.js"

/**
 * Admin requests per minute per IP, counted before the token is compared, so a guesser gets
 * no more than this many tries a minute (an operator's tooling stays far below it).
 */
const ADMIN_POR_IP: RateLimit.Policy = {
  name: "admin_ip",
  limit: 300,
  windowSeconds: 60,
  scope: "ip",
  liveOnly: false
}

const CODIGO = /^[a-z0-9_-]{3,32}$/

/** Constant-time comparison; only the length (not secret in practice) can leak. */
const sameToken = (expected: Redacted.Redacted<string>, given: string): boolean => {
  const a = Buffer.from(Redacted.value(expected), "utf8")
  const b = Buffer.from(given, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

const errorResponse = (error: AdminError) =>
  json(
    error.detail === undefined ? { error: error.error } : { error: error.error, detail: error.detail },
    error.status
  )

export const AdminRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const limiter = yield* RateLimiter
    const admin = yield* AdminService
    const sql = yield* SqlClient.SqlClient

    /**
     * An admin-token change in the operators' audit log, as `token_admin` (issue 32): the route's
     * action, its object and the request's body (never an answer: an approval's carries a key).
     */
    const auditar = (accion: string, objetoTipo: string, objetoId: string, despues: unknown) =>
      sql`
        insert into auditoria (operador_id, actor, accion, objeto_tipo, objeto_id, despues)
        values (null, 'token_admin', ${accion}, ${objetoTipo}, ${objetoId}, ${JSON.stringify(despues ?? null)}::jsonb)`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Wraps a handler with the token check and maps its failures to SPEC-shaped bodies. */
    const guarded = (
      handler: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        AdminError,
        HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest
      >
    ) =>
      Effect.gen(function* () {
        if (Option.isNone(settings.adminToken)) return errorResponse(AdminError.notFound())
        const decision = yield* limiter.hit(ADMIN_POR_IP, yield* clientIp)
        if (!decision.allowed) {
          return json(
            {
              error: "demasiadas_solicitudes",
              detail: `Demasiadas solicitudes. Intenta de nuevo en ${decision.retryAfterSeconds} s.`,
              reintentar_en: decision.retryAfterSeconds
            },
            429
          )
        }
        const request = yield* HttpServerRequest.HttpServerRequest
        const given = request.headers["x-admin-token"] ?? ""
        if (!sameToken(settings.adminToken.value, given)) {
          return json({ error: "unauthorized", detail: "Falta x-admin-token o no es válido." }, 401)
        }
        return yield* handler
      }).pipe(Effect.catchTag("AdminError", (error) => Effect.succeed(errorResponse(error))))

    /** The `{codigo}` path parameter; a malformed code cannot name a merchant. */
    const codigo = Effect.flatMap(HttpRouter.params, (params) => {
      const value = params.codigo ?? ""
      return CODIGO.test(value) ? Effect.succeed(value) : Effect.fail(AdminError.notFound())
    })

    const body = jsonBody.pipe(
      Effect.catchIf(
        (e): e is ValidationError => e instanceof ValidationError,
        (e) => Effect.fail(AdminError.validation(e.detail))
      )
    )

    /** `emitir_llave` (true or false, default false) taken out of an approval's body. */
    const llavePedida = (input: unknown) => {
      if (typeof input !== "object" || input === null || Array.isArray(input) || !("emitir_llave" in input))
        return Effect.succeed({ emitirLlave: false, rest: input })
      const { emitir_llave, ...rest } = input as Record<string, unknown>
      return typeof emitir_llave === "boolean"
        ? Effect.succeed({ emitirLlave: emitir_llave, rest })
        : Effect.fail(AdminError.validation({ fieldErrors: { emitir_llave: ["debe ser true o false"] } }))
    }

    yield* router.get(
      "/admin/v1/comercios/:codigo",
      guarded(Effect.map(Effect.flatMap(codigo, admin.view), (view) => json(view)))
    )
    yield* router.patch(
      "/admin/v1/comercios/:codigo",
      guarded(
        Effect.gen(function* () {
          const code = yield* codigo
          const input = yield* body
          const result = yield* admin.patch(code, input)
          yield* auditar("comercio.cambiar", "comercio", code, input)
          return json(result)
        })
      )
    )
    yield* router.post(
      "/admin/v1/comercios/:codigo/aprobar",
      guarded(
        Effect.gen(function* () {
          // A live key only on the explicit ask; when it comes, never kept by a cache.
          const code = yield* codigo
          const input = yield* body
          const { emitirLlave, rest } = yield* llavePedida(input)
          const result = yield* admin.approve(code, rest, { emitirLlave })
          yield* auditar("comercio.aprobar", "comercio", code, input)
          return secretJson(result)
        })
      )
    )
    yield* router.post(
      "/admin/v1/comercios/:codigo/revisar",
      guarded(
        Effect.gen(function* () {
          const code = yield* codigo
          const view = yield* admin.review(code)
          yield* auditar("comercio.revisar", "comercio", code, null)
          return json(view)
        })
      )
    )
    yield* router.post(
      "/admin/v1/comercios/:codigo/cuentas-aprobadas",
      guarded(
        Effect.gen(function* () {
          const code = yield* codigo
          const input = yield* body
          const result = yield* admin.addApprovedAccount(code, input)
          if (result.added) yield* auditar("comercio.aprobar_cuenta", "comercio", code, input)
          // A repeated account is not added twice: 200 with the list as it was.
          return json({ cuentas_aprobadas: result.cuentas_aprobadas }, result.added ? 201 : 200)
        })
      )
    )
    yield* router.get("/admin/v1/tasa-bcv", guarded(Effect.map(admin.currentRate, (rate) => json(rate))))
    yield* router.put(
      "/admin/v1/tasa-bcv",
      guarded(
        Effect.gen(function* () {
          const input = yield* body
          const done = yield* admin.setRate(input)
          if (done._tag === "Fijada") {
            yield* auditar("tasa.fijar", "tasa_bcv", "token", input)
            return json(done.tasa)
          }
          // A jump: not in force until a tesoreria operator confirms it in the console.
          yield* auditar("tasa.proponer", "tasa_bcv_propuesta", String(done.propuesta.id), {
            ...(typeof input === "object" && input !== null ? input : {}),
            anterior: done.propuesta.anterior,
            salto_pct: done.propuesta.salto_pct
          })
          return json(
            {
              estado: "pendiente_confirmacion",
              detail:
                "La tasa se aleja de la vigente más de lo permitido (SWITCH_TASA_SALTO_MAX_PCT): queda propuesta, sin usarse, hasta que un operador de tesorería la confirme en la consola.",
              propuesta: done.propuesta,
              vigente: done.vigente
            },
            202
          )
        })
      )
    )
  })
).pipe(Layer.provide(AdminServiceLive))
