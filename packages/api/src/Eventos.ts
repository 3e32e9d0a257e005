/**
 * The merchant's notices for development (DESIGN §5): a paginated list and a server-sent
 * event stream, both of the key's mode. Each notice is the webhook envelope.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TooManyRequests, ValidationError } from "./Errors.js"
import { JsonObject } from "./Links.js"
import { AMBOS, CONFIGURAN, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** A notice: `{id: "evt_<uuid>", evento, creado_en, data}`, exactly as webhooks receive it. */
export const Evento = Schema.Struct({
  id: Schema.String,
  evento: Schema.String,
  creado_en: Schema.String,
  data: JsonObject
}).annotations({ identifier: "Evento" })
export type Evento = typeof Evento.Type

export class EventosGroup extends HttpApiGroup.make("eventos")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/eventos")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optional(Schema.String),
          offset: Schema.optional(Schema.String),
          starting_after: Schema.optional(Schema.String).annotations({
            description:
              "Cursor: el id del último elemento de la página anterior; la página sigue después de él"
          }),
          evento: Schema.optional(Schema.String).annotations({
            description: "Solo los avisos de este tipo (`link.pagado`, `link.acreditado`, ...)"
          })
        })
      )
      .addSuccess(Schema.Array(Evento))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Avisos del comercio en el modo de la llave, los más recientes primero")
      .annotate(
        OpenApi.Description,
        "Paginado con `limit` (1 a 200, 50 por omisión) y `offset`, o `starting_after` (el id del último aviso de la página anterior); `evento` filtra por tipo de aviso (`400` si no es uno de los de SPEC)."
      )
  )
  .add(
    HttpApiEndpoint.get("stream", "/switch/v1/eventos/stream")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .addSuccess(
        Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" }))
      )
      .annotate(OpenApi.Summary, "Avisos nuevos como server-sent events (reanudable con Last-Event-ID)")
      .annotate(
        OpenApi.Description,
        "Cada mensaje lleva `id` (posición en el flujo), `event` (nombre del aviso) y `data` (el aviso en JSON). " +
          "Con `Last-Event-ID` el flujo sigue después de ese mensaje; sin él, empieza con los avisos nuevos."
      )
  )
  .add(
    HttpApiEndpoint.get("cambios", "/switch/v1/sesion/cambios")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(
        Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" }))
      )
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Cambios para las pantallas abiertas del panel (server-sent events)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel, en el modo de la sesión. Cada mensaje (`event: cambio`) dice qué cambió " +
          "(`evento`, `link_id`, `txn_id`), nunca montos ni datos del pagador: la pantalla vuelve a leer lo que " +
          "su rol le deja ver. Latido cada 15 s, reanudable con `Last-Event-ID`; hasta 4 flujos abiertos por sesión " +
          "(`429` al pasarlo)."
      )
  )
  .middleware(Authentication) {}
