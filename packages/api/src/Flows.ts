/**
 * The WhatsApp Flows data-exchange endpoint and its setup (live key). The endpoint itself is
 * public: it authenticates by the binding (flowId + flow_secret) and Meta's signature.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Instrument } from "@switch/core"
import { Schema } from "effect"
import { Forbidden, NotFound, ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { LIVE, Permisos, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const FlowConfigBody = Schema.Struct({
  flow_id: Schema.optional(
    Schema.UUID.annotations({ description: "Para actualizar una vinculación existente" })
  ),
  cuenta: Instrument.Instrument.annotations({ description: "La cuenta del comercio que cobra" }),
  app_secret: Instrument.text(200).annotations({
    description: "App secret de Meta, para x-hub-signature-256"
  }),
  flow_secret: Schema.optional(
    Schema.String.pipe(Schema.minLength(16), Schema.maxLength(128)).annotations({
      description: "Se genera si no se envía"
    })
  ),
  concepto: Schema.optional(Instrument.text(120)),
  monto_fijo: Schema.optional(Schema.Number.annotations({ description: "Monto fijo en bolívares" })),
  monto_firmado: Schema.optional(
    Schema.Boolean.annotations({ description: "El bot firma el monto de cada orden en flow_token" })
  ),
  mode: Schema.optional(
    ModeSchema.annotations({ description: "Modo de los cobros del flujo; por defecto live" })
  )
}).annotations({ identifier: "FlowConfig" })

export const FlowConfigResult = Schema.Struct({
  flow_id: Schema.String,
  flow_secret: Schema.String,
  public_key: Schema.String.annotations({ description: "Clave pública RSA (PEM) para subir a Meta" }),
  monto_secret: Schema.NullOr(Schema.String),
  endpoint_url: Schema.String,
  mode: ModeSchema
}).annotations({ identifier: "FlowConfigResultado" })

export const FlowDefinicionBody = Schema.Struct({
  flow_id: Schema.UUID,
  definicion: Schema.optional(
    Schema.Unknown.annotations({
      jsonSchema: { type: "object" },
      description: "Flow JSON; si falta, el nuestro"
    })
  )
}).annotations({ identifier: "FlowDefinicion" })

export const FlowDefinicionResult = Schema.Struct({
  flow_id: Schema.String,
  definicion: Schema.Unknown.annotations({ jsonSchema: { type: "object" } })
})

export const FlowEnvelope = Schema.Struct({
  encrypted_flow_data: Schema.String,
  encrypted_aes_key: Schema.String,
  initial_vector: Schema.String
}).annotations({ identifier: "FlowEnvelope" })

export class FlowsSetupGroup extends HttpApiGroup.make("flowsSetup")
  .add(
    HttpApiEndpoint.post("config", "/switch/v1/flow/config")
      .annotate(Permisos, permiso({ llave: LIVE }))
      .setPayload(FlowConfigBody)
      .addSuccess(FlowConfigResult, { status: 201 })
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Vincular un WhatsApp Flow (requiere llave live)")
  )
  .add(
    HttpApiEndpoint.put("definicion", "/switch/v1/flows/definicion")
      .annotate(Permisos, permiso({ llave: LIVE }))
      .setPayload(FlowDefinicionBody)
      .addSuccess(FlowDefinicionResult)
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Guardar y obtener el Flow JSON de la vinculación (requiere llave live)")
  )
  .middleware(Authentication) {}

/** A refusal of the Flows data exchange, with the status Meta's protocol gives it. */
const flowRefusal = <const E extends string>(status: number, error: E) =>
  Schema.Struct({ error: Schema.Literal(error) }).annotations(HttpApiSchema.annotations({ status }))

export class FlowsGroup extends HttpApiGroup.make("flows").add(
  HttpApiEndpoint.post("cobro")`/switch/v1/flows/cobro/${HttpApiSchema.param("flowId", Schema.String)}`
    .setPayload(FlowEnvelope)
    .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain" })))
    .addError(flowRefusal(400, "sobre_invalido"))
    .addError(flowRefusal(421, "no_descifrable"))
    .addError(flowRefusal(432, "firma_invalida"))
    .annotate(OpenApi.Summary, "Intercambio de datos de WhatsApp Flows (público)")
    .annotate(
      OpenApi.Description,
      "Sobre cifrado (RSA-OAEP-SHA256 + AES-128-GCM). Respuestas: 200 texto base64; 400 sobre mal formado; " +
        "421 no se pudo descifrar; 432 x-hub-signature-256 ausente o inválida; 500 clave privada no configurada."
    )
) {}
