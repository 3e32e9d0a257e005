/**
 * Bank reconciliation of direct-API operations: every operation whose outcome is not final
 * (accepted, pending, unknown, or abandoned mid-call by a stopped process) has a
 * `proxima_consulta`; each server process claims the due ones (`for update skip locked`, and
 * the claim pushes the time forward, so two processes never ask about the same one at once),
 * asks the bank by the operation's bank id, and records the answer (Store.apply: notices once).
 *
 * Nothing is ever resent. An operation still unknown after `conciliarAbandonoSegundos` is
 * settled by what the bank says of it: one it answers it never received was not done (a payout
 * `RECHAZADA SIN_DEBITO_EN_EXTRACTO` as SPEC says, anything else `RECHAZADA
 * BANCO_NO_DISPONIBLE`); one it cannot be asked about (queries fail) may have moved money, so it
 * is marked for review (`revision_desde`) and stays `DESCONOCIDA` for a person, still queried.
 * Queries back off from `conciliarSegundos` doubling up to an hour.
 */
import { PgClient } from "@effect/sql-pg"
import type { Ports } from "@switch/core"
import { Duration, Effect, Layer } from "effect"
import { Settings } from "../Config.js"
import { bankFor, now } from "./Common.js"
import * as Store from "./Store.js"

const BATCH = 20
const MAX_ESPERA_S = 3600

const giveUp = (row: Store.OpRow): Ports.BankAnswer => ({
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: row.operacion === "pago" ? "SIN_DEBITO_EN_EXTRACTO" : "BANCO_NO_DISPONIBLE"
})

/** Asks the bank about one claimed operation and records what it says. */
const reconcileOne = (row: Store.OpRow) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    if (row.operacion_banco === null) return
    const bank = yield* bankFor(row.mode)
    const answer = yield* bank.query(row.operacion_banco)
    const at = yield* now
    const updated = yield* Store.apply({ ...row, fase: "enviada" }, answer, at)
    if (updated.estado === "LIQUIDADA" || updated.estado === "RECHAZADA") return
    const unknownSince = updated.desconocida_desde
    const sql = yield* PgClient.PgClient
    if (
      answer.estado === "DESCONOCIDA" &&
      unknownSince !== null &&
      at.getTime() - unknownSince.getTime() >= settings.conciliarAbandonoSegundos * 1000
    ) {
      if (answer.noRecibida === true) {
        // The bank says it never received the order: nothing was done.
        yield* Effect.logWarning(`operación ${row.id}: el banco nunca la recibió, se da por no hecha`)
        yield* Store.apply(updated, giveUp(updated), at)
        return
      }
      // The bank cannot be asked (its queries fail): the money may have moved, so a person
      // decides. The operation stays DESCONOCIDA and is still queried, at the longest interval.
      const marked = yield* sql`
        update transacciones set revision_desde = ${at}
        where id = ${row.id} and revision_desde is null returning id`.pipe(Effect.orDie)
      if (marked.length > 0)
        yield* Effect.logWarning(
          `operación ${row.id}: el banco no responde consultas tras la ventana; queda en revisión`
        )
    }
    const wait = Math.min(settings.conciliarSegundos * 2 ** Math.min(row.consultas, 12), MAX_ESPERA_S)
    yield* sql`
      update transacciones set proxima_consulta = ${new Date(at.getTime() + wait * 1000)}
      where id = ${row.id} and proxima_consulta is not null`.pipe(Effect.orDie)
  })

/** One round: claim the due operations and reconcile them. */
export const reconcileDue = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const settings = yield* Settings
  const at = yield* now
  // The lease: while this process asks, the row is not due for anyone else.
  const lease = new Date(at.getTime() + settings.bankTimeoutMs * 3 + 5_000)
  const rows = yield* sql<Store.OpRow>`
    update transacciones set proxima_consulta = ${lease}, consultas = consultas + 1
    where id in (
      select id from transacciones
      where proxima_consulta <= ${at} and fase in ('enviada', 'enviando')
      order by proxima_consulta limit ${BATCH}
      for update skip locked)
    returning *`.pipe(Effect.orDie)
  yield* Effect.forEach(
    rows,
    (row) =>
      reconcileOne(row).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning(`conciliación de ${row.id} falló`, cause))
      ),
    { concurrency: 5, discard: true }
  )
  return rows.length
})

/** The reconciler every server process runs, every `conciliarSegundos`. */
export const ReconcilerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const settings = yield* Settings
    const round = reconcileDue.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("conciliación bancaria falló", cause))
    )
    yield* Effect.forkScoped(
      Effect.forever(Effect.zipRight(round, Effect.sleep(Duration.seconds(settings.conciliarSegundos))))
    )
  })
)
