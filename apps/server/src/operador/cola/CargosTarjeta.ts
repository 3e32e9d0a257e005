/**
 * The card pilot's charges missing from the processor's nightly close (`faltante` in
 * @switch/core's CardCharge): the processor approved them, the link is paid, but no credit came,
 * so the merchant is not settled. An operator asks the processor again (a credit found in its
 * close settles the merchant), marks the charge credited with the credit's reference (the
 * merchant is settled and `link.acreditado` sent), or closes it with a note. The moves are the
 * checkout's (platform/card/CargosTarjeta.ts), through the same machine as the close itself.
 */
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { CardCharge } from "@switch/core"
import { Effect, Schema } from "effect"
import { json } from "../../http/Respond.js"
import { CargosTarjeta } from "../../platform/card/CargosTarjeta.js"
import { decodeBody, OperadorError, OperadorService } from "../OperadorService.js"
import type { Contexto, Fuente, Item, Ruta } from "./Cola.js"

export const TIPO = "cargo_tarjeta"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const MarcarAcreditadoBody = Schema.Struct({
  referencia: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

interface Row {
  readonly id: string
  readonly link_id: string
  readonly codigo: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly recargo: number
  readonly referencia: string | null
  readonly actualizado_at: Date
}

const listar = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Row>`
    select t.id, t.link_id, c.codigo, l.mode, t.monto, t.propina, t.recargo, t.referencia, t.actualizado_at
    from cargos_tarjeta t join comercios c on c.id = t.comercio_id join links l on l.id = t.link_id
    where t.estado = 'faltante' order by t.actualizado_at limit 500`.pipe(Effect.orDie)
  return rows.map(
    (r): Item => ({
      tipo: TIPO,
      id: r.id,
      link_id: r.link_id,
      comercio: r.codigo,
      mode: r.mode,
      monto: (r.monto + r.propina) / 100,
      motivo: "cargo con tarjeta aprobado que no llegó en el cierre nocturno del procesador",
      con_reparto: false,
      desde: r.actualizado_at,
      extra: { referencia: r.referencia, recargo_tarjeta: r.recargo / 100 },
      respuestas: { objeto_tipo: TIPO, objeto_id: r.id }
    })
  )
})

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const cargos = yield* CargosTarjeta
    const operadores = yield* OperadorService
    const cargoId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )
    const decide = (
      accion: string,
      event: (body: unknown) => Effect.Effect<CardCharge.CardChargeEvent, OperadorError>
    ) =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const id = yield* cargoId
        const e = yield* event(yield* ctx.body)
        const done = yield* cargos.decidir(id, e)
        if (done === null) return yield* Effect.fail(OperadorError.notFound())
        if (!done.aplicado)
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `El cargo está ${done.estado}, no en revisión.`)
          )
        yield* operadores.auditar(who, {
          accion,
          objeto_tipo: TIPO,
          objeto_id: id,
          antes: { estado: "faltante" },
          despues: { estado: done.estado },
          nota: "nota" in e ? e.nota : undefined
        })
        return json({ id, estado: done.estado })
      }) as Ruta["handler"]

    const base = "/admin/v1/operador/revision/cargos-tarjeta/:id" as const
    const out: ReadonlyArray<Ruta> = [
      {
        method: "post",
        path: `${base}/consultar`,
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const id = yield* cargoId
          const asked = yield* cargos.consultar(id)
          if (asked === null) return yield* Effect.fail(OperadorError.notFound())
          yield* operadores.auditar(who, {
            accion: "cargo_tarjeta.consultar_procesador",
            objeto_tipo: TIPO,
            objeto_id: id,
            despues: asked
          })
          return json({ id, ...asked })
        }) as Ruta["handler"]
      },
      {
        method: "post",
        path: `${base}/marcar-acreditado`,
        handler: decide("cargo_tarjeta.marcar_acreditado", (body) =>
          Effect.map(decodeBody(MarcarAcreditadoBody)(body), (input) =>
            CardCharge.CardChargeEvent.MarcarAcreditada({ referencia: input.referencia })
          )
        )
      },
      {
        method: "post",
        path: `${base}/cerrar`,
        handler: decide("cargo_tarjeta.cerrar", (body) =>
          Effect.map(decodeBody(CerrarBody)(body), (input) =>
            CardCharge.CardChargeEvent.CerrarConNota({ nota: input.nota })
          )
        )
      }
    ]
    return out
  })

export const cargosTarjeta: Fuente<CargosTarjeta | OperadorService> = { listar, rutas }
