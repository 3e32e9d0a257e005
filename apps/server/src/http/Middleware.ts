/**
 * The outermost HTTP layer: request ids, access logs without keys or bodies, SPEC-shaped
 * answers for unknown routes (`404 not_found`) and defects (`500 error_interno`), and the
 * `Retry-After` header on every `429`.
 */
import { randomUUID } from "node:crypto"
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option } from "effect"

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

export const withBoundary = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = randomUUID()
    const started = Date.now()
    const path = request.url.split("?")[0] ?? request.url
    let response = yield* app.pipe(
      Effect.catchAllCause((cause) => {
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure) && (failure.value as { _tag?: string })._tag === "RouteNotFound") {
          return Effect.succeed(notFound)
        }
        if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
        return Effect.as(
          Effect.logError("error interno", Cause.pretty(cause)).pipe(Effect.annotateLogs({ requestId })),
          internal
        )
      })
    )
    if (response.status === 404 && response.body._tag === "Empty") response = notFound
    if (response.status === 429 && response.headers["retry-after"] === undefined) {
      response = HttpServerResponse.setHeader(response, "retry-after", String(retryAfterFrom(response)))
    }
    yield* Effect.logInfo(`${request.method} ${path} ${response.status} ${Date.now() - started}ms`).pipe(
      Effect.annotateLogs({ requestId })
    )
    return HttpServerResponse.setHeader(response, "x-request-id", requestId)
  }) as HttpApp.Default<never, R>
