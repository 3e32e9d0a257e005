/**
 * The outermost HTTP layer: request ids, access logs without keys or bodies, SPEC-shaped
 * answers for unknown routes (`404 not_found`) and faults (`500 error_interno`), the
 * `Retry-After` header on every `429`, and CORS for the public routes only (`Cors.ts`). The public
 * API's own failures are answered before this, in `ApiErrors.ts`.
 *
 * The server sends the response before a serve middleware returns, so the rewriting happens
 * in a pre-response handler, which sees every response, errors included, just before it goes out.
 */
import { randomUUID } from "node:crypto"
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Chunk, Context, Effect, type Fiber, FiberRef, LogLevel } from "effect"
import * as Cors from "./Cors.js"

/** The current request's id (`x-request-id`), for what records the request (http/RequestLog.ts). */
export const currentRequestId = FiberRef.unsafeMake("")

const notFound = HttpServerResponse.unsafeJson({ error: "not_found" }, { status: 404 })
const internal = HttpServerResponse.unsafeJson({ error: "error_interno" }, { status: 500 })

const retryAfterFrom = (response: HttpServerResponse.HttpServerResponse): number => {
  if (response.body._tag !== "Uint8Array") return 60
  try {
    const parsed = JSON.parse(new TextDecoder().decode(response.body.body)) as { reintentar_en?: unknown }
    return typeof parsed.reintentar_en === "number" ? parsed.reintentar_en : 60
  } catch {
    return 60
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
    out = HttpServerResponse.setHeader(out, "retry-after", String(retryAfterFrom(out)))
  }
  return out
}

/** The access line is only built when info logs are on (the hot path skips it otherwise). */
const accessLogged = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Info)

export const withBoundary = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime((fiber) => {
    const requestId = randomUUID()
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const path = request.url.split("?")[0] ?? request.url
    const publicRoute = Cors.isPublic(path)
    const finishWithId = (response: HttpServerResponse.HttpServerResponse) => {
      const out = HttpServerResponse.setHeader(finish(response), "x-request-id", requestId)
      return publicRoute ? Cors.allowAnyOrigin(out) : out
    }
    if (publicRoute && request.method === "OPTIONS") {
      return Effect.succeed(HttpServerResponse.setHeader(Cors.preflight(), "x-request-id", requestId))
    }
    let handler: HttpApp.PreResponseHandler = (_, response) => Effect.succeed(finishWithId(response))
    if (accessLogged(fiber)) {
      const started = Date.now()
      handler = (_, response) => {
        const out = finishWithId(response)
        return Effect.as(
          Effect.logInfo(`${request.method} ${path} ${out.status} ${Date.now() - started}ms`).pipe(
            Effect.annotateLogs({ requestId })
          ),
          out
        )
      }
    }
    return Effect.zipRight(
      HttpApp.appendPreResponseHandler(handler),
      app.pipe(
        Effect.locally(currentRequestId, requestId),
        Effect.tapErrorCause((cause) =>
          Cause.isInterruptedOnly(cause) || isAnswer(cause)
            ? Effect.void
            : Effect.logError("error interno", Cause.pretty(cause)).pipe(Effect.annotateLogs({ requestId }))
        )
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
