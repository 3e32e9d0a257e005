/**
 * The card pilot's charges that need a person, two kinds of @switch/core's CardCharge:
 * - `faltante`: the processor approved it, the link is paid, but the nightly close brought no
 *   credit, so the merchant is not settled. An operator asks the processor again (a credit found
 *   in its close settles the merchant), marks it credited with the credit's reference (the
 *   merchant is settled and `link.acreditado` sent), or closes it with a note.
 * - `duplicado`: the processor approved it when its link had been paid another way (or could no
 *   longer be paid): the payer may be charged twice. It never settles the merchant; an operator
 *   closes it with a note once the payer is refunded at the processor.
 * The moves are the checkout's (platform/card/CargosTarjeta.ts), through the same machine as the
 * close itself. Marking credited and closing take four eyes from SWITCH_CUATRO_OJOS_DESDE, as
 * every source's hand-recorded resolutions (Cola.ts `manuales`).
 */
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { CardCharge, Money } from "@switch/core"
import { Effect, Schema } from "effect"
import { Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import { CargosTarjeta } from "../../platform/card/CargosTarjeta.js"
import { OperadorError, OperadorService } from "../OperadorService.js"
import { type Contexto, type Fuente, type Item, manuales, type Ruta } from "./Cola.js"

export const TIPO = "cargo_tarjeta"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const MarcarAcreditadoBody = Schema.Struct({
  referencia: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})

/** Why each kind of charge waits for a person, as the queue shows it. */
const MOTIVO = {
  faltante: "cargo con tarjeta aprobado que no llegó en el cierre nocturno del procesador",
  duplicado:
    "cargo con tarjeta aprobado cuando el link ya estaba pagado de otra forma (o ya no se podía pagar): posible doble cobro; reembolsa al pagador en el procesador y ciérralo con una nota"
} as const

interface Row {
  readonly id: string
  readonly estado: "faltante" | "duplicado"
  readonly link_id: string
  readonly codigo: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly recargo: number
  readonly referencia: string | null
  readonly actualizado_at: Date
}

interface Locked {
  readonly id: string
  readonly estado: CardCharge.CardChargeState
  readonly monto: number
  readonly propina: number
  readonly referencia: string | null
}

const listar = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Row>`
    select t.id, t.estado, t.link_id, c.codigo, l.mode, t.monto, t.propina, t.recargo, t.referencia, t.actualizado_at
    from cargos_tarjeta t join comercios c on c.id = t.comercio_id join links l on l.id = t.link_id
    where t.estado in ('faltante', 'duplicado') order by t.actualizado_at limit 500`.pipe(Effect.orDie)
  return rows.map(
    (r): Item => ({
      tipo: TIPO,
      id: r.id,
      link_id: r.link_id,
      comercio: r.codigo,
      mode: r.mode,
      monto: (r.monto + r.propina) / 100,
      motivo: MOTIVO[r.estado],
      con_reparto: false,
      desde: r.actualizado_at,
      extra: { estado: r.estado, referencia: r.referencia, recargo_tarjeta: r.recargo / 100 },
      respuestas: { objeto_tipo: TIPO, objeto_id: r.id }
    })
  )
})

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cargos = yield* CargosTarjeta
    const operadores = yield* OperadorService
    const settings = yield* Settings
    const cargoId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    /** The charge locked for this transaction, if it waits for a person. */
    const lock = (id: string) =>
      Effect.gen(function* () {
        const [row] = yield* sql<Locked>`
          select id::text as id, estado, monto, propina, referencia from cargos_tarjeta where id = ${id} for update`
        if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
        if (row.estado !== "faltante" && row.estado !== "duplicado")
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `El cargo está ${row.estado}, no en revisión.`)
          )
        return row
      })

    /** Applies the decision through the checkout's machine; refused when the machine refuses it. */
    const decide = (row: Locked, event: CardCharge.CardChargeEvent) =>
      Effect.gen(function* () {
        const done = yield* cargos.decidir(row.id, event)
        if (done === null) return yield* Effect.fail(OperadorError.notFound())
        if (!done.aplicado)
          return yield* Effect.fail(
            OperadorError.conflict("no_en_revision", `El cargo está ${done.estado}, no en revisión.`)
          )
        return { despues: { estado: done.estado }, respuesta: { id: row.id, estado: done.estado } }
      })

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
      ...manuales({
        ctx,
        sql,
        settings,
        auditar: operadores.auditar,
        base,
        objetoTipo: TIPO,
        clave: cargoId,
        objetoId: (id) => id,
        bloquear: lock,
        monto: (row) => row.monto + row.propina,
        vista: (row) => ({
          estado: row.estado,
          referencia: row.referencia,
          monto: Money.toNumber(Money.Cents(row.monto + row.propina))
        }),
        rutaMarcarPagada: "marcar-acreditado",
        marcarPagada: {
          auditoria: "cargo_tarjeta.marcar_acreditado",
          schema: MarcarAcreditadoBody,
          admite: (row) =>
            row.estado === "duplicado"
              ? Effect.fail(
                  OperadorError.conflict(
                    "cargo_duplicado",
                    "Un cargo duplicado no se acredita al comercio: el link ya estaba pagado. Reembolsa al pagador en el procesador y ciérralo con una nota."
                  )
                )
              : Effect.void,
          aplicar: (_who, row, input) =>
            Effect.map(
              decide(row, CardCharge.CardChargeEvent.MarcarAcreditada({ referencia: input.referencia })),
              (done) => ({ ...done, nota: input.nota })
            )
        },
        cerrar: {
          auditoria: "cargo_tarjeta.cerrar",
          schema: CerrarBody,
          aplicar: (_who, row, input) =>
            Effect.map(
              decide(row, CardCharge.CardChargeEvent.CerrarConNota({ nota: input.nota })),
              (done) => ({
                ...done,
                nota: input.nota
              })
            )
        }
      })
    ]
    return out
  })

export const cargosTarjeta: Fuente<SqlClient.SqlClient | CargosTarjeta | OperadorService | Settings> = {
  listar,
  rutas
}
