/**
 * Webhooks (SPEC "Webhooks", DESIGN §5): signed notices to the merchant's `https` endpoints.
 * A merchant's webhooks receive the notices of both modes; `data.mode` tells which.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, NotFound, UnprocessableEntity, ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { AMBOS, CONFIGURAN, LIVE, Permisos, PROPIETARIO, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** Every notice a webhook can subscribe to; `*` subscribes to all of them. */
export const EventNames = [
  "link.pagado",
  "link.acreditado",
  "link.devuelto",
  "transaccion.aprobada",
  "transaccion.liquidada",
  "transaccion.rechazada",
  "webhook.test"
] as const
export type EventName = (typeof EventNames)[number]

export const WebhookEstado = Schema.Literal("activo", "inactivo")

const EventoSuscrito = Schema.Literal(...EventNames, "*").annotations({
  message: () => `debe ser uno de: ${[...EventNames, "*"].join(", ")}`
})
const Eventos = Schema.Array(EventoSuscrito).pipe(
  Schema.minItems(1, { message: () => "debe incluir al menos un evento" }),
  Schema.maxItems(20, { message: () => "admite como máximo 20 eventos" })
)
const Url = Schema.String.pipe(
  Schema.minLength(1, { message: () => "es obligatorio" }),
  Schema.maxLength(2000, { message: () => "admite como máximo 2000 caracteres" })
)

export const WebhookCreate = Schema.Struct({ url: Url, eventos: Eventos }).annotations({
  identifier: "WebhookCreate"
})
export type WebhookCreate = typeof WebhookCreate.Type

export const WebhookUpdate = Schema.Struct({
  url: Schema.optional(Url),
  eventos: Schema.optional(Eventos),
  estado: Schema.optional(WebhookEstado.annotations({ message: () => "debe ser activo o inactivo" }))
}).annotations({ identifier: "WebhookUpdate" })
export type WebhookUpdate = typeof WebhookUpdate.Type

/** A webhook as get and list return it: never with its secret. */
export const Webhook = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  eventos: Schema.Array(Schema.String),
  estado: WebhookEstado,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

/** The creation answer: the webhook and its `secret` (`whsec_...`), shown only here. */
export const WebhookCreated = Schema.Struct({ ...Webhook.fields, secret: Schema.String }).annotations({
  identifier: "WebhookCreated"
})

export const WebhookDeleted = Schema.Struct({ ok: Schema.Boolean, id: Schema.String }).annotations({
  identifier: "WebhookDeleted"
})

export const DeliveryEstado = Schema.Literal("pendiente", "enviando", "entregado", "fallido", "cancelado")

/** One notice to one webhook: its state, attempts so far, next attempt and last error. */
export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  webhook_id: Schema.String,
  evento_id: Schema.String,
  evento: Schema.String,
  mode: ModeSchema,
  estado: DeliveryEstado,
  intentos: Schema.Int,
  proximo_intento: Schema.NullOr(Schema.String),
  codigo_http: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  entregado_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

const idParam = HttpApiSchema.param("id", Schema.String)

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/webhooks")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .addSuccess(Schema.Array(Webhook))
      .annotate(OpenApi.Summary, "Webhooks del comercio, los más recientes primero (sin secreto)")
  )
  .add(
    HttpApiEndpoint.post("create", "/switch/v1/webhooks")
      .annotate(Permisos, permiso({ llave: LIVE, sesion: PROPIETARIO }))
      .setPayload(WebhookCreate)
      .addSuccess(WebhookCreated, { status: 201 })
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(Conflict)
      .addError(UnprocessableEntity)
      .annotate(OpenApi.Summary, "Registrar un webhook (requiere llave live; el secreto se muestra una vez)")
      .annotate(
        OpenApi.Description,
        "URL `https` en el puerto 443 u 80 que resuelva a una dirección pública (`422 destino_bloqueado`); " +
          "hasta 10 por comercio (`409 limite_webhooks`). Recibe los avisos de ambos modos; `data.mode` dice cuál."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/switch/v1/webhooks/${idParam}`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .addSuccess(Webhook)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Ver un webhook (sin secreto)")
  )
  .add(
    HttpApiEndpoint.patch("update")`/switch/v1/webhooks/${idParam}`
      .annotate(Permisos, permiso({ llave: LIVE, sesion: PROPIETARIO }))
      .setPayload(WebhookUpdate)
      .addSuccess(Webhook)
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(UnprocessableEntity)
      .annotate(OpenApi.Summary, "Cambiar url, eventos o estado de un webhook (requiere llave live)")
  )
  .add(
    HttpApiEndpoint.del("remove")`/switch/v1/webhooks/${idParam}`
      .annotate(Permisos, permiso({ llave: LIVE, sesion: PROPIETARIO }))
      .addSuccess(WebhookDeleted)
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Eliminar un webhook (requiere llave live)")
  )
  .add(
    HttpApiEndpoint.get("deliveries")`/switch/v1/webhooks/${idParam}/deliveries`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .addSuccess(Schema.Array(WebhookDelivery))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Últimas 50 entregas (con llave de prueba, solo las de avisos de prueba)")
  )
  .add(
    HttpApiEndpoint.post("probar")`/switch/v1/webhooks/${idParam}/probar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: PROPIETARIO }))
      .addSuccess(WebhookDelivery)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Enviar un aviso `webhook.test` ahora, con las mismas firmas que los reales")
  )
  .add(
    HttpApiEndpoint.post("reenviar")`/switch/v1/eventos/${idParam}/reenviar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: PROPIETARIO }))
      .addSuccess(Schema.Array(WebhookDelivery))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Reenviar un aviso pasado a los webhooks activos que reciben su evento")
      .annotate(
        OpenApi.Description,
        "Para cada webhook activo suscrito al evento: crea la entrega si no existía o, si terminó (entregada, fallida o cancelada), hace un intento más ahora con las mismas firmas. Una entrega aún pendiente sigue su calendario. Un aviso `webhook.test` (de `probar`) se intenta una vez más ahora, si su entrega terminó. `404` si el aviso no es del comercio y modo de la llave."
      )
  )
  .middleware(Authentication) {}
