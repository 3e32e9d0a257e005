/**
 * Writes the simulated settlement of a paid test link (SPEC "Split rules": in test mode the
 * split is simulated) as core's `Split.simulateSettlement` plans it: each beneficiary's part
 * paid as its own `reparto` transaction and the link's `reparto` stored. The merchant's
 * `liquidacion` and `link.acreditado` are the caller's (Settlement.ts).
 *
 * `reparto` is stored as core builds it (cents, basis points) and shown in bolivars and
 * percentages by `Split.repartoJson`.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Money, Split } from "@switch/core"
import { Effect, Either } from "effect"
import * as LinksRepo from "../platform/LinksRepo.js"

/**
 * Plans the test-mode settlement of `neto` (cents) over the link's stored split (none: no
 * split) and records the split's side of it; inside markPaid's transaction.
 */
export const recordSimulated = (input: {
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly split: ReadonlyArray<unknown> | null
  readonly neto: number
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const split = input.split
    // Validated at creation; a stored split that no longer decodes is a fault.
    const entries =
      split === null
        ? null
        : yield* Either.match(Split.decode(split), {
            onLeft: (e) =>
              Effect.dieMessage(`stored split of link ${input.linkId} does not decode: ${e.detail}`),
            onRight: Effect.succeed
          })
    const plan = Split.simulateSettlement(Money.Cents(input.neto), entries, randomUUID)
    if (plan._tag === "EnRevision") {
      yield* Effect.logWarning(`reparto del link ${input.linkId} en revisión: el neto no cubre el reparto`)
    }
    if (plan._tag !== "EnRevision") {
      for (const pago of plan.pagos) {
        yield* sql`
          insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda,
            referencia_banco, created_at, liquidada_at)
          values (${pago.txnId}, ${input.comercioId}, ${input.mode}, 'reparto', 'LIQUIDADA', ${input.linkId},
            ${pago.monto}, 'VES', ${Split.REFERENCIA_SIMULADA}, ${input.at}, ${input.at})`
      }
    }
    if (plan.reparto !== null) {
      yield* LinksRepo.setReparto(input.linkId, plan.reparto)
    }
    return plan
  })
