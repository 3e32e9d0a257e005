/**
 * Settlements in review (`liquidacion` transactions in `REVISION`), the queue's first source:
 * the row as the console resolves it, settling it with the bank's reference, and the reconciler
 * of the payments operators send through the bank (issue 45).
 *
 * A payment through the bank (`pagos_revision`, four eyes) that the bank only accepted
 * (`ACEPTADA`, `PENDIENTE`) or left unclear stays `enviado`; it used to stay so until someone
 * pressed "Consultar". Now sending it sets `proxima_consulta`, and {@link ConciliadorLive} asks
 * the bank about it by its own id every `conciliarSegundos` (doubling, up to an hour), like any
 * unclear order: settled → the settlement is `LIQUIDADA` and leaves the queue; rejected → the
 * payment failed and the item stays for a person with the bank's answer; otherwise asked again.
 * Rows are claimed with a lease (`for update skip locked`), so two processes never ask twice at
 * once, and nothing is ever sent again: only asked.
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Money, Split } from "@switch/core"
import { Duration, Effect, Layer, Option } from "effect"
import { Settings } from "../../Config.js"
import * as AvisosDueno from "../../platform/AvisosDueno.js"
import { Banks } from "../../platform/bank/Banks.js"
import * as Outbox from "../../platform/Outbox.js"
import * as RespuestasBanco from "../../platform/RespuestasBanco.js"
import { guardarRespuesta } from "./Cola.js"

export interface SettlementRow {
  readonly id: string
  readonly link_id: string | null
  readonly comercio_id: string
  readonly mode: Mode
  readonly monto: number
  readonly estado: string
  readonly motivo_rechazo: string | null
  readonly referencia_banco: string | null
  readonly con_reparto: boolean
  /** The link's split when this settlement is the merchant's part of a finished live split. */
  readonly reparto: Split.RepartoView | null
}

/**
 * The settlement, locked for the caller's transaction; none when it is not a settlement. A link
 * with a split: only the merchant's part of a finished live split (`repartido` or `cerrado`, not
 * stopped by a refund, the row's amount its `monto_comercio`) is resolvable, and its
 * `link.acreditado` carries the `reparto` (SPEC); any other has `con_reparto` set.
 */
export const bloquear = (sql: PgClient.PgClient, id: string) =>
  Effect.gen(function* () {
    const [found] = yield* sql<
      SettlementRow & { parte_comercio: boolean; link_reparto: Split.RepartoView | null }
    >`
      select t.id::text as id, t.link_id::text as link_id, t.comercio_id::text as comercio_id, t.mode,
        t.monto, t.estado, t.motivo_rechazo, t.referencia_banco, (l.split is not null) as con_reparto,
        l.reparto as link_reparto,
        coalesce(l.mode = 'live' and l.reparto->>'estado' in ('repartido', 'cerrado')
          and (l.reparto->>'monto_comercio')::bigint = t.monto
          and not exists (select 1 from repartos_detenidos d where d.link_id = l.id), false) as parte_comercio
      from transacciones t left join links l on l.id = t.link_id
      where t.id = ${id} and t.operacion = 'liquidacion' for update of t`
    if (found === undefined) return Option.none<SettlementRow>()
    return Option.some<SettlementRow>({
      id: found.id,
      link_id: found.link_id,
      comercio_id: found.comercio_id,
      mode: found.mode,
      monto: found.monto,
      estado: found.estado,
      motivo_rechazo: found.motivo_rechazo,
      referencia_banco: found.referencia_banco,
      con_reparto: found.con_reparto && !found.parte_comercio,
      reparto: found.con_reparto && found.parte_comercio ? found.link_reparto : null
    })
  })

/** LIQUIDADA with the bank's reference, and `link.acreditado` once (its dedupe is per link). */
export const liquidar = (sql: PgClient.PgClient, row: SettlementRow, referencia: string) =>
  Effect.gen(function* () {
    const at = new Date()
    yield* sql`
      update transacciones set estado = 'LIQUIDADA', referencia_banco = ${referencia}, liquidada_at = ${at},
        motivo_rechazo = null
      where id = ${row.id} and estado = 'REVISION'`
    if (row.link_id !== null)
      yield* Outbox.write({
        comercioId: row.comercio_id,
        mode: row.mode,
        evento: "link.acreditado",
        dedupe: `link.acreditado:${row.link_id}`,
        at,
        data: {
          link_id: row.link_id,
          monto_acreditado: Money.toNumber(Money.Cents(row.monto)),
          liquidacion_txn_id: row.id,
          reparto: row.reparto === null ? null : Split.repartoJson(row.reparto),
          mode: row.mode
        }
      }).pipe(Effect.provideService(PgClient.PgClient, sql))
    return { ...row, estado: "LIQUIDADA", referencia_banco: referencia, motivo_rechazo: null }
  })

