/**
 * JSON request bodies as SPEC reads them. An endpoint with {@link JsonBody} has its body read by
 * the server before the contract's payload schema decodes it: an empty body is `{}`; a body that
 * is not JSON, too deep, too large, holding a `__proto__` key, a lone surrogate or a NUL
 * character is `400 validation`; `null` properties read as absent. {@link strictBody} makes the
 * payload schema report every issue and refuse fields it does not name, as SPEC asks.
 */
import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Validation } from "@switch/core"
import type { Schema } from "effect"
import { ValidationError } from "./Errors.js"

/** Reads the body as SPEC's JSON and hands the payload decoding the value read. */
export class JsonBody extends HttpApiMiddleware.Tag<JsonBody>()("JsonBody", {
  failure: ValidationError,
  provides: HttpServerRequest.HttpServerRequest
}) {}

/** A payload schema decoded as SPEC's bodies are: every issue reported, no other field accepted. */
export const strictBody = <S extends Schema.Annotable.All>(schema: S): Schema.Annotable.Self<S> =>
  schema.annotations({ parseOptions: Validation.strict })
