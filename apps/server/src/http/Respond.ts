/** Small helpers shared by the handlers: reading a JSON body and answering JSON. */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { ValidationError } from "@switch/api"
import { Validation } from "@switch/core"
import { Effect, Either } from "effect"

/** SPEC's validation detail for a body that is not JSON: the whole body (`_`) is the field. */
export const notJson = { fieldErrors: { [Validation.ROOT]: ["El cuerpo no es JSON válido."] } }

/** Bodies past this size are refused, on every route. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024

/**
 * SPEC's validation detail for a body that could not be read whole: over
 * {@link MAX_BODY_BYTES}, or cut off (then nobody is left to read the answer).
 */
export const tooLarge = {
  fieldErrors: { [Validation.ROOT]: ["El cuerpo es demasiado grande (máximo 10 MB) o llegó incompleto."] }
}

/** SPEC's validation detail for text holding half of a surrogate pair (`"\ud800"`). */
export const notUnicode = {
  fieldErrors: { [Validation.ROOT]: ["El cuerpo tiene texto que no es Unicode válido."] }
}

/** Half of a surrogate pair: Postgres would store it as U+FFFD, so two texts could become one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const wellFormed = (value: unknown): boolean => {
  if (typeof value === "string") return !LONE_SURROGATE.test(value)
  if (Array.isArray(value)) return value.every(wellFormed)
  if (value !== null && typeof value === "object")
    return Object.entries(value).every(([k, v]) => !LONE_SURROGATE.test(k) && wellFormed(v))
  return true
}

/**
 * A body's text as JSON; an empty body reads as `{}`, malformed JSON is `400 validation`, and so
 * is a lone surrogate, which only a `\u` escape can carry in (UTF-8 has none).
 */
export const parseJson = (text: string): Either.Either<unknown, ValidationError> => {
  if (text.trim() === "") return Either.right({})
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left(new ValidationError({ detail: notJson }))
  }
  if (text.includes("\\u") && !wellFormed(value))
    return Either.left(new ValidationError({ detail: notUnicode }))
  return Either.right(value)
}

/** The request body as text, up to {@link MAX_BODY_BYTES} (set for the app in Http.ts). */
export const bodyText = <E>(refuse: () => E) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    // A declared size over the limit is refused unread, so the answer reaches the client (node
    // drains the rest); past the limit otherwise, the platform drops the connection.
    Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES
      ? Effect.fail(refuse())
      : Effect.mapError(request.text, refuse)
  )

/** The request body as JSON (see {@link parseJson}). */
export const jsonBody = Effect.flatMap(
  bodyText(() => new ValidationError({ detail: tooLarge })),
  parseJson
)

/** A JSON response with the given status. */
export const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status })
