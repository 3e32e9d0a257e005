/**
 * The portal's home summary (our addition to SPEC): what the merchant collected today and on
 * each of the last 7 Venezuelan days, its open links, its latest payments and its settlements
 * by state, all in the caller's mode. Read-only.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ModeSchema } from "./Links.js"
import { AMBOS, Permisos, permiso, TODOS } from "./Permisos.js"
import { Authentication } from "./Security.js"

const Cobros = Schema.Struct({
  cobrado: Schema.Number.annotations({
    description: "Suma de `total` (monto más propina) de los cobros liquidados"
  }),
  pagos: Schema.Int
})

export const ResumenDia = Schema.Struct({
  dia: Schema.String.annotations({ description: "Día venezolano (04:00 UTC a 04:00 UTC), `AAAA-MM-DD`" }),
  ...Cobros.fields
}).annotations({ identifier: "ResumenDia" })

export const Resumen = Schema.Struct({
  mode: ModeSchema,
  hoy: ResumenDia,
  semana: Schema.Array(ResumenDia).annotations({ description: "Los últimos 7 días, del más antiguo a hoy" }),
  links_abiertos: Schema.Int.annotations({ description: "Links `pendiente` que aún no vencen" }),
  pagos_recientes: Schema.Array(
    Schema.Struct({
      txn_id: Schema.String,
      link_id: Schema.NullOr(Schema.String),
      concepto: Schema.NullOr(Schema.String),
      total: Schema.Number,
      created_at: Schema.String
    })
  ).annotations({ description: "Los 5 cobros liquidados más recientes" }),
  liquidaciones: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ cantidad: Schema.Int, neto: Schema.Number })
  }).annotations({
    description: "Liquidaciones por estado (`PENDIENTE`, `LIQUIDADA`, `REVISION`, `RECHAZADA`)"
  })
}).annotations({ identifier: "Resumen" })
export interface Resumen extends Schema.Schema.Type<typeof Resumen> {}

export class ResumenGroup extends HttpApiGroup.make("resumen")
  .add(
    HttpApiEndpoint.get("get", "/switch/v1/resumen")
      .annotate(Permisos, permiso({ llave: AMBOS, sesion: TODOS }))
      .addSuccess(Resumen)
      .annotate(
        OpenApi.Summary,
        "Resumen del comercio para el inicio del panel (cobros de la semana, links y liquidaciones)"
      )
  )
  .middleware(Authentication) {}
