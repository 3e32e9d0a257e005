/** Public receipt verification and the merchant's transactions list. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TooManyRequests, ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { Authentication } from "./Security.js"

export const Verificacion = Schema.Struct({
  valido: Schema.Boolean,
  estado: Schema.String,
  codigo: Schema.String,
  monto: Schema.Number,
  moneda: Schema.String,
  comercio: Schema.String,
  fecha_hora: Schema.String,
  fecha_hora_caracas: Schema.String,
  referencia_bancaria: Schema.NullOr(Schema.String),
  prueba: Schema.Boolean,
  mensaje: Schema.String,
  concepto: Schema.NullOr(Schema.String),
  referencia_externa: Schema.NullOr(Schema.String),
  verificaciones: Schema.NullOr(Schema.Int),
  primera_verificacion: Schema.NullOr(Schema.String),
  primera_verificacion_caracas: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Verificacion" })

/** `404`: the code does not exist. */
export class CodigoNoEncontrado extends Schema.Class<CodigoNoEncontrado>("CodigoNoEncontrado")(
  {
    error: Schema.Literal("no_encontrado"),
    valido: Schema.Literal(false),
    estado: Schema.Literal("no_encontrado"),
    mensaje: Schema.String
  },
  HttpApiSchema.annotations({ status: 404 })
) {}

export const Transaccion = Schema.Struct({
  id: Schema.String,
  operacion: Schema.String,
  estado: Schema.String,
  monto: Schema.Number,
  propina: Schema.Number,
  total: Schema.Number,
  moneda: Schema.String,
  mode: ModeSchema,
  link_id: Schema.NullOr(Schema.String),
  referencia_banco: Schema.NullOr(Schema.String),
  codigo_verificacion: Schema.NullOr(Schema.String),
  motivo_rechazo: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  liquidada_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Transaccion" })

export class RecibosGroup extends HttpApiGroup.make("recibos").add(
  HttpApiEndpoint.get("verificar")`/switch/v1/verificar/${HttpApiSchema.param("codigo", Schema.String)}`
    .addSuccess(Verificacion)
    .addError(CodigoNoEncontrado)
    .addError(TooManyRequests)
    .annotate(OpenApi.Summary, "Verificar un comprobante (público, 20 por minuto por IP)")
) {}

export class TransaccionesGroup extends HttpApiGroup.make("transacciones")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/transacciones")
      .setUrlParams(
        Schema.Struct({ limit: Schema.optional(Schema.String), offset: Schema.optional(Schema.String) })
      )
      .addSuccess(Schema.Array(Transaccion))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Transacciones del comercio en el modo de la llave")
  )
  .middleware(Authentication) {}
