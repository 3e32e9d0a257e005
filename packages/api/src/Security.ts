/**
 * Authentication: every merchant route carries `x-switch-key: <merchant>:<api_key>`, the mode
 * following the key's prefix; or a portal session (cookie `switch_sesion` plus `x-csrf-token` on
 * unsafe methods), the mode being the session's; or an OAuth access token. Which of them reach
 * an endpoint, and with which key modes, roles or scope, is the endpoint's grant (Permisos.ts). The server implements the middleware; clients send the header or the cookie.
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
  "sesión; los roles que alcanzan cada operación están en su `x-permisos`."
export const sessionCookie = HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" })
export const CSRF_HEADER = "x-csrf-token"

/**
 * Checks the key (or the portal session and its CSRF token, or an OAuth access token), the
 * endpoint's grant (Permisos.ts) on the endpoint routing matched, and the per-merchant request
 * limit, and provides {@link CurrentCaller}.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthorized, TooManyRequests, Forbidden),
  provides: CurrentCaller,
  security: { "x-switch-key": switchKey }
}) {}
