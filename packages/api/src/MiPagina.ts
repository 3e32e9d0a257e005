/**
 * The merchant's own payment page ("mi página", SPEC's `origen` `mi_pagina`): a public page at
 * `{base_url}/p/<codigo>` where the payer types the amount (and a concept when allowed) and then
 * pays on the link the page makes. These routes are its settings, read and changed from the
 * portal; the page itself and its QR (`/p/<codigo>`, `/p/<codigo>/qr.png`) are outside the API.
 *
 * Who may call: a portal session only (a key is `401`); any role reads, only a `propietario`
 * changes them (another role is `403 rol_no_permitido`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody } from "./Body.js"
import { ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { Permisos, PROPIETARIO, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const MiPagina = Schema.Struct({
  activa: Schema.Boolean.annotations({ description: "Si la página acepta pagos; apagada responde 404" }),
  monto_min: Schema.Number.annotations({
    description: "Monto mínimo que puede escribir el pagador, en bolívares"
  }),
  monto_max: Schema.Number.annotations({
    description: "Monto máximo que puede escribir el pagador, en bolívares"
  }),
  concepto_permitido: Schema.Boolean.annotations({ description: "Si el pagador puede escribir un concepto" }),
  mode: ModeSchema.annotations({
    description: "Modo de los links que crea la página: el de la sesión que la guardó por última vez"
  }),
  url: Schema.String.annotations({ description: "`{base_url}/p/<codigo>`" }),
  qr_png: Schema.String.annotations({ description: "El código QR de `url` en PNG, para el mostrador" }),
  updated_at: Schema.NullOr(Schema.String).annotations({ description: "null mientras no se haya guardado" })
}).annotations({ identifier: "MiPagina" })
export interface MiPagina extends Schema.Schema.Type<typeof MiPagina> {}

export const MiPaginaBody = Schema.Struct({
  activa: Schema.Boolean,
  monto_min: Schema.Number.annotations({ description: "Mayor que 0, con hasta 2 decimales" }),
  monto_max: Schema.Number.annotations({
    description: "Mayor o igual que `monto_min`, con hasta 2 decimales"
  }),
  concepto_permitido: Schema.Boolean
}).annotations({ identifier: "MiPaginaBody" })

export class MiPaginaGroup extends HttpApiGroup.make("miPagina")
  .add(
    HttpApiEndpoint.get("get", "/switch/v1/mi-pagina")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(MiPagina)
      .annotate(OpenApi.Summary, "Ver mi página de pago: si está activa, sus montos, su dirección y su QR")
      .annotate(
        OpenApi.Description,
        "Con una sesión del panel, de cualquier rol (una llave es `401`). Una página que nunca se guardó " +
          "está apagada, de Bs 1,00 a Bs 10.000,00 y sin concepto."
      )
  )
  .add(
    HttpApiEndpoint.put("guardar", "/switch/v1/mi-pagina")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(MiPaginaBody)
      .middleware(JsonBody)
      .addSuccess(MiPagina)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Activar o apagar mi página de pago y fijar sus montos (solo propietario)")
      .annotate(
        OpenApi.Description,
        "Los links que crea la página quedan en el modo de la sesión que la guarda y tienen `origen` " +
          "`mi_pagina`. `monto_min` mayor que `monto_max` es `400`."
      )
  )
  .middleware(Authentication) {}
