/** Small helpers shared by the handlers: reading a JSON body and answering JSON. */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { ValidationError } from "@switch/api"
import { Validation } from "@switch/core"
import { Effect, Either } from "effect"
import { markSecret, SECRET_MARK } from "./Compression.js"
import * as SafeJson from "./SafeJson.js"

/** SPEC's validation detail for a body that is not JSON: the whole body (`_`) is the field. */
export const notJson = { fieldErrors: { [Validation.ROOT]: ["El cuerpo no es JSON válido."] } }

/** Bodies past this size are refused, on every route. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024

/** Whether a request's declared `content-length` is over {@link MAX_BODY_BYTES}: refused unread. */
export const overLimit = (contentLength: string | undefined): boolean =>
  Number(contentLength ?? 0) > MAX_BODY_BYTES

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

/** SPEC's validation detail for a body nested deeper than {@link SafeJson.MAX_DEPTH}. */
export const tooDeep = {
  fieldErrors: {
    [Validation.ROOT]: [`El cuerpo anida listas u objetos a más de ${SafeJson.MAX_DEPTH} niveles.`]
  }
}

/** SPEC's validation detail for a body holding `__proto__` or `constructor.prototype`. */
export const prototypeKey = {
  fieldErrors: {
    [Validation.ROOT]: ["El cuerpo tiene un campo __proto__ o constructor.prototype, que no se acepta."]
  }
}

/** The validation detail of each refusal of {@link SafeJson.parse}. */
const refusalDetail = (refusal: SafeJson.Refusal) => {
  switch (refusal) {
    case "malformado":
      return notJson
    case "anidado":
      return tooDeep
    case "prototipo":
      return prototypeKey
    case "unicode":
      return notUnicode
  }
}

/**
 * A body's text as JSON; an empty body reads as `{}`. Malformed JSON, nesting past
 * {@link SafeJson.MAX_DEPTH}, a `__proto__` or `constructor.prototype` key and a lone surrogate
 * are `400 validation` (see `SafeJson.ts`).
 */
export const parseJson = (text: string): Either.Either<unknown, ValidationError> =>
  text.trim() === ""
    ? Either.right({})
    : Either.mapLeft(
        SafeJson.parse(text),
        (refusal) => new ValidationError({ detail: refusalDetail(refusal) })
      )

/** The request body as text, up to {@link MAX_BODY_BYTES} (set for the app in Http.ts). */
export const bodyText = <E>(refuse: () => E) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    // A declared size over the limit is refused unread, so the answer reaches the client (node
    // drains the rest); past the limit otherwise, the platform drops the connection.
    overLimit(request.headers["content-length"])
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

/**
 * A JSON response carrying a key or a secret, shown this once: `Cache-Control: no-store`, so no
 * browser, proxy or CDN keeps a copy of it, and never compressed (its mark, Compression.ts).
 */
export const secretJson = (body: unknown, status = 200) =>
  HttpServerResponse.unsafeJson(body, {
    status,
    headers: { "cache-control": "no-store", [SECRET_MARK]: "1" }
  })

/**
 * Marks the answer of the handler that runs it `Cache-Control: no-store`: for a contract
 * handler whose body carries a secret (a TOTP secret, a session's CSRF token) and which returns
 * a value the contract encodes rather than a response of its own (then use {@link secretJson}).
 * The answer is never compressed either (Compression.ts).
 */
export const noStore: Effect.Effect<void> = Effect.zipRight(
  markSecret,
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "cache-control", "no-store"))
  )
)
