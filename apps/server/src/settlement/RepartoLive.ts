/**
 * The split of a paid live link, paid part by part through the bank port (SPEC "Split rules",
 * issue 42). The `liquidar` job (Settlement.ts) runs {@link run} for a link with a split:
 *
 * 1. Plan, once: core's `Split.planLive` on the net (amount + tip − commission, in cents) is
 *    stored as the link's `reparto`. A net that does not cover the split, or immediate settlement
 *    turned off since the link was made, puts every part with an amount in review: nobody is paid.
 * 2. Each part still `pendiente`, in order, under the link's row lock (the lock a refund takes,
 *    direct/RepartoDetenido.ts): the approval (the account still on the merchant's list), the
 *    security controls and the daily cap are checked again; a failing part goes to `en_revision`
 *    with its reason and the others continue. A part that passes gets its own order in
 *    `pagos_reparto` (`origen` `automatico`, its id the bank order's id, at most one per part by a
 *    unique index), committed as `enviado` before the credit is sent. A run that finds that order
 *    already on record (a crash, a retry, a second worker) only asks the bank about it: an order
 *    is never sent twice.
 * 3. The answer: settled → the part is `pagado` with the bank's reference and its own `reparto`
 *    transaction; accepted or pending → asked again; rejected → the order failed and the part is
 *    in review; unclear (no answer, an error) → the part is in review and the order is asked
 *    about again by {@link RepartoReconcilerLive} until the bank says. One the bank says it never
 *    received, after `conciliarAbandonoSegundos`, failed: a person may pay it (four eyes).
 * 4. When no part is left `pendiente` or `en_revision` the split is finished and the job goes on
 *    to the merchant's part: none (the split took the whole net) sends `link.acreditado` with
 *    0 under the payer's payment id; otherwise Settlement.ts credits `monto_comercio` and sends
 *    `link.acreditado` with the `reparto` once the bank settles it. A split a refund stopped
 *    (`repartos_detenidos`) never credits the merchant nor sends `link.acreditado`.
 *
 * The cap's count per beneficiary is taken under a transaction-scoped advisory lock on the
 * merchant and account, so two links paying one beneficiary at once are counted one after the other.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Fees, type Instrument, Money, type Ports, Split } from "@switch/core"
import { Duration, Effect, Either, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import { Banks } from "../platform/bank/Banks.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import * as Outbox from "../platform/Outbox.js"
import * as RespuestasBanco from "../platform/RespuestasBanco.js"
import { encolarLiquidacion } from "../platform/Settlements.js"
import * as SplitControles from "../platform/SplitControles.js"

/** The service's operating account, the payer side of every credit to a beneficiary. */
const ORDENANTE: Ports.Party = {
  tipo: "cuenta",
  valor: "01020000000000000000",
  banco: "0102",
  identificacion: "J000000000",
  tipo_doc: "J",
  nombre: "Switch liquidaciones"
}

/** The key of a part's bank answers and audit rows (the console's, operador/cola/Repartos.ts). */
const parteId = (linkId: string, indice: number) => `${linkId}:${indice}`

const MAX_ESPERA_S = 3600
const BATCH = 20

interface LinkRow {
  readonly id: string
  readonly comercio_id: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly txn_id: string | null
  readonly split: ReadonlyArray<unknown> | null
  readonly reparto: Split.RepartoView | null
  readonly comision_bp: number | null
  readonly liquidacion_inmediata: boolean
  readonly cuentas_aprobadas: ReadonlyArray<Instrument.Instrument>
  readonly tope_beneficiario_diario: number | null
}

/** The paid link locked for this transaction, with its merchant's facts. */
const lockLink = (linkId: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<LinkRow>`
      select l.id::text as id, l.comercio_id::text as comercio_id, l.mode, l.monto, l.propina,
        l.txn_id::text as txn_id, l.split, l.reparto, c.comision_bp, c.liquidacion_inmediata,
        c.cuentas_aprobadas, c.tope_beneficiario_diario
      from links l join comercios c on c.id = l.comercio_id
      where l.id = ${linkId} and l.estado = 'pagado'
      for update of l`
  ).pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

const entriesOf = (link: LinkRow) =>
  Either.match(Split.decode(link.split), {
    onLeft: (e) => Effect.dieMessage(`stored split of link ${link.id} does not decode: ${e.detail}`),
    onRight: Effect.succeed
  })

