/** Merchants: public self-signup, key management and the read-only configuration view. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Instrument } from "@switch/core"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  TooManyRequests,
  Unavailable,
  ValidationError
} from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { AMBOS, CONFIGURAN, OPERAN, Permisos, PROPIETARIO, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

/**
 * An e-mail address a mail server will take: a local part without spaces (at most 64), a domain
 * of dot-separated labels of letters, digits and inner hyphens, and a top-level name of letters.
 */
export const EMAIL =
  /^(?!\.)(?!.*\.\.)[^\s@]{1,64}(?<!\.)@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/

export const RegistroBody = Schema.Struct({
  codigo: Schema.String.pipe(
    Schema.pattern(/^[a-z0-9_-]{3,32}$/, {
      message: () => "de 3 a 32 caracteres: letras minúsculas, dígitos, _ o -"
    })
  ).annotations({ message: () => "de 3 a 32 caracteres: letras minúsculas, dígitos, _ o -" }),
  nombre: Instrument.text(120),
  identificacion: Instrument.text(20),
  tipo_doc: Schema.optional(Instrument.TipoDoc),
  email: Schema.String.pipe(
    Schema.maxLength(254, { message: () => "admite como máximo 254 caracteres" }),
    Schema.pattern(EMAIL, { message: () => "no es un correo válido" })
  ).annotations({ message: () => "no es un correo válido" }),
  tipo: Schema.optional(
    Schema.Literal("empresa", "personal").annotations({ message: () => "debe ser empresa o personal" })
  ),
  password: Schema.optional(
    Schema.String.pipe(
      Schema.minLength(10, { message: () => "debe tener al menos 10 caracteres" }),
      Schema.maxLength(200, { message: () => "admite como máximo 200 caracteres" })
    ).annotations({
      message: () => "debe tener de 10 a 200 caracteres",
      description: "Contraseña del propietario para el panel; con ella `email` queda como su usuario"
    })
  )
}).annotations({ identifier: "RegistroComercio" })

export const RegistroResult = Schema.Struct({
  codigo: Schema.String,
  nombre: Schema.String,
  estado: Schema.Literal("pendiente"),
  kyc_tier: Schema.Literal(0),
  mode: Schema.Literal("test"),
  api_key: Schema.String.annotations({
    description: "Se muestra una sola vez; el encabezado es `codigo:api_key`"
  })
}).annotations({ identifier: "RegistroResultado" })

export const LlaveBody = strictBody(
  Schema.Struct({
    label: Instrument.text(64).pipe(
      Schema.filter((label) => /[^\s\p{Cf}]/u.test(label), { message: () => "no puede estar en blanco" })
    ),
    mode: Schema.optional(ModeSchema.annotations({ message: () => "debe ser test o live" }))
  })
).annotations({ identifier: "CrearLlave" })

export const Llave = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  mode: ModeSchema,
  ultimos4: Schema.String,
  created_at: Schema.String,
  revoked_at: Schema.NullOr(Schema.String),
  expira_at: Schema.NullOr(Schema.String).annotations({
    description: "Solo en una llave rotada: hasta cuándo sigue funcionando; luego responde `401`"
  })
}).annotations({ identifier: "Llave" })

export const LlaveCreada = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  mode: ModeSchema,
  api_key: Schema.String
}).annotations({ identifier: "LlaveCreada" })

/** The longest overlap of a roll: 7 days, in hours. */
export const SOLAPAMIENTO_MAX_HORAS = 168

export const RotarLlaveBody = strictBody(
  Schema.Struct({
    solapamiento_horas: Schema.Number.annotations({ message: () => "debe ser un número entero" })
      .pipe(
        Schema.int({ message: () => "debe ser un número entero" }),
        Schema.between(0, SOLAPAMIENTO_MAX_HORAS, {
          message: () => `debe estar entre 0 y ${SOLAPAMIENTO_MAX_HORAS} (7 días)`
        })
      )
      .annotations({
        description: "Horas que la llave anterior sigue funcionando (0 a 168); con 0 deja de funcionar ya"
      })
  })
).annotations({ identifier: "RotarLlave" })

export const LlaveRotada = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  mode: ModeSchema,
  api_key: Schema.String.annotations({ description: "La llave nueva: se muestra una sola vez" }),
  anterior: Schema.Struct({
    id: Schema.String,
    expira_at: Schema.String.annotations({
      description: "Desde este momento la llave anterior responde `401`"
    })
  })
}).annotations({ identifier: "LlaveRotada" })

