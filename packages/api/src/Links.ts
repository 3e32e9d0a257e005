/**
 * Payment links: create, list, get, cancel, simulate. Request bodies are @switch/core's
 * schemas (the same rules the server applies); responses are plain JSON numbers and strings.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { LinkMachine, LinkRequest } from "@switch/core"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  Unavailable,
  UnprocessableEntity,
  ValidationError
} from "./Errors.js"
import { AMBOS, OPERAN, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const LinkEstado = Schema.Literal(...LinkMachine.LinkStates)
export const ModeSchema = Schema.Literal("test", "live")
const NullableString = Schema.NullOr(Schema.String)

/** A JSON object, documented plainly (Schema.Unknown's own `$id` repeats and breaks validators). */
export const JsonObject = Schema.Unknown.annotations({ jsonSchema: { type: "object" } })

/** A payment link as get and list return it; create returns the same shape. */
export const Link = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  wa_deeplink: NullableString.annotations({
    description:
      "Enlace wa.me para compartir el link: su texto lleva el concepto, el monto y el url con `?origen=whatsapp` (quien lo abre cuenta como origen `whatsapp`)"
  }),
  qr_png: NullableString.annotations({
    description:
      "URL del código QR del url como imagen PNG, {base_url}/l/<id>/qr.png: pública, inmutable y cacheable; se dibuja en la primera petición"
  }),
  comercio: Schema.String,
  monto: Schema.Number.annotations({ description: "Monto del cobro en bolívares, sin propina" }),
  moneda: Schema.Literal("VES"),
  concepto: NullableString,
  estado: LinkEstado,
  expires_at: NullableString,
  success_url: NullableString,
  failure_url: NullableString,
  metadata: Schema.Record({
    key: Schema.String,
    value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean)
  }),
  mode: ModeSchema,
  txn_id: NullableString,
  created_at: Schema.String,
  paid_at: NullableString,
  propina: Schema.Number,
  total: Schema.Number,
  pagador: Schema.Struct({ alta_cliente: Schema.Boolean }),
  codigo_verificacion: NullableString,
  origen: Schema.String,
  lote_id: Schema.optional(NullableString),
  referencia_externa: Schema.optional(NullableString),
  split: Schema.optional(Schema.Array(JsonObject)),
  reparto: Schema.optional(Schema.NullOr(JsonObject)),
  reembolso: Schema.optional(
    Schema.Struct({
      estado: Schema.Literal("reembolsado", "reembolsado_parcial"),
      monto_devuelto: Schema.Number,
      monto_restante: Schema.Number
    })
  ).annotations({
    description:
      "Extensión (issue 45), solo en get y list de un link pagado del que volvió dinero al pagador: `estado` " +
      "`reembolsado` (volvió todo lo pagado) o `reembolsado_parcial`, lo devuelto y lo que queda. El `estado` " +
      "del link sigue siendo `pagado` (SPEC)"
  }),
  idempotent_replay: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "Link" })
export type Link = typeof Link.Type

/** Filters of `GET /links`; the server validates them and answers `400` with `parametro`. */
export const LinkFilters = Schema.Struct({
  estado: Schema.optional(Schema.String).annotations({ description: "Estados separados por comas" }),
  desde: Schema.optional(Schema.String).annotations({ description: "ISO 8601 o milisegundos, inclusive" }),
  hasta: Schema.optional(Schema.String).annotations({ description: "ISO 8601 o milisegundos, exclusivo" }),
  q: Schema.optional(Schema.String).annotations({
    description:
      "Hasta 80 caracteres. Cada palabra debe estar en el concepto, el nombre del pagador, la referencia " +
      "bancaria o el `codigo_verificacion`, o ser el id del link o su comienzo (los 8 caracteres que " +
      "muestra el panel); sin distinguir mayúsculas ni acentos."
  }),
  min: Schema.optional(Schema.String),
  max: Schema.optional(Schema.String),
  con_propina: Schema.optional(Schema.String),
  mode: Schema.optional(Schema.String),
  origen: Schema.optional(Schema.String),
  reembolso: Schema.optional(Schema.String).annotations({
    description:
      "Extensión (issue 45): `reembolsado` (volvió todo lo pagado) o `reembolsado_parcial` (volvió una parte)"
  }),
  limit: Schema.optional(Schema.String).annotations({ description: "Por defecto 50, máximo 200" }),
  offset: Schema.optional(Schema.String),
  starting_after: Schema.optional(Schema.String).annotations({
    description:
      "Cursor: el id del último link de la página anterior; la página sigue después de él (tan rápida como la primera)"
  }),
  orden: Schema.optional(Schema.String).annotations({
    description:
      "`reciente` (por omisión), `antiguo`, `monto_desc` o `monto_asc`; con otro orden que `reciente` se pagina con `offset`"
  })
})

export const LinksTotal = Schema.Struct({
  total: Schema.Int.annotations({ description: "Cuántos links cumplen los filtros, sin paginar" })
}).annotations({ identifier: "LinksTotal" })

const idParam = HttpApiSchema.param("id", Schema.String)

export const SimularBody = strictBody(
  Schema.Struct({
    resultado: Schema.Literal("pagado", "rechazado", "expirado")
  })
).annotations({ identifier: "SimularLink" })

export const CancelResult = Schema.Struct({ id: Schema.String, estado: Schema.Literal("cancelado") })
export const SimularResult = Schema.Struct({
  id: Schema.String,
  estado: LinkEstado,
  resultado: Schema.Literal("pagado", "rechazado", "expirado"),
  simulado: Schema.Literal(true)
})

export class LinksGroup extends HttpApiGroup.make("links")
  .add(
    HttpApiEndpoint.post("create", "/switch/v1/links")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN, alcance: "links:write" }))
      .setPayload(LinkRequest.LinkCreate)
      .addSuccess(Link, { status: 201 })
      .addSuccess(Link, { status: 200 })
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .addError(UnprocessableEntity)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Crear un link de pago")
      .annotate(
        OpenApi.Description,
        "`201` link nuevo; `200` con `idempotent_replay: true` al repetir el mismo `idempotency_key` en el mismo modo."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/links")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS, alcance: "links:read" }))
      .setUrlParams(LinkFilters)
      .addSuccess(Schema.Array(Link))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Listar links, del más reciente al más antiguo")
  )
  .add(
    HttpApiEndpoint.get("total", "/switch/v1/links/total")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(LinkFilters)
      .addSuccess(LinksTotal)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Contar los links que cumplen los filtros de la lista")
      .annotate(
        OpenApi.Description,
        "Los mismos filtros de `GET /links` (`limit`, `offset` y `starting_after` no cuentan): cuántos " +
          "links los cumplen, por ejemplo para mostrar «1.234 links» o confirmar una acción masiva. Un " +
          "filtro inválido es `400 validation` con `parametro`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/switch/v1/links/${idParam}`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS, alcance: "links:read" }))
      .addSuccess(Link)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Ver un link")
  )
  .add(
    HttpApiEndpoint.post("cancel")`/switch/v1/links/${idParam}/cancelar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN, alcance: "links:write" }))
      .addSuccess(CancelResult)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Cancelar un link pendiente")
  )
  .add(
    HttpApiEndpoint.post("simulate")`/switch/v1/links/${idParam}/simular`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN }))
      .setPayload(SimularBody)
      .middleware(JsonBody)
      .addSuccess(SimularResult)
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Simular el resultado de un link de prueba")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Links de pago") {}