const save = (linkId: string, reparto: Split.RepartoView) => LinksRepo.setReparto(linkId, reparto)

/** Why a part is in review, for the operators' queue (the latest reason wins). */
const motivo = (linkId: string, indice: number, text: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`
      insert into repartos_motivos (link_id, indice, motivo) values (${linkId}, ${indice}, ${text})
      on conflict (link_id, indice) do update set motivo = excluded.motivo, created_at = now()`
  )

/** Step 1: the link's reparto, planned and stored the first time. None: not a paid link. */
const plan = (linkId: string) =>
  Effect.gen(function* () {
    const found = yield* lockLink(linkId)
    if (Option.isNone(found)) return Option.none<LinkRow>()
    const link = found.value
    if (link.reparto !== null || link.split === null) return found
    const neto = Fees.net({
      amount: Money.Cents(link.monto),
      tip: Money.Cents(link.propina),
      commissionPct: Fees.commissionPctFor(
        link.comision_bp === null ? null : Money.BasisPoints(link.comision_bp)
      )
    }).neto
    const planned = Split.planLive(neto, yield* entriesOf(link), {
      liquidacionInmediata: link.liquidacion_inmediata
    })
    yield* save(linkId, planned.reparto)
    if (planned._tag === "EnRevision") {
      const text =
        planned.motivo === "no_cubre"
          ? "el neto del cobro no cubre el reparto: no se pagó a nadie"
          : "la liquidación inmediata del comercio está desactivada"
      yield* Effect.forEach(
        planned.reparto.beneficiarios,
        (b, i) => (b.estado === "en_revision" ? motivo(linkId, i, text) : Effect.void),
        { discard: true }
      )
      yield* Effect.logWarning(`reparto del link ${linkId} en revisión: ${text}`)
    }
    return Option.some({ ...link, reparto: planned.reparto })
  })

type Paso =
  | { readonly _tag: "Nada" }
  | { readonly _tag: "Consultar"; readonly pagoId: string }
  | {
      readonly _tag: "Enviar"
      readonly pagoId: string
      readonly cuenta: Instrument.Instrument
      readonly monto: number
    }

/** Step 2 for part `indice`: re-checked, and its order written, under the link's lock. */
const prepare = (linkId: string, indice: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const found = yield* lockLink(linkId)
    if (Option.isNone(found)) return { _tag: "Nada" } as Paso
    const link = found.value
    const part = link.reparto?.beneficiarios[indice]
    if (link.reparto === null || part === undefined || part.estado !== "pendiente")
      return { _tag: "Nada" } as Paso
    const [order] = yield* sql<{ id: string; estado: string }>`
      select id::text as id, estado from pagos_reparto
      where link_id = ${linkId} and indice = ${indice} and origen = 'automatico'`
    if (order !== undefined)
      return (order.estado === "enviado" ? { _tag: "Consultar", pagoId: order.id } : { _tag: "Nada" }) as Paso
    const held = yield* sql`select 1 from repartos_detenidos where link_id = ${linkId}`
    if (held.length > 0) return { _tag: "Nada" } as Paso
    const entry = (yield* entriesOf(link))[indice]
    if (entry === undefined) return yield* Effect.dieMessage(`part ${indice} of link ${linkId} has no entry`)
    const clave = Split.cuentaClave(entry.cuenta)
    yield* sql`select pg_advisory_xact_lock(hashtextextended(${`reparto:${link.comercio_id}:${link.mode}:${clave}`}, 0))`
    const now = new Date()
    const controles = yield* SplitControles.controles({
      comercioId: link.comercio_id,
      mode: link.mode,
      claves: [clave],
      tope: link.tope_beneficiario_diario,
      at: now
    })
    const bloqueo = Split.checkPart({
      cuenta: entry.cuenta,
      monto: Money.Cents(part.monto),
      approved: link.cuentas_aprobadas,
      controles
    })
    if (bloqueo !== null) {
      const text = Split.motivoBloqueo(bloqueo)
      yield* save(linkId, Split.withPart(link.reparto, indice, { estado: "en_revision" }))
      yield* motivo(linkId, indice, text)
      yield* Effect.logWarning(`parte ${indice} del reparto del link ${linkId} en revisión: ${text}`)
      return { _tag: "Nada" } as Paso
    }
    const pagoId = randomUUID()
    // Until the answer is recorded the reconciler leaves it alone; after a crash it asks.
    const lease = new Date(now.getTime() + settings.bankTimeoutMs * 3 + 5_000)
    yield* sql`
      insert into pagos_reparto (id, link_id, indice, monto, origen, estado, mode, comercio_id, cuenta_clave,
        proxima_consulta)
      values (${pagoId}, ${linkId}, ${indice}, ${part.monto}, 'automatico', 'enviado', ${link.mode},
        ${link.comercio_id}, ${clave}, ${lease})`
    return { _tag: "Enviar", pagoId, cuenta: entry.cuenta, monto: part.monto } as Paso
  })

