/**
 * Immediate settlement (SPEC "Immediate settlement"): the net of a paid link (amount + tip −
 * commission, `Fees.net`) is credited to the merchant's `cuenta_liquidacion`, recorded as a
 * `liquidacion` transaction, and `link.acreditado` is emitted.
 *
 * Live payments enqueue the `liquidar` job in the payment's transaction (`LinkMachine`'s
 * `Liquidar`). Simulated payments (test mode) record the settlement at once, in the same
 * transaction, through the same {@link recordSettled}.
 *
 * Never paid twice: the settlement row is written (unique per link) and committed before the
 * credit is sent; a job that finds the row already there only asks the bank about it by its
 * id, and a rejected, failed or unclear answer puts it in `REVISION` for an operator.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Fees, Money, type Ports, Split } from "@switch/core"
import { absurd, Effect, Layer, Match, Option } from "effect"
import { Settings } from "../Config.js"
import * as AvisosDueno from "../platform/AvisosDueno.js"
import { Banks } from "../platform/bank/Banks.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import * as Outbox from "../platform/Outbox.js"
import * as RespuestasBanco from "../platform/RespuestasBanco.js"
import { encolarLiquidacion, Settlements, TASK_LIQUIDAR } from "../platform/Settlements.js"
import { recordSimulated } from "./Reparto.js"
import * as RepartoLive from "./RepartoLive.js"

export const TASK = TASK_LIQUIDAR

/** How many times a credit the bank accepted but has not settled is asked about before review. */
const MAX_CONSULTAS = 10
const CONSULTA_SEGUNDOS = 30

/** The service's operating account, the payer side of every settlement credit. */
const ORDENANTE: Ports.Party = {
  tipo: "cuenta",
  valor: "01020000000000000000",
  banco: "0102",
  identificacion: "J000000000",
  tipo_doc: "J",
  nombre: "Switch liquidaciones"
}

/** Queues the settlement of a paid link; call it inside the payment's transaction. */
export const enqueue = encolarLiquidacion

const money = (cents: number) => Money.toNumber(Money.Cents(cents))

/** The merchant's net of a paid link. */
export const netOf = (link: { monto: number; propina: number }, comisionBp: number | null): number =>
  Fees.net({
    amount: Money.Cents(link.monto),
    tip: Money.Cents(link.propina),
    commissionPct: Fees.commissionPctFor(comisionBp == null ? null : Money.BasisPoints(comisionBp))
  }).neto

/** `link.acreditado` once per link (its dedupe); `reparto` as stored, shown in bolivars. */
const emitAcreditado = (input: {
  readonly txnId: string
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly neto: number
  readonly reparto: Split.RepartoView | null
  readonly at: Date
}) =>
  Outbox.write({
    comercioId: input.comercioId,
    mode: input.mode,
    evento: "link.acreditado",
    dedupe: `link.acreditado:${input.linkId}`,
    at: input.at,
    data: {
      link_id: input.linkId,
      monto_acreditado: money(input.neto),
      liquidacion_txn_id: input.txnId,
      reparto: input.reparto === null ? null : Split.repartoJson(input.reparto),
      mode: input.mode
    }
  })

/** Marks the settlement LIQUIDADA and emits `link.acreditado` once (its dedupe is per link). */
export const recordSettled = (input: {
  readonly txnId: string
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly neto: number
  readonly referencia: string | null
  readonly reparto?: Split.RepartoView | null
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql`
      update transacciones set estado = 'LIQUIDADA', referencia_banco = ${input.referencia},
        liquidada_at = ${input.at}, motivo_rechazo = null
      where id = ${input.txnId}`
    yield* emitAcreditado({ ...input, reparto: input.reparto ?? null })
  })

/**
 * The simulated settlement of a test payment, inside markPaid's transaction: what it records
 * is core's `Split.simulateSettlement` (Reparto.ts writes it). A split in review settles
 * nothing and sends no `link.acreditado`; a split that takes the whole net credits 0 under the
 * payer's payment id.
 */