const MAX_ESPERA_S = 3600
const BATCH = 20

/** When to ask again after `consultas` questions: `conciliarSegundos` doubling, at most an hour. */
export const proximaConsulta = (conciliarSegundos: number, consultas: number, now = new Date()) =>
  new Date(now.getTime() + Math.min(conciliarSegundos * 2 ** Math.min(consultas, 12), MAX_ESPERA_S) * 1000)

/**
 * When an order committed as `enviado` before it goes out is first due to the reconciler: after
 * the sender has had its answer (three bank deadlines), so a crash mid-send is still asked about
 * and a send under way is never raced.
 */
export const trasElEnvio = (settings: { readonly bankTimeoutMs: number }, now = new Date()) =>
  new Date(now.getTime() + settings.bankTimeoutMs * 3 + 5_000)

/** One round: the payments due to be asked about, claimed with a lease, asked, recorded. */
export const conciliar = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const settings = yield* Settings
  const banks = yield* Banks
  const now = new Date()
  const lease = trasElEnvio(settings, now)
  const due = yield* sql<{ id: string; transaccion_id: string; mode: Mode }>`
    update pagos_revision p set proxima_consulta = ${lease}, consultas = p.consultas + 1
    from transacciones t
    where t.id = p.transaccion_id and p.id in (
      select id from pagos_revision
      where proxima_consulta <= ${now} and estado = 'enviado'
      order by proxima_consulta limit ${BATCH}
      for update skip locked)
    returning p.id::text as id, p.transaccion_id::text as transaccion_id, t.mode`
  yield* Effect.forEach(
    due,
    (pago) =>
      Effect.flatMap(banks.forMode(pago.mode).query(pago.id), (answer) =>
        Effect.gen(function* () {
          const [open] = yield* sql<{ consultas: number }>`
            select consultas from pagos_revision where id = ${pago.id} and estado = 'enviado' for update`
          if (open === undefined) return
          yield* guardarRespuesta(sql, {
            objeto_tipo: "liquidacion",
            objeto_id: pago.transaccion_id,
            answer,
            origen: "envio",
            operadorId: null
          })
          const banco = sql.json({
            estado: answer.estado,
            referencia_banco: answer.referencia_banco,
            motivo_rechazo: answer.motivo_rechazo
          })
          if (answer.estado === "LIQUIDADA" && answer.referencia_banco !== null) {
            yield* sql`
              update pagos_revision set estado = 'pagado', proxima_consulta = null, respuesta = ${banco}
              where id = ${pago.id}`
            const row = yield* bloquear(sql, pago.transaccion_id)
            if (Option.isSome(row) && row.value.estado === "REVISION")
              yield* liquidar(sql, row.value, answer.referencia_banco)
            return
          }
          if (answer.estado === "RECHAZADA") {
            yield* sql`
              update pagos_revision set estado = 'fallido', proxima_consulta = null, respuesta = ${banco}
              where id = ${pago.id}`
            // The owners hear that this payment, too, could not be credited.
            const row = yield* bloquear(sql, pago.transaccion_id)
            if (Option.isSome(row))
              yield* AvisosDueno.encolar(sql, row.value.comercio_id, {
                tipo: "liquidacion_fallida",
                liquidacion_id: row.value.id,
                link_id: row.value.link_id,
                monto: row.value.monto,
                motivo: RespuestasBanco.motivo(answer)
              })
            return
          }
          yield* sql`
            update pagos_revision
            set proxima_consulta = ${proximaConsulta(settings.conciliarSegundos, open.consultas)}, respuesta = ${banco}
            where id = ${pago.id}`
        }).pipe(sql.withTransaction)
      ).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`conciliación del pago de liquidación ${pago.id} falló`, cause)
        )
      ),
    { concurrency: 5, discard: true }
  )
  return due.length
}).pipe(Effect.orDie)

/** Every server process asks the bank about the queue's unsettled payments every `conciliarSegundos`. */
export const ConciliadorLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const settings = yield* Settings
    const round = conciliar.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("conciliación de pagos en revisión falló", cause))
    )
    yield* Effect.forkScoped(
      Effect.forever(Effect.zipRight(round, Effect.sleep(Duration.seconds(settings.conciliarSegundos))))
    )
  })
)
