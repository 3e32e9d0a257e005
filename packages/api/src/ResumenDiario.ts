/**
 * The opt-in daily summary mail (issue 45): each Caracas morning from 07:00 the merchant's
 * owners get yesterday's live-mode figures (links paid, tips, refunds, settlements credited,
 * settlements in review or rejected); nothing on a day without activity. Off until turned on.
 * One setting per merchant: it mails every `propietario` of the merchant.
 *
 * Who may call: a `propietario`'s portal session only (a key is `401`, another role `403
 * rol_no_permitido`); the change with `x-csrf-token`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import { ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const ResumenDiarioConfig = Schema.Struct({
  resumen_diario: Schema.Boolean.annotations({
    description: "true si los propietarios reciben cada mañana (07:00 Caracas) el resumen del día anterior"
  })
}).annotations({ identifier: "ResumenDiarioConfig" })
export type ResumenDiarioConfig = typeof ResumenDiarioConfig.Type

export const ResumenDiarioBody = strictBody(Schema.Struct({ resumen_diario: Schema.Boolean })).annotations({
  identifier: "ResumenDiarioCambiar"
})

export class ResumenDiarioGroup extends HttpApiGroup.make("resumenDiario")
  .add(
    HttpApiEndpoint.get("get", "/switch/v1/resumen-diario")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(ResumenDiarioConfig)
      .annotate(OpenApi.Summary, "Resumen diario por correo: si está activado (solo propietario)")
  )
  .add(
    HttpApiEndpoint.put("put", "/switch/v1/resumen-diario")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(ResumenDiarioBody)
      .middleware(JsonBody)
      .addSuccess(ResumenDiarioConfig)
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Activar o desactivar el resumen diario por correo (solo propietario)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel del `propietario` y `x-csrf-token`. Cada mañana desde las 07:00 (Caracas) " +
          "los propietarios reciben el resumen del día anterior en modo live: links pagados y su total, propinas, " +
          "reembolsos, liquidaciones acreditadas y las que quedaron en revisión o rechazadas. Un día sin " +
          "actividad no se envía nada."
      )
  )
  .middleware(Authentication) {}
