/**
 * The contract's `JsonBody` middleware (`@switch/api` Body.ts): the body is read as SPEC's JSON
 * (`Respond.jsonBody`: size limit, SafeJson's refusals, an empty body as `{}`), refused with its
 * NUL characters' paths, its `null` properties dropped, and handed to the payload decoding as the
 * request's JSON. A payload that then fails to decode is answered in ApiErrors.ts.
 *
 * The body is read only when the payload is decoded, after the other middleware (the key check
 * and its rate limit answer first, as when handlers read bodies themselves). The framework takes
 * a failure to read it as a defect; ApiErrors.ts answers it all the same.
 */
import { HttpServerRequest } from "@effect/platform"
import { JsonBody, ValidationError } from "@switch/api"
import { Validation } from "@switch/core"
import { Effect, Either, Layer } from "effect"
import { jsonBody } from "./Respond.js"

/** Requests whose body this middleware read: their decode failures are the payload's. */
const bodiesRead = new WeakSet<HttpServerRequest.HttpServerRequest>()

/** Whether the contract decoded `request`'s body (so a decode failure names its fields). */
export const bodyWasRead = (request: HttpServerRequest.HttpServerRequest): boolean => bodiesRead.has(request)

/** The body as the payload decoding is to see it (see the module's comment). */
const readJson = Effect.flatMap(jsonBody, (parsed) =>
  Either.mapLeft(Validation.prepare(parsed), (detail) => new ValidationError({ detail }))
)

/** The `content-type` each request handed to the payload decoding was sent with. */
const declared = new WeakMap<HttpServerRequest.HttpServerRequest, string | undefined>()

/**
 * The `content-type` the client sent, even on the request this middleware hands on (which says
 * JSON): sign-in takes only JSON, so a form another site posts cannot sign a browser in.
 */
export const sentContentType = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  declared.has(request) ? declared.get(request) : request.headers["content-type"]

/**
 * `request` as the payload decoding sees it: its JSON is {@link readJson}, read whatever its
 * `content-type` says (the framework picks how to read a body by it), everything else its own.
 */
const withJson = (request: HttpServerRequest.HttpServerRequest) => {
  const wrapped = Object.create(request, {
    json: { value: Effect.provideService(readJson, HttpServerRequest.HttpServerRequest, request) },
    headers: { value: { ...request.headers, "content-type": "application/json" } }
  }) as HttpServerRequest.HttpServerRequest
  declared.set(wrapped, request.headers["content-type"])
  return wrapped
}

export const JsonBodyLive = Layer.succeed(
  JsonBody,
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    bodiesRead.add(request)
    return withJson(request)
  })
)