export const settleSimulated = (input: {
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly cobroTxnId: string
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* LinksRepo.splitAndCommission(input.linkId)
    const neto = netOf(input, rows[0]?.comision_bp ?? null)
    const split = rows[0]?.split ?? null
    const [merchant] = yield* sql<{ liquidacion_inmediata: boolean }>`
      select liquidacion_inmediata from comercios where id = ${input.comercioId}`
    if (split !== null && merchant?.liquidacion_inmediata === false) {
      // Immediate settlement turned off after the link was made: the split goes to review
      // instead of paying nobody (issue 42), as in live mode.
      const entries = Split.decode(split)
      if (entries._tag === "Left")
        return yield* Effect.dieMessage(`stored split of link ${input.linkId} does not decode`)
      const planned = Split.planLive(Money.Cents(neto), entries.right, { liquidacionInmediata: false })
      yield* LinksRepo.setReparto(input.linkId, planned.reparto)
      for (const [indice, part] of planned.reparto.beneficiarios.entries()) {
        if (part.estado !== "en_revision") continue
        yield* sql`
          insert into repartos_motivos (link_id, indice, motivo)
          values (${input.linkId}, ${indice}, 'la liquidación inmediata del comercio está desactivada')
          on conflict (link_id, indice) do nothing`
      }
      return
    }
    const plan = yield* recordSimulated({ ...input, split: rows[0]?.split ?? null, neto })
    return yield* Match.valueTags(plan, {
      EnRevision: () => Effect.void,
      SoloReparto: ({ reparto }) => emitAcreditado({ ...input, txnId: input.cobroTxnId, neto: 0, reparto }),
      Liquidacion: ({ montoComercio, reparto }) =>
        Effect.gen(function* () {
          const txnId = randomUUID()
          const inserted = yield* sql`
            insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda, created_at)
            values (${txnId}, ${input.comercioId}, ${input.mode}, 'liquidacion', 'PENDIENTE', ${input.linkId},
              ${montoComercio}, 'VES', ${input.at})
            on conflict do nothing returning id`
          if (inserted.length === 0) return
          yield* recordSettled({
            ...input,
            txnId,
            neto: montoComercio,
            referencia: Split.REFERENCIA_SIMULADA,
            reparto
          })
        })
    })
  })

interface Pending {
  readonly txnId: string
  readonly fresh: boolean
  readonly estado: string
  readonly comercioId: string
  readonly mode: Mode
  readonly neto: number
  readonly cuenta: Ports.Party | null
}

/**
 * Writes (or finds) the link's settlement row; none when the link needs no settlement. A live
 * link's finished split (`split`) settles only the merchant's part, `monto_comercio`.
 */
const claim = (linkId: string, at: Date, split: RepartoLive.Listo | null = null) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* LinksRepo.paidForSettlement(linkId)
    const link = rows[0]
    if (link === undefined) return Option.none<Pending>()
    const neto = split === null ? netOf(link, link.comision_bp) : split.montoComercio
    const txnId = randomUUID()
    if (link.split !== null && split === null) {
      // Test links share out in simulation when paid (checkout/Settle.ts, platform/PaymentRecorder.ts)
      // and live links through RepartoLive.ts: a link with a split that reaches this point must
      // never have its whole net paid to the merchant, so it waits in review for an operator.
      yield* sql`
        insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda,
          motivo_rechazo, created_at)
        values (${txnId}, ${link.comercio_id}, ${link.mode}, 'liquidacion', 'REVISION', ${linkId}, ${neto}, 'VES',
          'link con reparto: revisar antes de liquidar', ${at})
        on conflict do nothing`
      yield* Effect.logWarning(`liquidación del link ${linkId} en revisión: tiene reparto`)
      return Option.none<Pending>()
    }
    const inserted = yield* sql`
      insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda, created_at)
      values (${txnId}, ${link.comercio_id}, ${link.mode}, 'liquidacion', 'PENDIENTE', ${linkId}, ${neto}, 'VES', ${at})
      on conflict do nothing returning id`
    const existing =
      inserted.length > 0
        ? [{ id: txnId, estado: "PENDIENTE" }]
        : yield* sql<{ id: string; estado: string }>`
            select id, estado from transacciones where link_id = ${linkId} and operacion = 'liquidacion'`
    const row = existing[0]
    if (row === undefined) return Option.none<Pending>()
    return Option.some<Pending>({
      txnId: row.id,
      fresh: inserted.length > 0,
      estado: row.estado,
      comercioId: link.comercio_id,
      mode: link.mode,
      neto,
      cuenta: link.cuenta_liquidacion
    })
  })