/**
 * Step 3: records the bank's answer about the automatic order `pagoId` of part `indice`. An
 * order already decided is left as it is. When the split finishes, the settlement job is queued.
 */
export const applyAnswer = (pagoId: string, answer: Ports.BankAnswer) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const [order] = yield* sql<{
      link_id: string
      indice: number
      created_at: Date
      consultas: number
      estado: string
    }>`
      select link_id::text as link_id, indice, created_at, consultas, estado from pagos_reparto
      where id = ${pagoId} for update`
    if (order === undefined || order.estado !== "enviado") return
    const { link_id: linkId, indice } = order
    yield* RespuestasBanco.guardar(sql, {
      objeto_tipo: "reparto",
      objeto_id: parteId(linkId, indice),
      answer,
      origen: "envio",
      operadorId: null
    })
    const found = yield* lockLink(linkId)
    if (Option.isNone(found) || found.value.reparto === null) return
    const link = found.value
    const reparto = link.reparto as Split.RepartoView
    const part = reparto.beneficiarios[indice]
    const open = part !== undefined && (part.estado === "pendiente" || part.estado === "en_revision")
    const now = new Date()
    const again = (consultas: number) =>
      new Date(
        now.getTime() +
          Math.min(settings.conciliarSegundos * 2 ** Math.min(consultas, 12), MAX_ESPERA_S) * 1000
      )
    const respuesta = sql.json({ estado: answer.estado, motivo_rechazo: answer.motivo_rechazo })
    let next = reparto
    switch (Split.afterCredit(answer)) {
      case "pagado": {
        yield* sql`
          update pagos_reparto set estado = 'pagado', referencia_banco = ${answer.referencia_banco},
            proxima_consulta = null, respuesta = ${respuesta}
          where id = ${pagoId}`
        yield* sql`
          insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda,
            referencia_banco, endtoend, created_at, liquidada_at)
          values (${pagoId}, ${link.comercio_id}, ${link.mode}, 'reparto', 'LIQUIDADA', ${linkId},
            ${part?.monto ?? 0}, 'VES', ${answer.referencia_banco}, ${answer.endtoend}, ${now}, ${now})
          on conflict do nothing`
        if (open)
          next = Split.withPart(reparto, indice, {
            estado: "pagado",
            referencia_bancaria: answer.referencia_banco,
            liquidacion_txn_id: pagoId
          })
        break
      }
      case "en_curso":
        yield* sql`update pagos_reparto set proxima_consulta = ${again(order.consultas)} where id = ${pagoId}`
        return
      case "en_revision": {
        const nunca =
          answer.estado === "DESCONOCIDA" &&
          answer.noRecibida === true &&
          now.getTime() - order.created_at.getTime() >= settings.conciliarAbandonoSegundos * 1000
        const failed = answer.estado === "RECHAZADA" || nunca
        const text =
          answer.estado === "RECHAZADA"
            ? `el banco rechazó el pago: ${RespuestasBanco.motivo(answer)}`
            : nunca
              ? "el banco nunca recibió la orden: no se pagó"
              : `sin respuesta clara del banco (${answer.estado}); se le vuelve a consultar`
        if (failed)
          yield* sql`
            update pagos_reparto set estado = 'fallido', proxima_consulta = null, respuesta = ${respuesta}
            where id = ${pagoId}`
        else
          yield* sql`
            update pagos_reparto set proxima_consulta = ${again(order.consultas)}, respuesta = ${respuesta}
            where id = ${pagoId}`
        if (open) {
          next = Split.withPart(reparto, indice, { estado: "en_revision" })
          yield* motivo(linkId, indice, text)
        }
        break
      }
    }
    if (next !== reparto) {
      yield* save(linkId, next)
      if (Split.terminado(next)) yield* encolarLiquidacion(linkId)
    }
  })

