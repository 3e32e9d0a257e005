/**
 * Authentication: every merchant route carries `x-switch-key: <merchant>:<api_key>`, the mode
 * following the key's prefix; or a portal session (cookie `switch_sesion` plus `x-csrf-token` on
 * unsafe methods), the mode being the session's and the user's role limiting the routes
 * (DESIGN §8). The server implements the middleware; clients send the header or the cookie.
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import { Forbidden, TooManyRequests, Unauthorized } from "./Errors.js"

export type Mode = "test" | "live"

/** The portal user behind a session caller. */
export interface SessionUser {
  readonly sesionId: string
  readonly usuarioId: string
  readonly email: string
  readonly rol: "propietario" | "cajero" | "lectura"
  readonly csrf: string
}

/** The authenticated caller: which merchant, in which mode, with which key. */
export interface Caller {
  readonly comercioId: string
  readonly codigo: string
  readonly mode: Mode
  readonly llaveId: string
  /** Present when the caller is a portal session instead of a key. */
  readonly sesion?: SessionUser | undefined
}

/** The caller of the current request, provided by {@link Authentication}. */
export class CurrentCaller extends Context.Tag("@switch/api/CurrentCaller")<CurrentCaller, Caller>() {}

/** The header scheme as OpenAPI shows it. */
export const switchKey = HttpApiSecurity.apiKey({ key: "x-switch-key", in: "header" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "`<comercio>:<api_key>`; la llave `sk_test_...` o `sk_live_...` fija el modo de la solicitud."
  )
)

/**
 * The portal session's cookie as OpenAPI shows it. The server reads it in the same middleware
 * as the key (a request with `x-switch-key` is a key request), so the document adds it beside
 * the key scheme on every operation (Api.ts).
 */
export const SESSION_COOKIE = "switch_sesion"
export const SESSION_DESCRIPTION =
  "Sesión del panel (cookie HttpOnly de `POST /switch/v1/sesion`). Cada POST, PUT, PATCH o DELETE " +
  "lleva además el encabezado `x-csrf-token` con el `csrf_token` de la sesión. El modo es el de la " +
  "sesión; el rol `cajero` no usa llaves, webhooks, su registro de avisos ni reintegros y `lectura` solo consulta."
export const sessionCookie = HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" })
export const CSRF_HEADER = "x-csrf-token"

/**
 * Checks the key (or the portal session, its CSRF token and its role) and the per-merchant
 * request limit, and provides {@link CurrentCaller}.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthorized, TooManyRequests, Forbidden),
  provides: CurrentCaller,
  security: { "x-switch-key": switchKey }
}) {}

/** Routes only a key reaches (the direct API, refunds and reversals, the Flows setup): a session is `403 solo_llave`. */
const KEY_ONLY =
  /^\/switch\/v1\/(cobrar|pagar|dispersiones|consultar|reintegro|reverso|flow|flows\/definicion)(\/|$)/
/** What a `cajero` may not reach, in any method: keys, webhooks, their notices and the request log. */
const OWNER_ONLY = /^\/switch\/v1\/(llaves|webhooks|eventos|logs)(\/|$)/
/** What only a `propietario` reaches, reading included: the team and the audit log. */
const PROPIETARIO_ONLY = /^\/switch\/v1\/(equipo|actividad)(\/|$)/
/** The portal's bulk actions on links: a `propietario`'s session only, reading included. */
const ACCIONES_MASIVAS = /^\/switch\/v1\/acciones-masivas(\/|$)/
/** What every role reads but only a `propietario` changes: the merchant's own payment page. */
const PROPIETARIO_WRITES = /^\/switch\/v1\/mi-pagina(\/|$)/
/** Refunds from the portal (Reembolsos.ts): a session's only, and only a `propietario` sends one. */
const REEMBOLSOS = /^\/switch\/v1\/links\/[^/]+\/reembolsos\/?$/
/** Links priced in dollars (Dolares.ts): a session's only. */
const DOLARES = /^\/switch\/v1\/links\/(dolares|[^/]+\/dolares)\/?$/
/** Tips chosen in the portal (Propinas.ts): a session's only, and only a `propietario` changes them. */
const PROPINAS = /^\/switch\/v1\/propinas\/?$/
/** Split accounts approved in the portal (CuentasAprobadas.ts): a session's only, and only a `propietario` changes them. */
const CUENTAS_APROBADAS = /^\/switch\/v1\/cuentas-aprobadas(\/|$)/
/** The session's own routes, which every role may call. */
const SESSION_ROUTES = /^\/switch\/v1\/sesion(\/|$)/
const SAFE = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * Who may call, for a portal session: the reason a user of `rol` is refused `method path`, or
 * undefined when allowed. `propietario` reaches every route a session reaches; `cajero` no keys,
 * webhooks or request log; `lectura` only reads.
 */
export const sessionRefusal = (
  rol: SessionUser["rol"],
  method: string,
  path: string
): "solo_llave" | "rol_no_permitido" | undefined => {
  if (KEY_ONLY.test(path)) return "solo_llave"
  if (SESSION_ROUTES.test(path)) return undefined
  if (rol !== "propietario" && PROPIETARIO_ONLY.test(path)) return "rol_no_permitido"
  if (rol !== "propietario" && ACCIONES_MASIVAS.test(path)) return "rol_no_permitido"
  if (rol !== "propietario" && PROPIETARIO_WRITES.test(path) && !SAFE.has(method.toUpperCase()))
    return "rol_no_permitido"
  if (rol !== "propietario" && REEMBOLSOS.test(path) && !SAFE.has(method.toUpperCase()))
    return "rol_no_permitido"
  if (rol !== "propietario" && PROPINAS.test(path) && !SAFE.has(method.toUpperCase()))
    return "rol_no_permitido"
  if (rol !== "propietario" && CUENTAS_APROBADAS.test(path) && !SAFE.has(method.toUpperCase()))
    return "rol_no_permitido"
  if (rol === "cajero" && OWNER_ONLY.test(path)) return "rol_no_permitido"
  if (rol === "lectura" && !SAFE.has(method.toUpperCase())) return "rol_no_permitido"
  return undefined
}

/** Routes only a portal session reaches, a key being `401` there: the team (Equipo.ts), TOTP (Seguridad.ts). */
const SESSION_ONLY = /^\/switch\/v1\/(equipo|actividad|sesion\/totp)(\/|$)/
/** Whether `path` takes a portal session and no key (for the OpenAPI document's security lists). */
export const sessionOnly = (path: string): boolean =>
  SESSION_ONLY.test(path) ||
  PROPIETARIO_WRITES.test(path) ||
  ACCIONES_MASIVAS.test(path) ||
  REEMBOLSOS.test(path) ||
  DOLARES.test(path) ||
  PROPINAS.test(path) ||
  CUENTAS_APROBADAS.test(path)

/** Whether a session may reach `path` at all (for the OpenAPI document's security lists). */
export const sessionReaches = (path: string): boolean => !KEY_ONLY.test(path)
