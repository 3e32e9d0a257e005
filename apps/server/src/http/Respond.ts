/** Small helpers shared by the handlers: reading a JSON body and answering JSON. */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { ValidationError } from "@switch/api"
import { Validation } from "@switch/core"
import { Effect } from "effect"

/** SPEC's validation detail for a body that is not JSON: the whole body (`_`) is the field. */
export const notJson = { fieldErrors: { [Validation.ROOT]: ["El cuerpo no es JSON válido."] } }

/** A body's text as JSON; an empty body reads as `{}`, malformed JSON is `400 validation`. */
export const parseJson = (text: string): Effect.Effect<unknown, ValidationError> => {
  if (text.trim() === "") return Effect.succeed({})
  try {
    return Effect.succeed(JSON.parse(text))
  } catch {
    return Effect.fail(new ValidationError({ detail: notJson }))
  }
}

/** The request body as JSON (see {@link parseJson}). */
export const jsonBody = HttpServerRequest.HttpServerRequest.pipe(
  Effect.flatMap((request) => request.text),
  Effect.orElseSucceed(() => ""),
  Effect.flatMap(parseJson)
)

/** A JSON response with the given status. */
export const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status })
