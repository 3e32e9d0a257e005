/**
 * Refusals of the payment page's JSON routes (`/l/{id}/estado`, `/l/{id}/codigo`,
 * `/l/{id}/pagar`), codes SPEC leaves open. The page is not part of the public API's document,
 * so these classes are in no group; like the API's own (Errors.ts), which the page also answers
 * with, each carries its HTTP status.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** `409`: the link takes no payment now (`estado`), or the merchant has no settlement account. */
export class PageConflict extends Schema.Class<PageConflict>("PageConflict")(
  {
    error: Schema.Literal("link_no_disponible", "comercio_sin_cuenta"),
    estado: Schema.optional(Schema.String),
    detail: Schema.optional(Schema.String),
    motivo: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** `403`: the merchant is suspended (`motivo` for the payer), or the page's CSRF token is stale. */
export class PageForbidden extends Schema.Class<PageForbidden>("PageForbidden")(
  {
    error: Schema.Literal("comercio_suspendido", "csrf"),
    motivo: Schema.optional(Schema.String),
    detail: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** `422 codigo_rechazado`: the bank refused to send the payer a code; `motivo` for the payer. */
export class CodeRefused extends Schema.Class<CodeRefused>("CodeRefused")(
  { error: Schema.Literal("codigo_rechazado"), motivo_rechazo: Schema.String, motivo: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
