/**
 * The outermost HTTP layer: request ids, access logs without keys or bodies, SPEC-shaped
 * answers for unknown routes (`404 not_found`) and faults (`500 error_interno`), a `404` for a
 * request target that is not canonical before routing sees it (Canonical.ts), the
 * `Retry-After` header on every `429`, and CORS for the public routes only (`Cors.ts`). The public
 * API's own failures are answered before this, in `ApiErrors.ts`.
 *
 * The server sends the response before a serve middleware returns, so the rewriting happens
 * in a pre-response handler, which sees every response, errors included, just before it goes out.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Chunk, Context, Effect, type Fiber, FiberRef } from "effect"
import * as Metrics from "../platform/Metrics.js"
import { isCanonical } from "./Canonical.js"
import * as Compression from "./Compression.js"
import * as Cors from "./Cors.js"
import * as Edge from "./Edge.js"

/** The current request's id (`x-request-id`), for what records the request (http/RequestLog.ts). */
export const currentRequestId = FiberRef.unsafeMake("")

const notFound = HttpServerResponse.unsafeJson({ error: "not_found" }, { status: 404 })
const internal = HttpServerResponse.unsafeJson(Edge.INTERNAL_ERROR, { status: 500 })

const retryAfterFrom = (response: HttpServerResponse.HttpServerResponse): string => {
  if (response.body._tag !== "Uint8Array") return Edge.retryAfter(undefined)
  try {
    return Edge.retryAfter(JSON.parse(new TextDecoder().decode(response.body.body)))
  } catch {
    return Edge.retryAfter(undefined)
  }
}

/** Gives empty error responses SPEC's body and every 429 its Retry-After. */
export const finish = (
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  let out = response
  if (out.body._tag === "Empty" && out.status === 404) out = notFound
  if (out.body._tag === "Empty" && out.status >= 500) out = internal
  if (out.status === 429 && out.headers["retry-after"] === undefined) {
    out = HttpServerResponse.setHeader(out, "retry-after", retryAfterFrom(out))
  }
  return out
}

/** The routes whose answers carry a secret: never compressed (Compression.ts). */
const isSecretRoute = Compression.makeSecretRoutes()

/** The access line is only built when info logs are on (the hot path skips it otherwise). */
const accessLogged = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  Edge.accessLogged(fiber.getFiberRef(FiberRef.currentMinimumLogLevel))

export const withBoundary = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime((fiber) => {
    const requestId = Edge.newRequestId()
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const path = Edge.pathOfUrl(request.url)
    const publicRoute = Cors.isPublic(path)
    const finishWithId = (response: HttpServerResponse.HttpServerResponse) => {
      const out = HttpServerResponse.setHeader(finish(response), "x-request-id", requestId)
      return publicRoute ? Cors.allowAnyOrigin(out) : out
    }
    // One spelling per route: nothing past this point sees another (Canonical.ts).
    if (!isCanonical(request.url)) {
      Metrics.observeRequest(request.method, "(no canónica)", 404, Date.now())
      return Effect.succeed(HttpServerResponse.setHeader(notFound, "x-request-id", requestId))
    }
    if (publicRoute && request.method === "OPTIONS") {
      return Effect.succeed(HttpServerResponse.setHeader(Cors.preflight(), "x-request-id", requestId))
    }
    const started = Date.now()
    // Compressed last, unless the route or the handler says the answer carries a secret.
    const secret = { secret: isSecretRoute(request.method, path) }
    const answered = (response: HttpServerResponse.HttpServerResponse) =>
      Effect.map(Compression.compress(request, finishWithId(response), secret.secret), (out) => {
        Metrics.observeRequest(request.method, path, out.status, started)
        return out
      })
    let handler: HttpApp.PreResponseHandler = (_, response) => answered(response)
    if (accessLogged(fiber)) {
      handler = (_, response) =>
        Effect.tap(answered(response), (out) =>
          Edge.logAccess(requestId, request.method, path, out.status, started)
        )
    }
    return Effect.zipRight(
      HttpApp.appendPreResponseHandler(handler),
      app.pipe(
        Effect.locally(currentRequestId, requestId),
        Effect.locally(Compression.currentSecret, secret),
        Effect.tapErrorCause((cause) => (isAnswer(cause) ? Effect.void : Edge.logFault(requestId, cause)))
      )
    )
  })

const isRouteNotFound = (u: unknown) => (u as { _tag?: string } | null)?._tag === "RouteNotFound"

/**
 * Typed failures reaching here are encoded error responses or unknown routes: answers, not
 * faults. Only other defects are logged as internal errors.
 */
const isAnswer = (cause: Cause.Cause<unknown>): boolean =>
  Chunk.every(Cause.defects(cause), (d) => HttpServerResponse.isServerResponse(d) || isRouteNotFound(d)) &&
  Chunk.every(Cause.failures(cause), (f) => HttpServerResponse.isServerResponse(f) || isRouteNotFound(f))
