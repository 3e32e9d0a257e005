/**
 * The direct API for contracted partners (SPEC "Endpoints"): collect with a one-time code,
 * pay out, disburse, query, refund and reverse. Bodies are strict (`400 VALIDATION` with
 * `detail.fieldErrors` for a missing, invalid or extra field); every answer is SPEC's
 * `Resultado`. Bodies SPEC does not show (`dispersiones`, `reintegro`, `reverso`) are ours.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Amount, Instrument, Resultado } from "@switch/core"
import { Schema } from "effect"
import { FieldErrors, Forbidden, NotFound } from "./Errors.js"
import { AMBOS, Permisos, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** `400 VALIDATION`: the direct API's validation shape (SPEC "Errors"). */
export class DirectValidationError extends Schema.Class<DirectValidationError>("DirectValidationError")(
  {
    error: Schema.Literal("VALIDATION").pipe(
      Schema.propertySignature,
      Schema.withConstructorDefault(() => "VALIDATION" as const)
    ),
    detail: Schema.Union(FieldErrors, Schema.String)
  },
  HttpApiSchema.annotations({ status: 400, description: "Campo faltante, inválido o no permitido" })
) {}

/** The direct API's `409` codes other than the receive caps. */
export const DirectConflictCode = Schema.Literal(
  "idempotency_key_en_uso",
  "cobro_con_split_repartido",
  "cobro_no_confirmado_banco",
  "reintegro_en_curso",
  "cobro_ya_liquidado_al_comercio",
  "reintegro_intento_ambiguo",
  "reintegro_sin_intento_previo",
  "reintegro_ya_pagado"
)
export class DirectConflict extends Schema.Class<DirectConflict>("DirectConflict")(
  { error: DirectConflictCode, detail: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** `409 tope_*`: the charge would pass a receive cap; no code was requested. Amounts in Bs. */
export class CapExceeded extends Schema.Class<CapExceeded>("CapExceeded")(
  {
    error: Schema.Literal("tope_diario_excedido", "tope_acumulado_excedido"),
    motivo: Schema.String,
    tope: Schema.optional(Schema.Number),
    usado: Schema.optional(Schema.Number),
    topes_moneda: Schema.optional(Schema.Literal("USD")),
    tope_usd: Schema.optional(Schema.Number),
    tasa_bcv: Schema.optional(Schema.Number)
  },
  HttpApiSchema.annotations({ status: 409, description: "Tope de cobros alcanzado" })
) {}

/** `503 cierre_bancario`: the code cannot be requested during the banks' daily close (live mode). */
export class BankClosed extends Schema.Class<BankClosed>("BankClosed")(
  { error: Schema.Literal("cierre_bancario"), motivo: Schema.String, reintentar_en: Schema.Int },
  HttpApiSchema.annotations({ status: 503, description: "Cierre bancario diario; header Retry-After" })
) {}

/**
 * `503 tasa_no_disponible`: a limit in dollars is in force (the new-account caps included) and
 * no BCV rate, or only one older than `SWITCH_TASA_MAX_HORAS`, is on record; nothing is asked
 * of the bank. `motivo` is text for the payer.
 */
export class RateUnavailable extends Schema.Class<RateUnavailable>("RateUnavailable")(
  { error: Schema.Literal("tasa_no_disponible"), motivo: Schema.String },
  HttpApiSchema.annotations({
    status: 503,
    description: "Sin tasa BCV vigente para aplicar límites en dólares"
  })
) {}

/** A UUID, as every direct-API `idempotency_key` must be. */
export const Uuid = Schema.String.pipe(
  Schema.pattern(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    message: () => "debe ser un UUID"
  })
).annotations({ message: () => "debe ser un UUID", description: "UUID" })

export const Canal = Schema.Literal(
  "boton_pago",
  "billetera_digital",
  "pos",
  "merchant",
  "vpos",
  "whatsapp"
).annotations({ message: () => "debe ser boton_pago, billetera_digital, pos, merchant, vpos o whatsapp" })

/** The amount object, in bolivars only on the direct API. */
export const MontoVes = Schema.Struct({
  valor: Amount.PositiveAmount,
  moneda: Schema.optionalWith(
    Schema.Literal("VES").annotations({ message: () => "la API directa solo admite VES" }),
    { default: () => "VES" as const }
  )
}).annotations({ identifier: "MontoDirecto", description: 'Monto en bolívares: `{valor, moneda?: "VES"}`' })

const Concepto = Instrument.text(120)

const common = {
  idempotency_key: Uuid,
  monto: MontoVes,
  concepto: Concepto,
  canal: Schema.optional(Canal),
  origen_ip: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  banco_preferido: Schema.optional(Instrument.Banco)
}

export const CobrarTokenBody = Schema.Struct({
  ...common,
  cobrador: Instrument.Instrument,
  pagador: Instrument.Instrument,
  telefono_pagador: Schema.optional(
    Schema.String.pipe(
      Schema.pattern(/^0?4\d{9}$/, { message: () => "debe ser 0 opcional, 4 y 9 dígitos más" })
    )
  )
}).annotations({ identifier: "CobrarTokenBody" })
export type CobrarTokenBody = typeof CobrarTokenBody.Type

export const CobrarBody = Schema.Struct({
  ...CobrarTokenBody.fields,
  otp: Instrument.text(12)
}).annotations({ identifier: "CobrarBody" })
export type CobrarBody = typeof CobrarBody.Type

export const Proposito = Schema.Literal("transferencia", "nomina", "proveedor").annotations({
  message: () => "debe ser transferencia, nomina o proveedor"
})
export const Via = Schema.Literal("credito_inmediato", "pago_movil").annotations({
  message: () => "debe ser credito_inmediato o pago_movil"
})

export const PagarBody = Schema.Struct({
  ...common,
  ordenante: Instrument.Instrument,
  beneficiario: Instrument.Instrument,
  proposito: Schema.optional(Proposito),
  via: Schema.optional(Via)
}).annotations({ identifier: "PagarBody" })
export type PagarBody = typeof PagarBody.Type

export const DispersionItem = Schema.Struct({
  beneficiario: Instrument.Instrument,
  monto: MontoVes,
  concepto: Schema.optional(Concepto),
  proposito: Schema.optional(Proposito),
  via: Schema.optional(Via)
}).annotations({ identifier: "DispersionItem" })

/** Our body: one ordenante, up to 100 payments; each is an operation of its own. */
export const DispersionesBody = Schema.Struct({
  idempotency_key: Uuid,
  concepto: Concepto,
  canal: Schema.optional(Canal),
  origen_ip: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  banco_preferido: Schema.optional(Instrument.Banco),
  ordenante: Instrument.Instrument,
  pagos: Schema.Array(DispersionItem).pipe(
    Schema.minItems(1, { message: () => "debe tener al menos 1 pago" }),
    Schema.maxItems(100, { message: () => "admite como máximo 100 pagos" })
  )
}).annotations({ identifier: "DispersionesBody" })
export type DispersionesBody = typeof DispersionesBody.Type

export const DispersionesResult = Schema.Struct({
  idempotency_key: Schema.String,
  resultados: Schema.Array(Resultado.Resultado)
}).annotations({ identifier: "Dispersiones" })

export const ConsultarBody = Schema.Struct({ id: Instrument.text(64) }).annotations({
  identifier: "ConsultarBody"
})

/** Our refund body: idempotent per (`id`, `retry_nonce`); the first attempt goes without a nonce. */
export const ReintegroBody = Schema.Struct({
  id: Instrument.text(64),
  monto: Schema.optional(Amount.PositiveAmount),
  motivo: Schema.optional(Concepto),
  retry_nonce: Schema.optional(Instrument.text(64))
}).annotations({ identifier: "ReintegroBody" })
export type ReintegroBody = typeof ReintegroBody.Type

export const ReversoBody = Schema.Struct({
  idempotency_key: Uuid,
  id: Instrument.text(64),
  motivo: Schema.optional(Concepto)
}).annotations({ identifier: "ReversoBody" })
export type ReversoBody = typeof ReversoBody.Type

const resultadoDoc =
  "Leer `estado`: `LIQUIDADA` confirmado; `ACEPTADA` o `PENDIENTE` en curso (consultar luego); `RECHAZADA` ver `motivo_rechazo`; `DESCONOCIDA` sin respuesta del banco: consultar antes de cualquier reintegro, nunca reenviar. El mismo `idempotency_key` devuelve el resultado original."

export class DirectGroup extends HttpApiGroup.make("direct")
  .add(
    HttpApiEndpoint.post("cobrarToken", "/switch/v1/cobrar/token")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(CobrarTokenBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(Forbidden)
      .addError(CapExceeded)
      .addError(DirectConflict)
      .addError(BankClosed)
      .addError(RateUnavailable)
      .annotate(OpenApi.Summary, "Cobro: solicitar el código al banco del pagador")
      .annotate(
        OpenApi.Description,
        "`ACEPTADA`: el código fue solicitado (vale unos 120 s). En modo prueba el código es simulado y `12345678` se acepta. `409 tope_*` si el cobro pasaría un tope; `503 cierre_bancario` de 23:45 a 01:30 (modo live); `503 tasa_no_disponible` si un límite en dólares no puede convertirse por falta de una tasa BCV vigente."
      )
  )
  .add(
    HttpApiEndpoint.post("cobrar", "/switch/v1/cobrar")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(CobrarBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(Forbidden)
      .addError(CapExceeded)
      .addError(DirectConflict)
      .addError(BankClosed)
      .addError(RateUnavailable)
      .annotate(OpenApi.Summary, "Cobro: ejecutar el débito con el código")
      .annotate(OpenApi.Description, `Reusar el \`idempotency_key\` de \`/cobrar/token\`. ${resultadoDoc}`)
  )
  .add(
    HttpApiEndpoint.post("pagar", "/switch/v1/pagar")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(PagarBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(Forbidden)
      .addError(DirectConflict)
      .annotate(OpenApi.Summary, "Pagar (requiere habilitación)")
      .annotate(
        OpenApi.Description,
        `\`credito_inmediato\` (por defecto) responde \`ACEPTADA\` y luego \`LIQUIDADA\`, o \`LIQUIDADA\`; \`pago_movil\` solo a teléfonos y es inmediato. A una cuenta siempre es \`credito_inmediato\`. ${resultadoDoc}`
      )
  )
  .add(
    HttpApiEndpoint.post("dispersiones", "/switch/v1/dispersiones")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(DispersionesBody)
      .addSuccess(DispersionesResult)
      .addError(DirectValidationError)
      .addError(Forbidden)
      .addError(DirectConflict)
      .annotate(OpenApi.Summary, "Dispersión: varios pagos desde un ordenante (requiere habilitación)")
      .annotate(
        OpenApi.Description,
        "Hasta 100 pagos; cada uno es una operación propia con su resultado, en el orden enviado. Repetir el mismo `idempotency_key` devuelve los mismos resultados sin pagar de nuevo."
      )
  )
  .add(
    HttpApiEndpoint.post("consultar", "/switch/v1/consultar")
      .annotate(Permisos, permiso({ llave: AMBOS, alcance: "transacciones:read" }))
      .setPayload(ConsultarBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Consultar una operación (actualiza desde el banco)")
  )
  .add(
    HttpApiEndpoint.post("reintegro", "/switch/v1/reintegro")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(ReintegroBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(DirectConflict)
      .annotate(OpenApi.Summary, "Reintegro de un cobro al pagador (llaves de prueba)")
      .annotate(
        OpenApi.Description,
        "`id` es el del cobro; `monto` por defecto el cobro completo. El primer intento va sin `retry_nonce`; repetirlo devuelve su resultado. Un `retry_nonce` nuevo reintenta solo si los intentos anteriores fueron rechazados por el banco sin mover dinero. El dinero de un cobro se devuelve una sola vez, por reintegro o por reverso: `409 reintegro_ya_pagado`, `reintegro_en_curso` o `reintegro_intento_ambiguo` según el anterior. Con llave live: `403 reintegro_no_habilitado`."
      )
  )
  .add(
    HttpApiEndpoint.post("reverso", "/switch/v1/reverso")
      .annotate(Permisos, permiso({ llave: AMBOS }))
      .setPayload(ReversoBody)
      .addSuccess(Resultado.Resultado)
      .addError(DirectValidationError)
      .addError(NotFound)
      .addError(DirectConflict)
      .annotate(OpenApi.Summary, "Reverso de un cobro del mismo día")
      .annotate(
        OpenApi.Description,
        "`id` es el del cobro `LIQUIDADA`. `RECHAZADA` con `NO_SOPORTADO` cuando el banco del pagador no admite reversos. El mismo `idempotency_key` devuelve el resultado original; un cobro ya devuelto (por reintegro o reverso) o cuya devolución está en curso o no es clara responde los mismos `409` que el reintegro, y uno de un link ya liquidado al comercio o con reparto pagado, `cobro_ya_liquidado_al_comercio` o `cobro_con_split_repartido`."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "API directa") {}
