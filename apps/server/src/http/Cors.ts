/**
 * CORS: the public routes a merchant's own page may call from a browser (receipt verification,
 * the status JSON, the pay button's script) answer any origin; every other route answers no
 * CORS header at all, preflights included, so a browser never sends an `x-switch-key` from a
 * page: keys belong on servers.
 */
import { HttpServerResponse } from "@effect/platform"

const PUBLIC: ReadonlyArray<RegExp> = [
  /^\/switch\/v1\/verificar\/[^/]+$/,
  /^(?:\/switch\/v1)?\/estado\.json$/,
  /^\/boton\.js$/
]

/** Whether a path (without its query) answers browsers of any origin. */
export const isPublic = (path: string): boolean => PUBLIC.some((pattern) => pattern.test(path))

/** The header every answer of a public route carries. */
export const ALLOW_ANY_ORIGIN = { "access-control-allow-origin": "*" } as const

/** The answer to a public route's preflight: GET only, with the headers a plain fetch sends. */
export const preflight = (): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      ...ALLOW_ANY_ORIGIN,
      "access-control-allow-methods": "GET, OPTIONS",
      "access-control-allow-headers": "content-type",
      "access-control-max-age": "600"
    }
  })

/** A public route's answer with {@link ALLOW_ANY_ORIGIN}. */
export const allowAnyOrigin = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeaders(response, ALLOW_ANY_ORIGIN)