/** In review for an operator; the owners hear that it could not be credited (issue 45). */
const toReview = (txnId: string, motivo: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        const [moved] = yield* sql<{ comercio_id: string; link_id: string | null; monto: number }>`
          update transacciones set estado = 'REVISION', motivo_rechazo = ${motivo}
          where id = ${txnId} and estado = 'PENDIENTE'
          returning comercio_id::text as comercio_id, link_id::text as link_id, monto`
        if (moved !== undefined)
          yield* AvisosDueno.encolar(sql, moved.comercio_id, {
            tipo: "liquidacion_fallida",
            liquidacion_id: txnId,
            link_id: moved.link_id,
            monto: moved.monto,
            motivo
          })
      })
    )
    yield* Effect.logWarning(`liquidación ${txnId} en revisión: ${motivo}`)
  })

/** The `liquidar` job: credit (or, when resumed, query) and record the answer. */
export const runSettlement = (payload: { readonly link_id: string; readonly consulta?: number }) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const linkId = payload.link_id
    const consulta = payload.consulta ?? 0
    // A live link's split is paid part by part first; the merchant's part only once it finished.
    const [kind] = yield* sql<{ mode: Mode; con_split: boolean }>`
      select mode, split is not null as con_split from links where id = ${linkId}`
    let split: RepartoLive.Listo | null = null
    if (kind?.con_split === true && kind.mode === "live") {
      const listo = yield* RepartoLive.run(linkId)
      if (Option.isNone(listo)) return
      split = listo.value
    }
    const claimed = yield* claim(linkId, new Date(), split).pipe(sql.withTransaction)
    if (Option.isNone(claimed)) return
    const p = claimed.value
    if (p.estado === "LIQUIDADA" || p.estado === "REVISION") return

    if (p.cuenta === null) return yield* toReview(p.txnId, "el comercio no tiene cuenta_liquidacion")
    const bank = (yield* Banks).forMode(p.mode)
    // Only the job that wrote the row sends money; any other run asks about that order.
    const answer =
      p.fresh && consulta === 0
        ? yield* bank.credit({
            operacionId: p.txnId,
            monto: Money.Cents(p.neto),
            concepto: `Liquidación del link ${linkId}`,
            ordenante: ORDENANTE,
            beneficiario: p.cuenta,
            via: "credito_inmediato"
          })
        : yield* bank.query(p.txnId)

    switch (answer.estado) {
      case "LIQUIDADA":
        return yield* recordSettled({
          txnId: p.txnId,
          linkId,
          comercioId: p.comercioId,
          mode: p.mode,
          neto: p.neto,
          referencia: answer.referencia_banco,
          reparto: split?.reparto ?? null,
          at: new Date()
        }).pipe(sql.withTransaction)
      case "ACEPTADA":
      case "PENDIENTE":
        if (consulta + 1 >= MAX_CONSULTAS)
          return yield* toReview(p.txnId, `sin confirmar tras ${MAX_CONSULTAS} consultas`)
        return yield* enqueue(
          linkId,
          consulta + 1,
          CONSULTA_SEGUNDOS * (yield* Settings).webhookBackoffEscala
        )
      case "RECHAZADA":
      case "ERROR":
      case "DESCONOCIDA":
        // Kept as the item's last answer, with the bank's own code and words (issue 45).
        yield* RespuestasBanco.guardar(sql, {
          objeto_tipo: "liquidacion",
          objeto_id: p.txnId,
          answer,
          origen: "envio",
          operadorId: null
        })
        return yield* toReview(p.txnId, RespuestasBanco.motivo(answer))
      default:
        return absurd<never>(answer.estado)
    }
  }).pipe(Effect.orDie)

/** What the payment recorder (platform/PaymentRecorder.ts) asks of settlement. */
export const SettlementsLive = Layer.succeed(Settlements, {
  enqueue: (linkId) => Effect.asVoid(enqueue(linkId)),
  settleSimulated
})
