/**
 * Tips, chosen by the merchant in the portal (issue 33; SPEC's tip rule): whether the payment
 * page offers a tip, and its cap as a percentage of the charge (more than 0, at most 100 %, two
 * decimals). Whatever the percentage, a tip is never more than Bs 100,000; the page enforces both.
 *
 * Who may call: a portal session only (a key is `401`); every role reads, only the
 * `propietario` changes it (`403 rol_no_permitido`), with `x-csrf-token`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import { ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const PropinasConfig = Schema.Struct({
  acepta: Schema.Boolean.annotations({ description: "true si la página de pago ofrece propina" }),
  max_pct: Schema.NullOr(Schema.Number).annotations({
    description: "Tope de la propina en % del cobro (null si no acepta); nunca más de Bs 100.000"
  }),
  max_bs: Schema.Number.annotations({ description: "El tope absoluto de una propina: Bs 100.000" })
}).annotations({ identifier: "PropinasConfig" })
export type PropinasConfig = typeof PropinasConfig.Type

export const PropinasBody = strictBody(
  Schema.Struct({
    acepta: Schema.Boolean,
    max_pct: Schema.optional(
      Schema.Number.annotations({
        description: "Obligatorio si `acepta`: más de 0 y hasta 100, dos decimales"
      })
    )
  })
).annotations({ identifier: "PropinasCambiar" })

export class PropinasGroup extends HttpApiGroup.make("propinas")
  .add(
    HttpApiEndpoint.get("get", "/switch/v1/propinas")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(PropinasConfig)
      .annotate(OpenApi.Summary, "Propinas: si la página de pago las ofrece y su tope (panel)")
  )
  .add(
    HttpApiEndpoint.put("put", "/switch/v1/propinas")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(PropinasBody)
      .middleware(JsonBody)
      .addSuccess(PropinasConfig)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Cambiar las propinas: aceptar o no, y el tope en % (solo propietario)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel del `propietario` y `x-csrf-token`. `max_pct` de más de 0 a 100 con dos decimales; " +
          "una propina nunca pasa de Bs 100.000, sea cual sea el %."
      )
  )
  .middleware(Authentication) {}
