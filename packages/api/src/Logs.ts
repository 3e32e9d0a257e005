/**
 * The merchant's request log (`switch logs tail`): each authenticated API request of the key's
 * merchant and mode, newest first, kept 7 days. Never bodies, keys, queries or payer data.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ValidationError } from "./Errors.js"
import { AMBOS, CONFIGURAN, Permisos, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** One request: when, what (method and path, without the query), how it ended and how long it took. */
export const Solicitud = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  method: Schema.String,
  path: Schema.String,
  status: Schema.Int,
  duration_ms: Schema.Int,
  request_id: Schema.String
}).annotations({
  identifier: "Solicitud",
  description: "Una solicitud autenticada a la API: método, ruta sin la consulta, estado HTTP y duración.",
  examples: [
    {
      id: "5b0f6f0e-9d0a-4b7e-8f3c-1c2d3e4f5a6b",
      created_at: "2026-03-02T15:04:05.123Z",
      method: "POST",
      path: "/switch/v1/links",
      status: 201,
      duration_ms: 12,
      request_id: "0e7a1c52-3b9d-4f61-a8e2-6d4c0b9f1a27"
    }
  ]
})
export type Solicitud = typeof Solicitud.Type

/** `limit` (1-200, default 50) and `starting_after` (an entry's `id`: the page continues after it). */
export const LogsParams = Schema.Struct({
  limit: Schema.optional(Schema.String),
  starting_after: Schema.optional(Schema.String)
})

export class LogsGroup extends HttpApiGroup.make("logs")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/logs")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .setUrlParams(LogsParams)
      .addSuccess(Schema.Array(Solicitud))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Registro de solicitudes a la API del comercio, las más recientes primero")
      .annotate(
        OpenApi.Description,
        "Las solicitudes autenticadas de los últimos 7 días, del comercio y el modo de la llave: método, ruta " +
          "(sin la consulta), estado, duración y `request_id`. Nunca cuerpos, llaves ni datos del pagador. " +
          "`limit` (1 a 200, 50 por omisión); `starting_after=<id>` sigue con las anteriores a esa entrada."
      )
  )
  .annotate(OpenApi.Title, "Registro de solicitudes")
  .middleware(Authentication) {}
