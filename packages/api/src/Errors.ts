/**
 * Error bodies exactly as SPEC writes them: `{ error, detail?, ... }`, never `_tag`.
 * Each class carries its HTTP status, so the server, the OpenAPI document and the typed
 * client agree. One class per status, with the status's SPEC codes as a literal union.
 */
import { HttpApiSchema } from "@effect/platform"
import type { Split } from "@switch/core"
import { Match, Schema } from "effect"

/** A literal that fills itself in, so `new NotFound()` needs no arguments. */
const code = <C extends string>(value: C) =>
  Schema.Literal(value).pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => value)
  )

/** SPEC's validation detail: field name to its messages. */
export const FieldErrors = Schema.Struct({
  fieldErrors: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
}).annotations({ identifier: "FieldErrors" })

/** `400 validation`: a field is missing or invalid (`detail.fieldErrors`), or a list filter is (`parametro`). */
export class ValidationError extends Schema.Class<ValidationError>("ValidationError")(
  {
    error: code("validation"),
    detail: Schema.Union(FieldErrors, Schema.String),
    parametro: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 400, description: "Campo faltante o inválido" })
) {}

/** Other `400` codes of SPEC that are not field validation. */
export const BadRequestCode = Schema.Literal(
  "label_reservado",
  "split_no_disponible",
  "split_invalido",
  "split_max_beneficiarios",
  "split_excede_neto",
  "split_cuenta_no_preaprobada",
  "split_beneficiario_bloqueado",
  "enlace_invalido",
  "codigo_invalido"
)
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(
  { error: BadRequestCode, detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** `401 unauthorized`: missing, malformed, unknown or revoked key. */
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  { error: code("unauthorized"), detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 401, description: "Llave ausente, inválida o revocada" })
) {}

export const ForbiddenCode = Schema.Literal(
  "comercio_suspendido",
  "requiere_llave_live",
  "solo_modo_prueba",
  "pagar_no_habilitado",
  "reintegro_no_habilitado",
  "solo_uso_interno",
  "cuenta_no_permitida",
  "prohibido",
  "csrf_invalido",
  "rol_no_permitido",
  "comercio_no_aprobado",
  "solo_llave",
  "totp_requerido",
  "correo_no_verificado",
  "codigo_requerido",
  "insufficient_scope"
)
/** `403`: the key may not do this. */
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  { error: ForbiddenCode, detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** `404 not_found`: missing, another merchant's, or of the other mode. */
export class NotFound extends Schema.Class<NotFound>("NotFound")(
  { error: code("not_found"), detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 404, description: "No existe, no es del comercio o es del otro modo" })
) {}

export const ConflictCode = Schema.Literal(
  "no_cancelable",
  "no_simulable",
  "idempotency_key_en_uso",
  "item_duplicado",
  "comercio_duplicado",
  "usuario_duplicado",
  "limite_webhooks",
  "tope_diario_excedido",
  "tope_acumulado_excedido",
  "ultimo_propietario",
  "totp_ya_activo",
  "llave_no_rotable"
)
/** `409`: the request conflicts with the object's state; `estado` when SPEC asks for it. */
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  {
    error: ConflictCode,
    detail: Schema.optional(Schema.String),
    estado: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** `422`: well-formed but not acceptable (a webhook to an internal address, a split over the net). */
export const UnprocessableCode = Schema.Literal(
  "destino_bloqueado",
  "split_excede_neto",
  "split_requiere_liquidacion_inmediata"
)
export class UnprocessableEntity extends Schema.Class<UnprocessableEntity>("UnprocessableEntity")(
  { error: UnprocessableCode, detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 422 })
) {}

/** `429`: request limit passed; `reintentar_en` seconds and a `Retry-After` header say when. */
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(
  {
    error: code("demasiadas_solicitudes"),
    detail: Schema.optional(Schema.String),
    reintentar_en: Schema.optional(Schema.Int)
  },
  HttpApiSchema.annotations({ status: 429 })
) {}

/** `500 error_interno`, with no internal detail. */
export class InternalError extends Schema.Class<InternalError>("InternalError")(
  { error: code("error_interno") },
  HttpApiSchema.annotations({ status: 500 })
) {}

/** `503`: temporarily unavailable. */
export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  {
    error: Schema.Literal(
      "no_disponible",
      "cierre_bancario",
      "split_no_disponible_ahora",
      "correo_no_configurado"
    ),
    detail: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 503 })
) {}

/**
 * The API's error classes, each with its own status. An error is answered by its own class: the
 * same code may live under two statuses (`split_excede_neto` is a 400 and a 422), so matching
 * the fields alone could pick the wrong one.
 */
export const ErrorClasses = [
  ValidationError,
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  Conflict,
  UnprocessableEntity,
  TooManyRequests,
  InternalError,
  Unavailable
] as const

/**
 * A split refusal of core as SPEC answers it on `POST /links`: each refusal's code, and the
 * class that carries its status. The net of the charge being passed is money, not form: `422`;
 * percentages summing past 100 are a body rule: `400`, under the same code.
 */
export const splitRefusal = (refusal: Split.SplitRefusal): BadRequest | UnprocessableEntity =>
  Match.value(refusal).pipe(
    Match.tagsExhaustive({
      Invalido: ({ detail }) => new BadRequest({ error: "split_invalido", detail }),
      MaxBeneficiarios: ({ detail }) => new BadRequest({ error: "split_max_beneficiarios", detail }),
      PorcentajesExceden: ({ detail }) => new BadRequest({ error: "split_excede_neto", detail }),
      NoDisponible: ({ detail }) => new BadRequest({ error: "split_no_disponible", detail }),
      CuentaNoPreaprobada: ({ detail }) => new BadRequest({ error: "split_cuenta_no_preaprobada", detail }),
      RequiereLiquidacionInmediata: ({ detail }) =>
        new UnprocessableEntity({ error: "split_requiere_liquidacion_inmediata", detail }),
      ExcedeNetoDelCobro: ({ detail }) => new UnprocessableEntity({ error: "split_excede_neto", detail }),
      BeneficiarioBloqueado: ({ detail }) => new BadRequest({ error: "split_beneficiario_bloqueado", detail })
    })
  )
