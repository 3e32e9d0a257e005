/**
 * Refunds of a paid link from the portal (issue 33, SPEC's `link.devuelto` pilot). The owner
 * gives back all or part of what the payer paid (the charge plus its tip), several times up to
 * that total, with a reason. The same rules as `POST /reintegro` and its `409`s: the charge must
 * be confirmed by the bank, no other refund of it running or unclear, not settled at once to the
 * merchant, no split paying. Each refund is one bank order with its own id; an unclear answer is
 * never sent again (operators review it). When the money reaches the payer, `link.devuelto`.
 *
 * A pilot, off by default and turned on per merchant by an operator (`reembolsos_habilitado`):
 * while off, `POST` is `403 reintegro_no_habilitado` and nothing changes; `GET` keeps working and
 * says `habilitado`. The gate holds in test mode too, like the other pilots.
 *
 * Who may call: a portal session only (a key is `401`; `/reintegro` stays the key's route, where a
 * live key is `403 reintegro_no_habilitado`). Reading: every role; refunding: the `propietario`
 * only (`403 rol_no_permitido`), with `x-csrf-token`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import { DirectConflict } from "./Direct.js"
import { Forbidden, NotFound, ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const ReembolsoEstado = Schema.Literal(
  "LIQUIDADA",
  "RECHAZADA",
  "DESCONOCIDA",
  "ERROR",
  "PENDIENTE",
  "ACEPTADA"
).annotations({
  description:
    "El estado del reembolso en el banco: `LIQUIDADA` llegó al pagador, `RECHAZADA` no movió dinero; " +
    "los demás esperan una respuesta clara (un operador lo revisa, nunca se reenvía)"
})

export const Reembolso = Schema.Struct({
  id: Schema.String,
  link_id: Schema.String,
  monto: Schema.Number.annotations({ description: "Bolívares devueltos (o por devolver) en este reembolso" }),
  motivo: Schema.String,
  estado: ReembolsoEstado,
  en_curso: Schema.Boolean.annotations({ description: "true mientras la orden está en el banco" }),
  motivo_rechazo: Schema.NullOr(Schema.String),
  referencia_banco: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotations({ identifier: "Reembolso" })
export type Reembolso = typeof Reembolso.Type

export const LinkReembolsos = Schema.Struct({
  link_id: Schema.String,
  habilitado: Schema.Boolean.annotations({
    description:
      "true cuando el piloto de reembolsos está activo para el comercio; mientras no, `POST` responde " +
      "`403 reintegro_no_habilitado` y el panel explica que el piloto no está activo"
  }),
  confirmado: Schema.Boolean.annotations({
    description:
      "true cuando el banco confirmó el pago; mientras no, nada puede reembolsarse (`cobro_no_confirmado_banco`)"
  }),
  monto_pagado: Schema.Number.annotations({
    description: "Lo que pagó (o está pagando, sin confirmar) el pagador: monto más propina"
  }),
  monto_devuelto: Schema.Number.annotations({ description: "Total ya devuelto (reembolsos `LIQUIDADA`)" }),
  disponible: Schema.Number.annotations({ description: "Lo que aún puede devolverse" }),
  data: Schema.Array(Reembolso)
}).annotations({ identifier: "LinkReembolsos" })
export type LinkReembolsos = typeof LinkReembolsos.Type

export const ReembolsoBody = strictBody(
  Schema.Struct({
    monto: Schema.optional(
      Schema.Number.annotations({ description: "Bolívares, hasta dos decimales; sin él, todo lo que queda" })
    ),
    motivo: Schema.String.pipe(Schema.minLength(3), Schema.maxLength(200)),
    idempotency_key: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{8,64}$/)).annotations({
      description: "Repetir la misma clave devuelve el mismo reembolso, sin otra orden al banco"
    })
  })
).annotations({ identifier: "ReembolsoBody" })

const idParam = HttpApiSchema.param("id", Schema.String)

export class ReembolsosGroup extends HttpApiGroup.make("reembolsos")
  .add(
    HttpApiEndpoint.get("list")`/switch/v1/links/${idParam}/reembolsos`
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(LinkReembolsos)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Reembolsos de un link pagado (piloto, sesión del panel)")
      .annotate(
        OpenApi.Description,
        "Lo pagado, lo devuelto, lo que queda y cada reembolso, el más antiguo primero. Solo con sesión del panel " +
          "(cualquier rol); `404` si el link no es del comercio y modo de la sesión."
      )
  )
  .add(
    HttpApiEndpoint.post("create")`/switch/v1/links/${idParam}/reembolsos`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(ReembolsoBody)
      .middleware(JsonBody)
      .addSuccess(Reembolso, { status: 201 })
      .addError(ValidationError)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(DirectConflict)
      .annotate(OpenApi.Summary, "Reembolsar un link pagado, total o parcial (piloto, solo propietario)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel del `propietario` y `x-csrf-token`. Es un piloto: mientras no esté activo para " +
          "el comercio (también en modo test) responde `403 reintegro_no_habilitado` y no cambia nada. Varios reembolsos parciales hasta lo pagado " +
          "(monto más propina). Las mismas reglas y `409` que `/reintegro`: `cobro_no_confirmado_banco` (el banco no ha " +
          "confirmado el cobro), `reintegro_en_curso`, `reintegro_intento_ambiguo` (un reembolso anterior sin respuesta " +
          "clara, en revisión), `reintegro_ya_pagado` (ya se devolvió todo), `cobro_ya_liquidado_al_comercio` y " +
          "`cobro_con_split_repartido`. Un monto mayor a lo que queda es `400 validation`. Cuando el dinero llega al " +
          "pagador se envía `link.devuelto`."
      )
  )
  .middleware(Authentication) {}
