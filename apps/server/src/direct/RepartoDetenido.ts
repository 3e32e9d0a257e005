/**
 * SPEC "Split states": "If a refund happens before the split is paid, the split stops and goes
 * to review." Run inside the transaction that records a return of a link's charge (a portal
 * refund, `/reintegro` or `/reverso`), before its row is inserted:
 *
 * - the link's row is locked (`for update`): the console's "pagar" of a split part locks the same
 *   row before it writes its bank order (`pagos_reparto`), so the two are decided one after the
 *   other, never both;
 * - a split that paid a part, or has an order for one at the bank (`pagos_reparto` `enviado` or
 *   `pagado`), keeps SPEC's `409 cobro_con_split_repartido`: nothing is written;
 * - otherwise every part still to pay (`pendiente`, `en_revision`) is put `en_revision` (the
 *   split with it, so the operators' queue lists it) and the split is held in
 *   `repartos_detenidos`: no part of it is sent to the bank afterwards (the console's "pagar"
 *   refuses it; a payment asked for with four eyes and not yet confirmed is void), a person
 *   closes the parts or records a payment made elsewhere.
 */
import { PgClient } from "@effect/sql-pg"
import { Direct } from "@switch/api"
import { Money, Split } from "@switch/core"
import { Effect } from "effect"

/** A part no one will pay: nothing of it to hold. */
const TERMINADA = new Set<Split.BeneficiarioEstado>(["pagado", "sin_monto", "descartado"])

/**
 * Stops the split of `linkId` (if it has one with parts still to pay) for the return
 * `transaccionId`, or fails with `409 cobro_con_split_repartido` when the split already paid or
 * is paying someone. Call it inside the return's transaction.
 */
export const detener = (linkId: string | null, transaccionId: string) =>
  Effect.gen(function* () {
    if (linkId === null) return false
    const sql = yield* PgClient.PgClient
    const [link] = yield* sql<{ reparto: Split.RepartoView | null }>`
      select reparto from links where id = ${linkId} for update`
    const reparto = link?.reparto ?? null
    if (reparto === null) return false
    const partes = reparto.beneficiarios ?? []
    const [orden] = yield* sql<{ n: number }>`
      select count(*)::int as n from pagos_reparto where link_id = ${linkId} and estado in ('enviado', 'pagado')`
    const pagando =
      (orden?.n ?? 0) > 0 ||
      Number(reparto.monto_repartido ?? 0) > 0 ||
      partes.some((b) => b.estado === "pagado" || (b.liquidacion_txn_id ?? null) !== null)
    if (pagando)
      return yield* Effect.fail(
        new Direct.DirectConflict({
          error: "cobro_con_split_repartido",
          detail: "El reparto de este cobro ya pagó (o está pagando) a un beneficiario."
        })
      )
    if (partes.every((b) => TERMINADA.has(b.estado))) return false
    const next = Split.reparto({
      moneda: reparto.moneda,
      montoComercio: Money.Cents(Number(reparto.monto_comercio ?? 0)),
      beneficiarios: partes.map((b) =>
        TERMINADA.has(b.estado) ? b : { ...b, estado: "en_revision" as const }
      )
    })
    yield* sql`update links set reparto = ${sql.json(next)} where id = ${linkId}`
    yield* sql`
      insert into repartos_detenidos (link_id, transaccion_id) values (${linkId}, ${transaccionId})
      on conflict (link_id) do nothing`
    // A payment asked for with four eyes and not confirmed never went out: void, it cannot be now.
    yield* sql`
      update pagos_reparto set estado = 'fallido', respuesta = ${sql.json({ motivo: "reparto detenido por un reembolso" })}
      where link_id = ${linkId} and estado = 'pendiente'`
    yield* Effect.logWarning(`reparto del link ${linkId} detenido y en revisión: reembolso ${transaccionId}`)
    return true
  }).pipe(Effect.catchTag("SqlError", Effect.die))
