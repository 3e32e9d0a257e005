/**
 * Refusals of the payment page's JSON routes (`/l/{id}/estado`, `/l/{id}/codigo`,
 * `/l/{id}/pagar`), codes SPEC leaves open. The page is not part of the public API's document,
 * so these classes are in no group; like the API's own (Errors.ts), which the page also answers
 * with, each carries its HTTP status.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * `409`: the link takes no payment now (`estado`), the merchant has no settlement account, or card
 * payment is not offered on it (`tarjeta_no_disponible`, with `motivo`).
 */
export class PageConflict extends Schema.Class<PageConflict>("PageConflict")(
  {
    error: Schema.Literal("link_no_disponible", "comercio_sin_cuenta", "tarjeta_no_disponible"),
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

/** `503 procesador_no_disponible`: the card processor did not answer; nothing was decided, try again. */
export class CardProcessorUnavailable extends Schema.Class<CardProcessorUnavailable>(
  "CardProcessorUnavailable"
)(
  { error: Schema.Literal("procesador_no_disponible"), detail: Schema.String },
  HttpApiSchema.annotations({ status: 503 })
) {}

/**
 * `401` to a card processor's callback whose signature is missing, wrong or outside the
 * tolerance (`firma_vencida`: a replay of an old callback).
 */
export class CardCallbackRefused extends Schema.Class<CardCallbackRefused>("CardCallbackRefused")(
  { error: Schema.Literal("firma_ausente", "firma_invalida", "firma_vencida") },
  HttpApiSchema.annotations({ status: 401 })
) {}
