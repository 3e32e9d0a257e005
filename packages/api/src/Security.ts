/**
 * Authentication: every merchant route carries `x-switch-key: <merchant>:<api_key>`; the mode
 * follows the key's prefix. The server implements the middleware; clients send the header.
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import { TooManyRequests, Unauthorized } from "./Errors.js"

export type Mode = "test" | "live"

/** The authenticated caller: which merchant, in which mode, with which key. */
export interface Caller {
  readonly comercioId: string
  readonly codigo: string
  readonly mode: Mode
  readonly llaveId: string
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

/** Checks the key and the per-merchant request limit, and provides {@link CurrentCaller}. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthorized, TooManyRequests),
  provides: CurrentCaller,
  security: { "x-switch-key": switchKey }
}) {}
