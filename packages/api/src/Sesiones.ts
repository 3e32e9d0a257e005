/**
 * Portal sessions (DESIGN §8): a merchant user signs in with e-mail and password and gets an
 * HttpOnly cookie plus a CSRF token, which every unsafe request of the session must send in
 * `x-csrf-token`. With a session, the public routes answer as with a key of the session's mode,
 * within what the user's role allows.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody } from "./Body.js"
import { Forbidden, TooManyRequests, Unauthorized, ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** A user's role: `propietario` does everything; `cajero` links, batches and customers; `lectura` reads. */
export const Rol = Schema.Literal("propietario", "cajero", "lectura")
export type Rol = typeof Rol.Type

export const IniciarSesionBody = Schema.Struct({
  email: Schema.String.pipe(Schema.minLength(3), Schema.maxLength(254)).annotations({
    message: () => "no es un correo válido"
  }),
  password: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    message: () => "es obligatoria"
  }),
  codigo: Schema.optional(
    Schema.String.pipe(Schema.maxLength(12)).annotations({
      message: () => "debe tener 6 dígitos",
      description:
        "Con segundo factor: el código de 6 dígitos de la app o un código de recuperación `xxxxx-xxxxx`, " +
        "que sirve una sola vez (si falta: `403 codigo_requerido`)"
    })
  )
}).annotations({ identifier: "IniciarSesion" })

export const ModoBody = Schema.Struct({
  mode: ModeSchema.annotations({ message: () => "debe ser test o live" })
}).annotations({ identifier: "CambiarModo" })

export const Sesion = Schema.Struct({
  usuario: Schema.Struct({ id: Schema.String, email: Schema.String, rol: Rol }),
  comercio: Schema.Struct({ codigo: Schema.String, nombre: Schema.String, estado: Schema.String }),
  mode: ModeSchema,
  aprobado: Schema.Boolean.annotations({ description: "El comercio fue aprobado: puede pasar a modo live" }),
  totp: Schema.Boolean.annotations({ description: "El usuario tiene segundo factor (TOTP)" }),
  csrf_token: Schema.String.annotations({
    description: "Se envía en el encabezado `x-csrf-token` en cada POST, PUT, PATCH o DELETE de la sesión"
  }),
  expira_en: Schema.String.annotations({ description: "Fin absoluto de la sesión (UTC)" })
}).annotations({ identifier: "Sesion" })

export const SesionCerrada = Schema.Struct({
  ok: Schema.Literal(true),
  cerradas: Schema.Int.annotations({ description: "Sesiones cerradas" })
}).annotations({ identifier: "SesionCerrada" })

/** Sign-in is public: its own limits per account and per address answer `429`. */
export class SesionPublicGroup extends HttpApiGroup.make("sesionPublica").add(
  HttpApiEndpoint.post("iniciar", "/switch/v1/sesion")
    .setPayload(IniciarSesionBody)
    .middleware(JsonBody)
    .addSuccess(Sesion)
    .addError(ValidationError)
    .addError(Unauthorized)
    .addError(Forbidden)
    .addError(TooManyRequests)
    .annotate(OpenApi.Summary, "Iniciar sesión en el panel (correo y contraseña)")
    .annotate(
      OpenApi.Description,
      "Crea una sesión nueva (cookie `switch_sesion`, HttpOnly) y devuelve su `csrf_token`. " +
        "Un correo desconocido y una contraseña errada reciben la misma respuesta; tras varios " +
        "intentos fallidos por cuenta o por dirección la respuesta es `429`, exista o no el correo."
    )
) {}

/** The session's own routes: only a portal session (a key is `401`). */
export class SesionGroup extends HttpApiGroup.make("sesion")
  .add(
    HttpApiEndpoint.get("actual", "/switch/v1/sesion")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(Sesion)
      .annotate(OpenApi.Summary, "Ver la sesión: usuario, rol, comercio, modo y si está aprobado")
  )
  .add(
    HttpApiEndpoint.del("cerrar", "/switch/v1/sesion")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(SesionCerrada)
      .annotate(OpenApi.Summary, "Cerrar la sesión")
  )
  .add(
    HttpApiEndpoint.post("cerrarTodas", "/switch/v1/sesion/cerrar-todas")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(SesionCerrada)
      .annotate(OpenApi.Summary, "Cerrar todas las sesiones del usuario")
  )
  .add(
    HttpApiEndpoint.post("modo", "/switch/v1/sesion/modo")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .setPayload(ModoBody)
      .middleware(JsonBody)
      .addSuccess(Sesion)
      .addError(ValidationError)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Cambiar el modo de la sesión (prueba o live)")
      .annotate(
        OpenApi.Description,
        "El modo live está bloqueado (`403 comercio_no_aprobado`) hasta que el comercio sea aprobado, " +
          "y para el propietario sin segundo factor (`403 totp_requerido`)."
      )
  )
  .middleware(Authentication) {}
