/**
 * How the public API's failures are answered, in one place, before the framework's own error
 * encoding sees them:
 * - the framework's decoding failure of a path, query or header parameter (`HttpApiDecodeError`)
 *   is SPEC's `400 validation` naming `parametro`, never the framework's schema text;
 * - an error of the API's classes (`@switch/api` Errors) answers with its own class's status and
 *   fields. The framework tries every endpoint's error classes in turn and takes the first whose
 *   fields fit, and one code lives under two statuses (`split_excede_neto`: 400 and 422).
 */
import { HttpApiBuilder, type HttpApiError, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { ErrorClasses, SwitchApi, ValidationError } from "@switch/api"
import { Effect, Schema } from "effect"

/** SPEC's `400 validation` for a parameter the framework could not decode (a list filter repeated, say). */
export const decodeFailure = (error: HttpApiError.HttpApiDecodeError): ValidationError => {
  const parametro = error.issues[0]?.path.find((p): p is string => typeof p === "string")
  return parametro === undefined
    ? new ValidationError({ detail: "La solicitud no es válida." })
    : new ValidationError({ detail: `El parámetro ${parametro} no es válido (¿está repetido?).`, parametro })
}

const isDecodeFailure = (u: unknown): u is HttpApiError.HttpApiDecodeError =>
  (u as { _tag?: unknown } | null)?._tag === "HttpApiDecodeError"

const answers = ErrorClasses.map((errorClass) => ({
  errorClass,
  encode: Schema.encodeSync(errorClass as Schema.Schema<unknown, unknown>),
  status: HttpApiSchema.getStatusError(errorClass)
}))

/** The response for one of the API's errors, by its own class; undefined for any other failure. */
export const answer = (error: unknown): HttpServerResponse.HttpServerResponse | undefined => {
  const failure = isDecodeFailure(error) ? decodeFailure(error) : error
  const found = answers.find(({ errorClass }) => failure instanceof errorClass)
  return found === undefined
    ? undefined
    : HttpServerResponse.unsafeJson(found.encode(failure), { status: found.status })
}

/** The API-level middleware that answers the failures {@link answer} knows; others go on to the framework. */
export const ApiErrorsLive = HttpApiBuilder.middleware(SwitchApi, (app) =>
  Effect.catchAll(app, (error) => {
    const response = answer(error)
    return response === undefined ? Effect.fail(error) : Effect.succeed(response)
  })
)
