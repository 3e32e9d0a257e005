/**
 * The portal users' audit log (DESIGN §8), read by the owner: every unsafe request a user's
 * session made (method and path, never a query or a body), sign-ins, failed sign-ins and
 * lock-outs; who, when, from which address, with which HTTP result. Nothing secret is in it.
 *
 * Who may call: a `propietario`'s portal session only (a key is `401`, another role `403
 * rol_no_permitido`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const Actividad = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  usuario: Schema.Struct({
    id: Schema.NullOr(Schema.String).annotations({ description: "null si el usuario ya no existe" }),
    email: Schema.String
  }),
  accion: Schema.String.annotations({
    description:
      "El método HTTP de la solicitud (`POST`, `PATCH`, `DELETE`...), o `ingreso`, `ingreso_fallido`, " +
      "`ingreso_fallido_codigo`, `ingreso_bloqueado`"
  }),
  objeto: Schema.NullOr(Schema.String).annotations({ description: "La ruta, sin la consulta" }),
  ip: Schema.String,
  resultado: Schema.Int.annotations({ description: "El estado HTTP de la respuesta" })
}).annotations({ identifier: "Actividad" })

/** `limit` (1-200, default 50) and `starting_after` (an entry's `id`: the page continues after it). */
export const ActividadParams = Schema.Struct({
  limit: Schema.optional(Schema.String),
  starting_after: Schema.optional(Schema.String)
})

export class ActividadGroup extends HttpApiGroup.make("actividad")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/actividad")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setUrlParams(ActividadParams)
      .addSuccess(Schema.Array(Actividad))
      .addError(ValidationError)
      .annotate(
        OpenApi.Summary,
        "Actividad de los usuarios del panel, la más reciente primero (solo propietario)"
      )
      .annotate(
        OpenApi.Description,
        "Cada acción de un usuario con sesión (POST, PUT, PATCH o DELETE), los ingresos, los fallidos y " +
          "los bloqueos: quién, cuándo, qué, desde qué dirección y con qué resultado. Nunca contraseñas, " +
          "tokens ni códigos. `limit` (1 a 200, 50 por omisión); `starting_after=<id>` sigue con las anteriores."
      )
  )
  .middleware(Authentication) {}
