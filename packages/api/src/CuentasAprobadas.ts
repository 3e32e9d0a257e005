/**
 * The split accounts a merchant approves in the portal (issue 33; SPEC's
 * `split_cuenta_no_preaprobada`: "an account is not among those the merchant approved in the
 * portal (up to 20; must match type, bank, number and holder id)"). A link's `split` names only
 * these accounts; operators see them in the console's merchant detail.
 *
 * Who may call: a portal session only (a key is `401`: SPEC says the merchant approves them in
 * the portal, and DESIGN keeps money-critical configuration out of reach of a key); every role
 * reads, only the `propietario` adds or removes (`403 rol_no_permitido`), with `x-csrf-token`.
 *
 * Each account is checked as an Instrument and beyond: 20 digits of the bank it names with valid
 * check digits (or a Venezuelan mobile), a known bank, a valid cédula, RIF or passport (`400
 * validation`, nothing changes). Up to 20 (`409 limite_cuentas`). "An account in another
 * holder's name is refused": an account number has one holder, so an account the service already
 * knows (the merchant's own settlement account, any merchant's settlement account checked to be
 * in its name, an account already on this list) given with a different holder id is `409
 * cuenta_otro_titular`; an account never seen is taken with the holder id given. An add answers
 * `201` when the account was added, `200` with the unchanged list when it was already there (the
 * admin API's route answers the same way).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Instrument } from "@switch/core"
import { Schema } from "effect"
import { JsonBody, strictBody } from "./Body.js"
import { NotFound, ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const CuentaAprobada = Schema.Struct({
  id: Schema.String.annotations({
    description:
      "Identificador opaco de la cuenta en estas rutas (`ca_…`): estable, propio de cada comercio y sin el número ni el teléfono"
  }),
  tipo: Schema.Literal("cuenta", "telefono"),
  valor: Schema.String.annotations({
    description: "Número de cuenta (20 dígitos) o teléfono, sin separadores"
  }),
  banco: Schema.String.annotations({ description: "Código del banco (4 dígitos)" }),
  identificacion: Schema.String.annotations({ description: "Cédula o RIF del titular" }),
  tipo_doc: Schema.optional(Schema.String),
  nombre: Schema.String
}).annotations({ identifier: "CuentaAprobada" })
export type CuentaAprobada = typeof CuentaAprobada.Type

export const CuentasAprobadasLista = Schema.Struct({
  data: Schema.Array(CuentaAprobada),
  max: Schema.Int.annotations({ description: "Cuántas cuentas puede aprobar un comercio: 20" })
}).annotations({ identifier: "CuentasAprobadas" })
export type CuentasAprobadasLista = typeof CuentasAprobadasLista.Type

export const CuentaAprobadaBody = strictBody(Instrument.Instrument).annotations({
  identifier: "CuentaAprobadaNueva"
})

/** `409` of these routes: past 20 accounts, or an account known under another holder. */
export class CuentasConflict extends Schema.Class<CuentasConflict>("CuentasConflict")(
  {
    error: Schema.Literal("limite_cuentas", "cuenta_otro_titular"),
    detail: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 409 })
) {}

const idParam = HttpApiSchema.param("id", Schema.String)

export class CuentasAprobadasGroup extends HttpApiGroup.make("cuentasAprobadas")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/cuentas-aprobadas")
      .annotate(Permisos, permiso({ sesion: TODOS }))
      .addSuccess(CuentasAprobadasLista)
      .annotate(OpenApi.Summary, "Cuentas aprobadas para repartos (split): la lista del comercio (panel)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del panel; todos los roles la leen. Un `split` solo puede nombrar estas cuentas."
      )
  )
  .add(
    HttpApiEndpoint.post("add", "/switch/v1/cuentas-aprobadas")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(CuentaAprobadaBody)
      .middleware(JsonBody)
      .addSuccess(CuentasAprobadasLista, { status: 201 })
      .addSuccess(
        CuentasAprobadasLista.annotations({ description: "La cuenta ya estaba aprobada: la lista igual" }),
        {
          status: 200
        }
      )
      .addError(ValidationError)
      .addError(CuentasConflict)
      .annotate(OpenApi.Summary, "Aprobar una cuenta para repartos (solo propietario)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del `propietario` y `x-csrf-token`. Se revisa tipo, banco, número (dígitos de " +
          "control) y cédula o RIF del titular (`400 validation`). Hasta 20 (`409 limite_cuentas`). Una " +
          "cuenta que Switch ya conoce a nombre de otro titular se rechaza (`409 cuenta_otro_titular`). " +
          "Responde `201` con la lista cuando la cuenta se agrega; una cuenta ya aprobada no se repite: " +
          "responde `200` con la lista igual (la misma regla que `POST /admin/v1/comercios/{codigo}/cuentas-aprobadas`)."
      )
  )
  .add(
    HttpApiEndpoint.del("remove")`/switch/v1/cuentas-aprobadas/${idParam}`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(CuentasAprobadasLista)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Quitar una cuenta aprobada para repartos (solo propietario)")
      .annotate(
        OpenApi.Description,
        "Solo con sesión del `propietario` y `x-csrf-token`. Los links ya creados con esa cuenta no " +
          "cambian; antes de pagar cada parte se vuelve a revisar la aprobación."
      )
  )
  .middleware(Authentication) {}
