/**
 * The merchant's settlements (our addition to SPEC, for the portal): each credit of a paid
 * link's net to the merchant's account under immediate settlement (SPEC "Immediate
 * settlement"), with its state. Read-only; the caller's merchant and mode only. A paid link with
 * a split that has no credit of its own (the split took the whole net, or it is still under way
 * or in review) is listed too, with its `reparto`, so the split's payments are seen (issue 42).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ValidationError } from "./Errors.js"
import { JsonObject, ModeSchema } from "./Links.js"
import { AMBOS, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const Liquidacion = Schema.Struct({
  id: Schema.String.annotations({
    description:
      "Id de la transacción de liquidación (`liquidacion_txn_id`); si el reparto se llevó todo el neto, " +
      "o el reparto aún no termina, el id del pago del pagador"
  }),
  link_id: Schema.NullOr(Schema.String),
  concepto: Schema.NullOr(Schema.String),
  cobrado: Schema.NullOr(
    Schema.Number.annotations({ description: "Lo que pagó el pagador (monto más propina)" })
  ),
  neto: Schema.Number.annotations({
    description: "Lo que se acredita al comercio (0 si el reparto se llevó todo el neto)"
  }),
  estado: Schema.String.annotations({
    description:
      "`PENDIENTE` (en curso), `LIQUIDADA` (acreditada), `REVISION` (la revisa un operador) o `RECHAZADA`"
  }),
  referencia_banco: Schema.NullOr(Schema.String),
  motivo: Schema.optional(
    Schema.NullOr(Schema.String).annotations({
      description:
        "Solo en `RECHAZADA`: por qué no se acreditó; si la cerró un operador, `cerrada sin pagar: ` y su nota"
    })
  ),
  mode: ModeSchema,
  created_at: Schema.String,
  liquidada_at: Schema.NullOr(Schema.String),
  simulada: Schema.Boolean.annotations({
    description:
      "`true` en modo prueba: una liquidación simulada, que no movió dinero (la que tendría cada pago de " +
      "prueba: lo cobrado menos la comisión, referencia `SIMULADO`); nunca en modo live"
  }),
  reparto: Schema.optional(
    Schema.NullOr(JsonObject).annotations({
      description:
        "Solo si el link tiene reparto (split): los pagos a cada beneficiario, como `reparto` del link " +
        "(cuentas enmascaradas: `banco`, `tipo`, `ultimos4`, `nombre`)"
    })
  )
}).annotations({ identifier: "Liquidacion" })
export interface Liquidacion extends Schema.Schema.Type<typeof Liquidacion> {}

/** The list's filters, which its total (`GET /liquidaciones/total`) counts too. */
const FILTROS = {
  estado: Schema.optional(
    Schema.String.annotations({ description: "PENDIENTE, LIQUIDADA, REVISION o RECHAZADA" })
  ),
  desde: Schema.optional(
    Schema.String.annotations({
      description: "Creadas desde (ISO 8601, en hora de Caracas si no lleva zona, o milisegundos; incluido)"
    })
  ),
  hasta: Schema.optional(
    Schema.String.annotations({
      description: "Creadas hasta (ISO 8601, en hora de Caracas si no lleva zona, o milisegundos; incluido)"
    })
  ),
  min: Schema.optional(Schema.String.annotations({ description: "Neto desde (Bs, incluido)" })),
  max: Schema.optional(Schema.String.annotations({ description: "Neto hasta (Bs, incluido)" }))
}

export const LiquidacionFiltros = Schema.Struct(FILTROS)

export const LiquidacionListParams = Schema.Struct({
  ...FILTROS,
  limit: Schema.optional(Schema.String),
  offset: Schema.optional(Schema.String),
  starting_after: Schema.optional(Schema.String).annotations({
    description:
      "Cursor: el id de la última liquidación de la página anterior; la página sigue después de ella (solo con el orden `reciente`)"
  }),
  orden: Schema.optional(Schema.String).annotations({
    description:
      "`reciente` (por omisión), `antiguo`, `monto_desc` o `monto_asc` (por el neto); con otro orden que `reciente` se pagina con `offset`"
  })
})

export const LiquidacionesTotal = Schema.Struct({
  total: Schema.Int.annotations({ description: "Cuántas liquidaciones cumplen los filtros, sin paginar" })
}).annotations({ identifier: "LiquidacionesTotal" })

export class LiquidacionesGroup extends HttpApiGroup.make("liquidaciones")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/liquidaciones")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS, alcance: "liquidaciones:read" }))
      .setUrlParams(LiquidacionListParams)
      .addSuccess(Schema.Array(Liquidacion))
      .addError(ValidationError)
      .annotate(
        OpenApi.Summary,
        "Liquidaciones del comercio en el modo de la llave, las más recientes primero"
      )
      .annotate(
        OpenApi.Description,
        "Cada acreditación del neto de un link pagado a la cuenta del comercio (liquidación inmediata), " +
          "con su estado; un link con reparto sin acreditación propia (el reparto se llevó todo el neto, o " +
          "aún está en curso o en revisión) aparece con su `reparto`. `limit` (50 por omisión, hasta 200), `offset` o `starting_after` (el id de la " +
          "última de la página anterior), `orden`, y los filtros `estado`, `desde`, `hasta`, `min` y `max` (neto). En modo prueba cada pago de prueba muestra la liquidación " +
          "que tendría, marcada `simulada` (no mueve dinero ni envía avisos)."
      )
  )
  .add(
    HttpApiEndpoint.get("total", "/switch/v1/liquidaciones/total")
      // As `GET /links/total` and `GET /transacciones/total`: keys and sessions, no OAuth scope.
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(LiquidacionListParams)
      .addSuccess(LiquidacionesTotal)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Contar las liquidaciones que cumplen los filtros de la lista")
      .annotate(
        OpenApi.Description,
        "Los mismos filtros de `GET /liquidaciones` (`limit`, `offset`, `starting_after` y `orden` no " +
          "cuentan): cuántas liquidaciones los cumplen, las simuladas de modo prueba incluidas. Un filtro " +
          "inválido es `400 validation` con `parametro`."
      )
  )
  .middleware(Authentication) {}