/**
 * Step 4, once the split finished: none when the merchant's part is to be credited by
 * Settlement.ts (`monto_comercio` above 0, with the `reparto` for `link.acreditado`), done here
 * when there is nothing to credit, or when a refund stopped the split.
 */
const finish = (linkId: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const found = yield* lockLink(linkId)
    if (Option.isNone(found) || found.value.reparto === null) return Option.none<Listo>()
    const link = found.value
    const reparto = link.reparto as Split.RepartoView
    if (!Split.terminado(reparto)) return Option.none<Listo>()
    const held = yield* sql`select 1 from repartos_detenidos where link_id = ${linkId}`
    if (held.length > 0) return Option.none<Listo>()
    if (reparto.monto_comercio > 0)
      return Option.some<Listo>({ montoComercio: reparto.monto_comercio, reparto })
    yield* Outbox.write({
      comercioId: link.comercio_id,
      mode: link.mode,
      evento: "link.acreditado",
      dedupe: `link.acreditado:${linkId}`,
      at: new Date(),
      data: {
        link_id: linkId,
        monto_acreditado: 0,
        liquidacion_txn_id: link.txn_id ?? linkId,
        reparto: Split.repartoJson(reparto),
        mode: link.mode
      }
    })
    return Option.none<Listo>()
  })

/** A finished split whose merchant's part Settlement.ts credits. */
export interface Listo {
  readonly montoComercio: number
  readonly reparto: Split.RepartoView
}

/** Sends (or asks about) part `indice`'s order and records the answer. */
const payPart = (linkId: string, indice: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const step = yield* prepare(linkId, indice).pipe(sql.withTransaction)
    if (step._tag === "Nada") return
    const [row] = yield* sql<{ mode: Mode }>`select mode from links where id = ${linkId}`
    const bank = (yield* Banks).forMode(row?.mode ?? "live")
    const answer =
      step._tag === "Enviar"
        ? yield* bank.credit({
            operacionId: step.pagoId,
            monto: Money.Cents(step.monto),
            concepto: `Reparto del link ${linkId}`,
            ordenante: ORDENANTE,
            beneficiario: step.cuenta,
            via: "credito_inmediato"
          })
        : yield* bank.query(step.pagoId)
    yield* applyAnswer(step.pagoId, answer).pipe(sql.withTransaction)
  })

/**
 * The live split of a paid link, every step safe to run again: plan, pay each part still to pay,
 * and say whether the merchant's part is to be credited now.
 */
export const run = (linkId: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const planned = yield* plan(linkId).pipe(sql.withTransaction)
    if (Option.isNone(planned) || planned.value.reparto === null) return Option.none<Listo>()
    const parts = planned.value.reparto.beneficiarios.length
    for (let indice = 0; indice < parts; indice++) yield* payPart(linkId, indice)
    return yield* finish(linkId).pipe(sql.withTransaction)
  })

/**
 * One round: the orders due to be asked about, the service's own and those an operator sent from
 * the review queue alike (issue 45), claimed with a lease, asked, recorded.
 */
export const reconcileDue = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const settings = yield* Settings
  const now = new Date()
  const lease = new Date(now.getTime() + settings.bankTimeoutMs * 3 + 5_000)
  const due = yield* sql<{ id: string; mode: Mode }>`
    update pagos_reparto p set proxima_consulta = ${lease}, consultas = p.consultas + 1
    from links l
    where l.id = p.link_id and p.id in (
      select id from pagos_reparto
      where proxima_consulta <= ${now} and estado = 'enviado'
      order by proxima_consulta limit ${BATCH}
      for update skip locked)
    returning p.id::text as id, coalesce(p.mode, l.mode) as mode`
  const banks = yield* Banks
  yield* Effect.forEach(
    due,
    (order) =>
      Effect.flatMap(banks.forMode(order.mode ?? "live").query(order.id), (answer) =>
        applyAnswer(order.id, answer).pipe(sql.withTransaction)
      ).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`conciliación del reparto ${order.id} falló`, cause)
        )
      ),
    { concurrency: 5, discard: true }
  )
  return due.length
}).pipe(Effect.orDie)

/** Every server process asks the bank about unclear split orders every `conciliarSegundos`. */
export const RepartoReconcilerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const settings = yield* Settings
    const round = reconcileDue.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("conciliación de repartos falló", cause))
    )
    yield* Effect.forkScoped(
      Effect.forever(Effect.zipRight(round, Effect.sleep(Duration.seconds(settings.conciliarSegundos))))
    )
  })
)
