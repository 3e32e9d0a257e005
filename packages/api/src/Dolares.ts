/**
 * Links priced in dollars from the portal (issue 33). The merchant gives the price in US
 * dollars; the service converts it to bolivars at the BCV rate of that moment (rounded half-up to
 * the cent) and makes an ordinary link whose `monto` is those bolivars: the payer pays the Bs
 * amount shown, and the API's link is unchanged (SPEC: `monto` in Bs, no new response fields).
 * The dollar price and the rate used are kept with the link and read by the portal here.
 * Without a BCV rate, or with one older than `SWITCH_TASA_MAX_HORAS`, it is `503
 * tasa_no_disponible`, the error the dollar limits give.
 *
 * Who may call: a portal session only (a key is `401`); `lectura` reads only.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { LinkRequest } from "@switch/core"
import { Schema } from "effect"
import { RateUnavailable } from "./Direct.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  Unavailable,
  UnprocessableEntity,
  ValidationError
} from "./Errors.js"
import { Link } from "./Links.js"
import { OPERAN, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** The `POST /links/dolares` body: `POST /links`'s without `monto` and `moneda`, with `monto_usd`. */
const { monto: _monto, moneda: _moneda, ...linkFields } = LinkRequest.LinkCreate.fields
export const LinkDolaresBody = Schema.Struct({
  ...linkFields,
  monto_usd: Schema.Number.annotations({ description: "El precio en dólares, hasta dos decimales" })
}).annotations({ identifier: "LinkDolaresCrear" })

export const LinkDolares = Schema.Struct({
  link_id: Schema.String,
  monto_usd: Schema.NullOr(Schema.Number).annotations({
    description: "El precio en dólares; null si el link se hizo en bolívares"
  }),
  tasa_bcv: Schema.NullOr(Schema.Number).annotations({
    description: "Bolívares por dólar con que se convirtió"
  }),
  monto: Schema.Number.annotations({ description: "Lo que paga el pagador, en bolívares" })
}).annotations({ identifier: "LinkDolares" })
export type LinkDolares = typeof LinkDolares.Type

const idParam = HttpApiSchema.param("id", Schema.String)

export class DolaresGroup extends HttpApiGroup.make("dolares")
  .add(
    HttpApiEndpoint.post("create", "/switch/v1/links/dolares")
      .annotate(Permisos, permiso({ sesion: OPERAN }))
      .setPayload(LinkDolaresBody)
      .addSuccess(Link, { status: 201 })
      .addSuccess(Link, { status: 200 })
      .addError(ValidationError)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .addError(UnprocessableEntity)
      .addError(RateUnavailable)
      .addError(Unavailable)
      .annotate(OpenApi.Summary, "Crear un link con precio en dólares (panel)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel. Convierte `monto_usd` a bolívares con la tasa BCV vigente (redondeo al céntimo) y crea " +
          "un link cuyo `monto` son esos bolívares: el pagador paga ese monto. Sin tasa, o con una más vieja que " +
          "`SWITCH_TASA_MAX_HORAS`, `503 tasa_no_disponible`. El resto como `POST /links`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/switch/v1/links/${idParam}/dolares`
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(LinkDolares)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Precio en dólares de un link y la tasa con que se convirtió (panel)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel, cualquier rol. `monto_usd` y `tasa_bcv` son null en un link hecho en bolívares."
      )
  )
  .middleware(Authentication) {}
