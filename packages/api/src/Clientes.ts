/**
 * The merchant's customers (our addition to SPEC): payers who ticked "become a customer" on
 * the payment page of a link that was then paid. Never the payer's id number, phone or name:
 * SPEC lets the API show only whether a payer became a customer (`pagador.alta_cliente`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ValidationError } from "./Errors.js"
import { ModeSchema } from "./Links.js"
import { AMBOS, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

export const Cliente = Schema.Struct({
  id: Schema.String,
  acepta_novedades: Schema.Boolean.annotations({
    description: "Permiso para enviarle novedades: solo clientes de un comercio empresa en modo live"
  }),
  prueba: Schema.Boolean.annotations({ description: "Alta desde un link de prueba; no es permiso" }),
  mode: ModeSchema,
  created_at: Schema.String
}).annotations({ identifier: "Cliente" })
export interface Cliente extends Schema.Schema.Type<typeof Cliente> {}

export class ClientesGroup extends HttpApiGroup.make("clientes")
  .add(
    HttpApiEndpoint.get("list", "/switch/v1/clientes")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optional(Schema.String),
          offset: Schema.optional(Schema.String),
          starting_after: Schema.optional(Schema.String).annotations({
            description:
              "Cursor: el id del último cliente de la página anterior; la página sigue después de él"
          })
        })
      )
      .addSuccess(Schema.Array(Cliente))
      .addError(ValidationError)
      .annotate(OpenApi.Summary, "Clientes del comercio en el modo de la llave, los más recientes primero")
  )
  .middleware(Authentication) {}
