/** Batches (`lotes`): up to 500 links created all-or-nothing, with a per-state summary. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { LinkRequest } from "@switch/core"
import { Schema } from "effect"
import { Conflict, Forbidden, NotFound, ValidationError } from "./Errors.js"
import { LinkEstado, ModeSchema } from "./Links.js"
import { AMBOS, OPERAN, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const LoteItemView = Schema.Struct({
  link_id: Schema.String,
  url: Schema.String,
  wa_deeplink: Schema.NullOr(Schema.String).annotations({
    description:
      "Enlace wa.me para compartir el link: su texto lleva el concepto, el monto y el url con `?origen=whatsapp` (quien lo abre cuenta como origen `whatsapp`)"
  }),
  estado: LinkEstado,
  monto: Schema.Number,
  concepto: Schema.String,
  referencia_externa: Schema.NullOr(Schema.String),
  cliente: Schema.NullOr(
    Schema.Struct({ nombre: Schema.optional(Schema.String), telefono: Schema.optional(Schema.String) })
  ),
  idempotency_key: Schema.String
  // Not "LoteItem": core's request item has that name, and one name for both made the document
  // describe the answer's items as the request's.
}).annotations({ identifier: "LoteItemView" })
export type LoteItem = typeof LoteItemView.Type

/** The batch summary; also repeated at the top level of the batch for convenience. */
export const LoteResumen = Schema.Struct({
  por_estado: Schema.Record({ key: Schema.String, value: Schema.Int }),
  monto_total: Schema.Number,
  monto_pagado: Schema.Number,
  pagados: Schema.Int,
  abiertos: Schema.Int,
  completo: Schema.Boolean
}).annotations({ identifier: "LoteResumen" })
export type LoteResumen = typeof LoteResumen.Type

const loteFields = {
  id: Schema.String,
  nombre: Schema.NullOr(Schema.String),
  idempotency_key: Schema.NullOr(Schema.String),
  mode: ModeSchema,
  expires_at: Schema.String,
  created_at: Schema.String,
  resumen: LoteResumen,
  ...LoteResumen.fields
}

export const LoteSummary = Schema.Struct(loteFields).annotations({ identifier: "LoteSummary" })
export type LoteSummary = typeof LoteSummary.Type
export const Lote = Schema.Struct({
  ...loteFields,
  items: Schema.Array(LoteItemView),
  idempotent_replay: Schema.optional(Schema.Boolean)
}).annotations({
  identifier: "Lote"
})
export type Lote = typeof Lote.Type

export const LoteCancelResult = Schema.Struct({
  cancelados: Schema.Int,
  no_cancelables: Schema.Int,
  lote: Lote
})
export type LoteCancelResult = typeof LoteCancelResult.Type

const idParam = HttpApiSchema.param("id", Schema.String)

export class LotesGroup extends HttpApiGroup.make("lotes")
  .add(
    HttpApiEndpoint.post("create", "/switch/v1/lotes")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN }))
      .setPayload(LinkRequest.LoteCreate)
      .addSuccess(Lote, { status: 201 })
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Crear un lote de hasta 500 links (todo o nada)")
      .annotate(
        OpenApi.Description,
        "`201` lote nuevo; `200` con `idempotent_replay: true` al repetir el mismo `idempotency_key` en el mismo modo; `409` `item_duplicado` si la clave de un item ya se usó o se repite en el lote."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/lotes")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optional(Schema.String),
          offset: Schema.optional(Schema.String),
          starting_after: Schema.optional(Schema.String).annotations({
            description:
              "Cursor: el id del último elemento de la página anterior; la página sigue después de él"
          })
        })
      )
      .addSuccess(Schema.Array(LoteSummary))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Listar lotes con su resumen por estado")
  )
  .add(
    HttpApiEndpoint.get("get")`/switch/v1/lotes/${idParam}`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .addSuccess(Lote)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Ver un lote con sus items")
  )
  .add(
    HttpApiEndpoint.post("cancel")`/switch/v1/lotes/${idParam}/cancelar`
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: OPERAN }))
      .addSuccess(LoteCancelResult)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Cancelar los items pendientes de un lote")
  )
  .middleware(Authentication) {}
