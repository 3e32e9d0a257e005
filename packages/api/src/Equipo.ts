/**
 * The merchant's team in the portal (DESIGN §8): one-time links that set a password (the owner's
 * after a sign-up without one, an invitation, "olvidé mi contraseña"), and the owner's routes to
 * invite users, change their role and remove them.
 *
 * Who may call: the password routes are public (the link's token is the credential, and the
 * forgotten-password answer is the same whether or not the e-mail has a user); the team routes
 * take a portal session of a `propietario` only (a key is `401`, another role `403
 * rol_no_permitido`).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody } from "./Body.js"
import { EMAIL } from "./Comercios.js"
import { BadRequest, Conflict, NotFound, TooManyRequests, Unavailable, ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"
import { Rol } from "./Sesiones.js"

const Email = Schema.String.pipe(
  Schema.maxLength(254, { message: () => "admite como máximo 254 caracteres" }),
  Schema.pattern(EMAIL, { message: () => "no es un correo válido" })
).annotations({ message: () => "no es un correo válido" })

const Password = Schema.String.pipe(
  Schema.minLength(10, { message: () => "debe tener al menos 10 caracteres" }),
  Schema.maxLength(200, { message: () => "admite como máximo 200 caracteres" })
).annotations({ message: () => "debe tener de 10 a 200 caracteres" })

const RolBody = Rol.annotations({ message: () => "debe ser propietario, cajero o lectura" })

export const OlvidoBody = Schema.Struct({ email: Email }).annotations({ identifier: "OlvideContrasena" })

export const OlvidoResult = Schema.Struct({
  ok: Schema.Literal(true),
  detail: Schema.String
}).annotations({ identifier: "OlvidoEnviado" })

export const DefinirBody = Schema.Struct({
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    message: () => "es obligatorio",
    description: "El token del enlace que llegó por correo"
  }),
  password: Password
}).annotations({ identifier: "DefinirContrasena" })

export const VerificarCorreoBody = Schema.Struct({
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    message: () => "es obligatorio",
    description: "El token del enlace que llegó por correo"
  })
}).annotations({ identifier: "VerificarCorreo" })

export const CorreoVerificado = Schema.Struct({
  ok: Schema.Literal(true),
  email: Schema.String.annotations({ description: "El correo que quedó confirmado" })
}).annotations({ identifier: "CorreoVerificado" })

export const ContrasenaDefinida = Schema.Struct({
  ok: Schema.Literal(true),
  email: Schema.String.annotations({ description: "El usuario cuya contraseña quedó definida" })
}).annotations({ identifier: "ContrasenaDefinida" })

export const Usuario = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  rol: Rol,
  estado: Schema.Literal("activo", "invitado").annotations({
    description: "`invitado` hasta que define su contraseña con el enlace del correo"
  }),
  created_at: Schema.String
}).annotations({ identifier: "Usuario" })

export const InvitarBody = Schema.Struct({ email: Email, rol: RolBody }).annotations({
  identifier: "InvitarUsuario"
})

export const CambiarRolBody = Schema.Struct({ rol: RolBody }).annotations({ identifier: "CambiarRol" })

export const UsuarioEliminado = Schema.Struct({
  id: Schema.String,
  eliminado: Schema.Literal(true),
  sesiones_cerradas: Schema.Int
}).annotations({ identifier: "UsuarioEliminado" })

const idParam = HttpApiSchema.param("id", Schema.String)

/** Public: the one-time links' two ends. */
export class ContrasenaGroup extends HttpApiGroup.make("contrasena")
  .add(
    HttpApiEndpoint.post("olvido", "/switch/v1/contrasena/olvido")
      .setPayload(OlvidoBody)
      .middleware(JsonBody)
      .addSuccess(OlvidoResult, { status: 202 })
      .addError(ValidationError)
      .addError(TooManyRequests)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Olvidé mi contraseña: enviar un enlace para definir otra")
      .annotate(
        OpenApi.Description,
        "Sin llave ni sesión. La respuesta es la misma exista o no un usuario con ese correo; si " +
          "existe, le llega un enlace de un solo uso que vence en 1 hora. Limitado por dirección."
      )
  )
  .add(
    HttpApiEndpoint.post("definir", "/switch/v1/contrasena")
      .setPayload(DefinirBody)
      .middleware(JsonBody)
      .addSuccess(ContrasenaDefinida)
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Definir la contraseña con el enlace de un solo uso")
      .annotate(
        OpenApi.Description,
        "Sin llave ni sesión: el `token` del enlace (registro sin contraseña, invitación u olvido) " +
          "es la credencial. Sirve una sola vez y vence; uno usado, vencido o desconocido es " +
          "`400 enlace_invalido`. Cierra las sesiones abiertas del usuario."
      )
  )
  .add(
    HttpApiEndpoint.post("verificarCorreo", "/switch/v1/correo/verificar")
      .setPayload(VerificarCorreoBody)
      .middleware(JsonBody)
      .addSuccess(CorreoVerificado)
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Confirmar el correo con el enlace de un solo uso")
      .annotate(
        OpenApi.Description,
        "Sin llave ni sesión: el `token` del enlace que llega al registrarse con contraseña. Sirve " +
          "una sola vez y vence en 72 horas; uno usado, vencido o desconocido es `400 enlace_invalido`. " +
          "Hasta confirmarlo, pasar a modo live es `403 correo_no_verificado`; usar cualquier otro " +
          "enlace de un solo uso (definir la contraseña) también lo confirma."
      )
  ) {}

/** The owner's team routes: a `propietario`'s session only. */
export class EquipoGroup extends HttpApiGroup.make("equipo")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/equipo")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(Schema.Array(Usuario))
      .annotate(OpenApi.Summary, "Listar los usuarios del comercio (solo propietario, con sesión)")
  )
  .add(
    HttpApiEndpoint.post("invitar", "/switch/v1/equipo")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(InvitarBody)
      .middleware(JsonBody)
      .addSuccess(Usuario, { status: 201 })
      .addError(ValidationError)
      .addError(Conflict)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Invitar un usuario por correo con un rol (solo propietario)")
      .annotate(
        OpenApi.Description,
        "El invitado recibe un enlace de un solo uso (vence en 72 horas) para definir su contraseña. " +
          "Un correo que ya está en el equipo es `409 usuario_duplicado`. Un correo que ya tiene usuario " +
          "en otro comercio recibe la misma respuesta que uno nuevo (la invitación queda pendiente en la " +
          "lista) y su dueño, un aviso por correo en vez del enlace: un usuario es de un solo comercio."
      )
  )
  .add(
    HttpApiEndpoint.patch("cambiarRol")`/switch/v1/equipo/${idParam}`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(CambiarRolBody)
      .middleware(JsonBody)
      .addSuccess(Usuario)
      .addError(ValidationError)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Cambiar el rol de un usuario (solo propietario)")
      .annotate(
        OpenApi.Description,
        "El último propietario no puede dejar de serlo: `409 ultimo_propietario`."
      )
  )
  .add(
    HttpApiEndpoint.del("eliminar")`/switch/v1/equipo/${idParam}`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(UsuarioEliminado)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Eliminar un usuario: sus sesiones terminan en el acto (solo propietario)")
      .annotate(OpenApi.Description, "El último propietario no puede eliminarse: `409 ultimo_propietario`.")
  )
  .middleware(Authentication) {}