export const ConfigView = Schema.Struct({
  comercio: Schema.String,
  nombre: Schema.String,
  tipo: Schema.Literal("empresa", "personal"),
  estado: Schema.String,
  kyc_tier: Schema.Int,
  mode: ModeSchema,
  comision_pct: Schema.Number,
  comision_acordada: Schema.Boolean,
  igtf_pct: Schema.Number,
  igtf_aplica: Schema.String,
  frecuencia_liquidacion: Schema.Literal("inmediata", "diaria"),
  propina_max_pct: Schema.Number,
  pagar_habilitado: Schema.Boolean,
  split_habilitado: Schema.Boolean,
  tarjeta_habilitada: Schema.Boolean
}).annotations({ identifier: "Configuracion" })

const idParam = HttpApiSchema.param("id", Schema.String)

/** `POST /comercios/registrar`: public, rate-limited per IP. */
export class RegistroGroup extends HttpApiGroup.make("registro").add(
  HttpApiEndpoint.post("registrar", "/switch/v1/comercios/registrar")
    .setPayload(RegistroBody)
    .addSuccess(RegistroResult, { status: 201 })
    .addError(ValidationError)
    .addError(Conflict)
    .addError(TooManyRequests)
    .annotate(OpenApi.Summary, "Registrar un comercio (público)")
    .annotate(
      OpenApi.Description,
      "Un `codigo` ya usado es `409 comercio_duplicado`. Un `email` que ya tiene usuario del panel " +
        "recibe la misma respuesta que uno nuevo: el comercio se crea sin usuario del panel y el dueño " +
        "del correo recibe un aviso, así la respuesta no dice qué correos tienen cuenta."
    )
) {}

export class LlavesGroup extends HttpApiGroup.make("llaves")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/llaves")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: CONFIGURAN }))
      .addSuccess(Schema.Array(Llave))
      .annotate(OpenApi.Summary, "Listar las llaves del comercio (sin la llave, solo sus últimos 4)")
  )
  .add(
    HttpApiEndpoint.post("create", "/switch/v1/llaves")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: PROPIETARIO }))
      .setPayload(LlaveBody)
      .middleware(JsonBody)
      .addSuccess(LlaveCreada, { status: 201 })
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Crear una llave (se muestra una sola vez)")
      .annotate(
        OpenApi.Description,
        "Una llave de prueba crea solo llaves de prueba; las live requieren una llave live."
      )
  )
  .add(
    HttpApiEndpoint.post("revoke")`/switch/v1/llaves/${idParam}/revocar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: PROPIETARIO }))
      .addSuccess(Schema.Struct({ id: Schema.String, revocada: Schema.Literal(true) }))
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Revocar una llave")
  )
  .add(
    HttpApiEndpoint.post("roll")`/switch/v1/llaves/${idParam}/rotar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: PROPIETARIO }))
      .setPayload(RotarLlaveBody)
      .middleware(JsonBody)
      .addSuccess(LlaveRotada, { status: 201 })
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Rotar una llave (la nueva se muestra una sola vez)")
      .annotate(
        OpenApi.Description,
        "Crea una llave nueva con el mismo nombre y modo; la anterior sigue funcionando " +
          "`solapamiento_horas` (0 a 168, es decir hasta 7 días) y luego responde `401`. " +
          "Una llave revocada o ya rotada es `409 llave_no_rotable`; rotar una llave live requiere una llave live."
      )
  )
  .middleware(Authentication) {}

export class ConfigGroup extends HttpApiGroup.make("config")
  .add(
    HttpApiEndpoint.get("get", "/switch/v1/config")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .addSuccess(ConfigView)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Ver la configuración del comercio (comisiones, límites, habilitaciones)")
  )
  .add(
    HttpApiEndpoint.put("put", "/switch/v1/config")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN }))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Cambiar la configuración (no permitido: la edita el administrador)")
      .annotate(
        OpenApi.Description,
        "Siempre `403`: la configuración de dinero la edita solo el administrador."
      )
      // It never succeeds: the document lists no success answer (HttpApi would add a 204).
      .annotate(OpenApi.Transform, (operation) => {
        const { responses, ...rest } = operation as { responses?: Record<string, unknown> }
        const { "204": _never, ...answers } = responses ?? {}
        return { ...rest, responses: answers }
      })
  )
  .middleware(Authentication) {}
