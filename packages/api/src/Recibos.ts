/** Public receipt verification and the merchant's transactions list. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TooManyRequests, ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { AMBOS, Permisos, permiso, TODOS } from "./Permisos.js"
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

/** The filters of the transactions list and its export (all optional, all combined). */
export const TransaccionFiltros = Schema.Struct({
  estado: Schema.optional(Schema.String.annotations({ description: "Estado exacto, p. ej. `LIQUIDADA`" })),
  operacion: Schema.optional(Schema.String.annotations({ description: "Operación exacta, p. ej. `cobro`" })),
  desde: Schema.optional(
    Schema.String.annotations({ description: "Creadas desde (ISO 8601 o milisegundos)" })
  ),
  hasta: Schema.optional(
    Schema.String.annotations({ description: "Creadas hasta (ISO 8601 o milisegundos)" })
  ),
  q: Schema.optional(
    Schema.String.annotations({
      description:
        "Hasta 80 caracteres: el comienzo del id de la transacción o de su link, o parte de la referencia " +
        "bancaria o del código de comprobante (sin distinguir mayúsculas)"
    })
  ),
  min: Schema.optional(Schema.String.annotations({ description: "Monto desde (Bs, incluido, sin propina)" })),
  max: Schema.optional(Schema.String.annotations({ description: "Monto hasta (Bs, incluido, sin propina)" }))
})

export const TransaccionesTotal = Schema.Struct({
  total: Schema.Int.annotations({ description: "Cuántas transacciones cumplen los filtros, sin paginar" })
}).annotations({ identifier: "TransaccionesTotal" })

/** The export's columns, in order: a transaction record without `banco` (SPEC). */
export const TRANSACCIONES_CSV_COLUMNAS = [
  "id",
  "fecha",
  "fecha_caracas",
  "operacion",
  "estado",
  "monto",
  "propina",
  "total",
  "moneda",
  "mode",
  "link_id",
  "referencia_banco",
  "codigo_verificacion",
  "motivo_rechazo",
  "liquidada_at"
] as const

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
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS, alcance: "transacciones:read" }))
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optional(Schema.String),
          offset: Schema.optional(Schema.String),
          starting_after: Schema.optional(Schema.String).annotations({
            description:
              "Cursor: el id del último elemento de la página anterior; la página sigue después de él"
          }),
          orden: Schema.optional(
            Schema.String.annotations({
              description:
                "`reciente` (por omisión), `antiguo`, `monto_desc` o `monto_asc`; con otro orden que `reciente` se pagina con `offset`"
            })
          ),
          ...TransaccionFiltros.fields
        })
      )
      .addSuccess(Schema.Array(Transaccion))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Transacciones del comercio en el modo de la llave")
  )
  .add(
    HttpApiEndpoint.get("total", "/switch/v1/transacciones/total")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(TransaccionFiltros)
      .addSuccess(TransaccionesTotal)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Contar las transacciones que cumplen los filtros de la lista")
  )
  .add(
    HttpApiEndpoint.get("exportar", "/switch/v1/transacciones/exportar")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(TransaccionFiltros)
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })))
      .addError(ValidationError)
      .annotate(
        OpenApi.Summary,
        "Exportar las transacciones del modo de la llave como CSV (cualquier tamaño)"
      )
      .annotate(
        OpenApi.Description,
        "Las filas salen de un cursor mientras se envían, nunca todas en memoria. Columnas: " +
          TRANSACCIONES_CSV_COLUMNAS.map((c) => `\`${c}\``).join(", ") +
          " (sin columna `banco`). Montos con punto decimal; fechas ISO 8601 en UTC y `fecha_caracas` " +
          "como `25/11/2026 01:58 p. m.`. Los mismos filtros que la lista: `estado`, `operacion`, " +
          "`desde` y `hasta` (fecha ISO 8601 en hora de Caracas o milisegundos, ambos incluidos), `q`, " +
          "`min` y `max`."
      )
  )
  .middleware(Authentication) {}
