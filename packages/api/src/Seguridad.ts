/**
 * A portal user's second factor (DESIGN §8): TOTP enrolment (the secret shown once, with its
 * `otpauth://` URI and that URI's QR code drawn by the service, confirmed with a code, which
 * answers ten one-use recovery codes, shown once), new recovery codes (with a code) and its
 * removal (with a code). Sign-in then takes the
 * code after the password (`POST /switch/v1/sesion` with `codigo`), and an owner of an approved
 * merchant needs it before switching to live (`403 totp_requerido`).
 *
 * Who may call: a portal session of any role, for its own user (a key is `401`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody } from "./Body.js"
import { BadRequest, Conflict, TooManyRequests, ValidationError } from "./Errors.js"
import { Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** A 6-digit code of an authenticator app. */
export const Codigo = Schema.String.pipe(Schema.pattern(/^\d{6}$/)).annotations({
  message: () => "debe tener 6 dígitos",
  description: "El código de 6 dígitos de la app de autenticación"
})

export const CodigoBody = Schema.Struct({ codigo: Codigo }).annotations({ identifier: "CodigoTotp" })

export const TotpInscripcion = Schema.Struct({
  secreto: Schema.String.annotations({ description: "Base32; se muestra una sola vez" }),
  otpauth_uri: Schema.String.annotations({ description: "Para la app de autenticación (código QR)" }),
  qr_svg: Schema.String.annotations({
    description:
      "El código QR de `otpauth_uri`, un SVG dibujado por el servicio (nada se carga de otro sitio)"
  })
}).annotations({ identifier: "TotpInscripcion" })

export const CodigosRecuperacion = Schema.Array(Schema.String).annotations({
  description:
    "Diez códigos de recuperación (`xxxxx-xxxxx`), mostrados una sola vez: cada uno sirve una vez " +
    "para entrar en lugar del código de la app"
})

export const TotpActivado = Schema.Struct({
  totp: Schema.Boolean.annotations({ description: "El usuario entra con contraseña y código" }),
  codigos_recuperacion: CodigosRecuperacion
}).annotations({ identifier: "TotpActivado" })

export const Recuperacion = Schema.Struct({
  codigos_recuperacion: CodigosRecuperacion
}).annotations({ identifier: "CodigosRecuperacion" })

export const TotpEstado = Schema.Struct({
  totp: Schema.Boolean.annotations({ description: "El usuario entra con contraseña y código" })
}).annotations({ identifier: "TotpEstado" })

export class TotpGroup extends HttpApiGroup.make("totp")
  .add(
    HttpApiEndpoint.post("inscribir", "/switch/v1/sesion/totp")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(TotpInscripcion)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Empezar a usar un segundo factor (TOTP): el secreto, una sola vez")
      .annotate(
        OpenApi.Description,
        "Con sesión del panel. El segundo factor queda activo cuando se confirma con un código " +
          "(`/sesion/totp/confirmar`); pedirlo de nuevo antes reemplaza el secreto. Con uno activo es " +
          "`409 totp_ya_activo`."
      )
  )
  .add(
    HttpApiEndpoint.post("confirmar", "/switch/v1/sesion/totp/confirmar")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .setPayload(CodigoBody)
      .middleware(JsonBody)
      .addSuccess(TotpActivado)
      .addError(ValidationError)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Confirmar el segundo factor con un código de la app")
      .annotate(
        OpenApi.Description,
        "Un código errado o ya usado es `400 codigo_invalido`. Responde los diez códigos de " +
          "recuperación, una sola vez."
      )
  )
  .add(
    HttpApiEndpoint.post("recuperacion", "/switch/v1/sesion/totp/recuperacion")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .setPayload(CodigoBody)
      .middleware(JsonBody)
      .addSuccess(Recuperacion)
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Hacer de nuevo los códigos de recuperación (pide un código de la app)")
      .annotate(
        OpenApi.Description,
        "Los diez códigos anteriores dejan de servir. Sin segundo factor activo, o con un código errado " +
          "o ya usado, es `400 codigo_invalido`; tras 5 códigos errados en 15 minutos, `429`."
      )
  )
  .add(
    HttpApiEndpoint.post("desactivar", "/switch/v1/sesion/totp/desactivar")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .setPayload(CodigoBody)
      .middleware(JsonBody)
      .addSuccess(TotpEstado)
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Quitar el segundo factor (pide un código de la app)")
      .annotate(
        OpenApi.Description,
        "Un código errado o ya usado es `400 codigo_invalido`. Tras 5 códigos errados en 15 minutos, " +
          "cualquier código es `429` (con `Retry-After`) hasta que pase la ventana."
      )
  )
  .middleware(Authentication) {}
