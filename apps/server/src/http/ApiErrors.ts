/**
 * How the public API's failures are answered, in one place, before the framework's own error
 * encoding sees them:
 * - the contract's decoding failure (`HttpApiDecodeError`) is SPEC's `400 validation`, never the
 *   framework's schema text: of a body read by `JsonBody` (JsonBody.ts), with the fields'
 *   `fieldErrors`; of a path, query or header parameter, naming `parametro`;
 * - an error of the API's classes (`@switch/api` Errors) answers with its own class's status and
 *   fields. The framework tries every endpoint's error classes in turn and takes the first whose
 *   fields fit, and one code lives under two statuses (`split_excede_neto`: 400 and 422).
 */
import {
  HttpApiBuilder,
  type HttpApiError,
  HttpApiSchema,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { ErrorClasses, SwitchApi, ValidationError } from "@switch/api"
import { Validation } from "@switch/core"
import { Cause, Effect, Schema } from "effect"
import { bodyWasRead } from "./JsonBody.js"

/**
 * SPEC's `400 validation` for what the contract could not decode: a body's fields with their
 * messages (`detail.fieldErrors`), or a parameter (a list filter repeated, say) as `parametro`.
 */
export const decodeFailure = (
  error: HttpApiError.HttpApiDecodeError,
  of: "body" | "parameter"
): ValidationError => {
  if (of === "body") return new ValidationError({ detail: Validation.fieldErrorsOf(error.issues) })
  const parametro = error.issues[0]?.path.find((p): p is string => typeof p === "string")
  return parametro === undefined
    ? new ValidationError({ detail: "La solicitud no es válida." })
    : new ValidationError({ detail: `El parámetro ${parametro} no es válido (¿está repetido?).`, parametro })
}

const isDecodeFailure = (u: unknown): u is HttpApiError.HttpApiDecodeError =>
  (u as { _tag?: unknown } | null)?._tag === "HttpApiDecodeError"

const encoders = new WeakMap<object, (error: unknown) => unknown>()

/**
 * An error of a Schema class that carries its HTTP status (the API's error classes, the direct
 * API's, the payment page's) as its response: that status, and the fields as the class encodes them.
 */
export const byOwnClass = (error: object): HttpServerResponse.HttpServerResponse => {
  const errorClass = error.constructor as unknown as Schema.Schema<unknown, unknown>
  let encode = encoders.get(errorClass)
  if (encode === undefined) {
    encode = Schema.encodeSync(errorClass)
    encoders.set(errorClass, encode)
  }
  return HttpServerResponse.unsafeJson(encode(error), { status: HttpApiSchema.getStatusError(errorClass) })
}

/**
 * The response for one of the API's errors, by its own class; undefined for any other failure.
 * A decode failure is the body's when `JsonBody` read the request's body.
 */
export const answer = (
  error: unknown,
  bodyRead = false
): HttpServerResponse.HttpServerResponse | undefined => {
  const failure = isDecodeFailure(error) ? decodeFailure(error, bodyRead ? "body" : "parameter") : error
  return ErrorClasses.some((errorClass) => failure instanceof errorClass)
    ? byOwnClass(failure as object)
    : undefined
}

/** The API-level middleware that answers the failures {@link answer} knows; others go on to the framework. */
export const ApiErrorsLive = HttpApiBuilder.middleware(SwitchApi, (app) =>
  Effect.catchAllCause(app, (cause) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      // As the framework's own encoding does: the failure, else the defect (a body JsonBody
      // refused reaches here as a defect, the framework reading bodies with `orDie`).
      const response = Cause.isInterruptedOnly(cause)
        ? undefined
        : answer(Cause.squash(cause), bodyWasRead(request))
      return response === undefined ? Effect.failCause(cause) : Effect.succeed(response)
    })
  )
)
