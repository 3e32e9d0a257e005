/**
 * A link's history for the portal's detail (our addition, issue 31): when it was made, each
 * payment attempt on its page, when it was paid and credited, and every notice sent about it
 * with the state of its deliveries. Scoped to the caller's merchant and mode, like `GET /links/{id}`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFound } from "./Errors.js"
import { AMBOS, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"
import { DeliveryEstado } from "./Webhooks.js"

export const HistorialTipo = Schema.Literal(
  "creado",
  "intento",
  "pagado",
  "acreditado",
  "expirado",
  "aviso",
  // A refund from the portal that reached the payer (`monto`: this refund).
  "devuelto"
)

/** One delivery of a notice in the history: to which webhook, and how it went. */
export const HistorialEntrega = Schema.Struct({
  id: Schema.String,
  webhook_id: Schema.String,
  url: Schema.String,
  estado: DeliveryEstado,
  intentos: Schema.Int,
  proximo_intento: Schema.NullOr(Schema.String),
  codigo_http: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String)
}).annotations({ identifier: "HistorialEntrega" })

/**
 * One step of the history. `estado` is an attempt's (`ENVIANDO`, `APROBADA`, `RECHAZADA`, ...),
 * `detalle` its rejection reason or bank reference; `monto` the credited net of `acreditado`;
 * `evento_id`, `evento` and `entregas` belong to `aviso` (and to `acreditado` when a notice says it).
 */
export const HistorialEntrada = Schema.Struct({
  tipo: HistorialTipo,
  fecha: Schema.String,
  estado: Schema.NullOr(Schema.String),
  detalle: Schema.NullOr(Schema.String),
  monto: Schema.NullOr(Schema.Number),
  evento_id: Schema.NullOr(Schema.String),
  evento: Schema.NullOr(Schema.String),
  entregas: Schema.Array(HistorialEntrega)
}).annotations({ identifier: "HistorialEntrada" })
export type HistorialEntrada = typeof HistorialEntrada.Type

export const LinkHistorial = Schema.Struct({
  link_id: Schema.String,
  entradas: Schema.Array(HistorialEntrada)
}).annotations({ identifier: "LinkHistorial" })
export type LinkHistorial = typeof LinkHistorial.Type

const idParam = HttpApiSchema.param("id", Schema.String)

export class HistorialGroup extends HttpApiGroup.make("historial")
  .add(
    HttpApiEndpoint.get("link")`/switch/v1/links/${idParam}/historial`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .addSuccess(LinkHistorial)
      .addError(NotFound)
      .annotate(
        OpenApi.Summary,
        "Historia de un link: creado, intentos de pago, pagado, acreditado y avisos enviados con sus entregas"
      )
      .annotate(
        OpenApi.Description,
        "En orden de fecha. Cada aviso (`link.pagado`, `link.acreditado`, ...) lleva sus entregas a los webhooks " +
          "(estado, intentos, próximo intento, error). `404` si el link no es del comercio y modo de la llave o sesión; " +
          "cualquier rol del panel puede leerla."
      )
  )
  .middleware(Authentication) {}
