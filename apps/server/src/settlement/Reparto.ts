/**
 * The split of a paid test link (SPEC "Split rules": in test mode the split is simulated). The
 * net is shared with `Split.allocate`: each beneficiary's part is recorded as its own `reparto`
 * transaction, the merchant's remainder as the `liquidacion`, and the link's `reparto` is
 * stored. When the net does not cover the split nobody is paid and the split goes to review.
 *
 * `reparto` is stored as core builds it (cents, basis points) and shown in bolivars and
 * percentages by {@link repartoJson}.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Money, Split } from "@switch/core"
import { Effect, Either } from "effect"

/** A stored `reparto` as the API shows it: amounts in bolivars, percentages as numbers. */
export const repartoJson = (stored: unknown): unknown => {
  if (stored === null || typeof stored !== "object") return stored
  const r = stored as Split.RepartoView
  const bs = (cents: number) => Money.toNumber(Money.Cents(cents))
  return {
    estado: r.estado,
    moneda: r.moneda,
    monto_comercio: bs(r.monto_comercio),
    monto_repartido: bs(r.monto_repartido),
    beneficiarios: r.beneficiarios.map((b) => ({
      ...b,
      porcentaje: b.porcentaje === null ? null : Money.percentFromBasisPoints(b.porcentaje),
      monto_fijo: b.monto_fijo === null ? null : bs(b.monto_fijo),
      monto: bs(b.monto)
    }))
  }
}

export interface SplitSettled {
  /** What reaches the merchant, in cents; none when the split went to review. */
  readonly montoComercio: number | null
  readonly reparto: Split.RepartoView
}

/**
 * Shares `neto` (cents) of a paid test link among its split and records every part as paid;
 * inside markPaid's transaction. The merchant's `liquidacion` is left to the caller.
 */
export const splitSimulated = (input: {
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly split: ReadonlyArray<unknown>
  readonly neto: number
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    // Validated at creation; a stored split that no longer decodes is a fault.
    const entries = yield* Either.match(Split.decode(input.split), {
      onLeft: (e) => Effect.dieMessage(`stored split of link ${input.linkId} does not decode: ${e.detail}`),
      onRight: Effect.succeed
    })
    const allocated = Split.allocate(Money.Cents(input.neto), entries)
    let settled: SplitSettled
    if (allocated._tag === "NoCubre") {
      yield* Effect.logWarning(`reparto del link ${input.linkId} en revisión: el neto no cubre el reparto`)
      settled = {
        montoComercio: null,
        reparto: Split.reparto({
          montoComercio: Money.zero,
          beneficiarios: entries.map((entry) =>
            Split.maskBeneficiary(entry, {
              monto: Split.shareOf(Money.Cents(input.neto), entry.share),
              estado: "en_revision"
            })
          )
        })
      }
    } else {
      const beneficiarios: Array<Split.BeneficiarioView> = []
      for (const share of allocated.shares) {
        const entry = entries[share.index]
        if (entry === undefined) continue
        if (share.estado === "sin_monto") {
          beneficiarios.push(Split.maskBeneficiary(entry, { monto: share.monto, estado: "sin_monto" }))
          continue
        }
        const txnId = randomUUID()
        yield* sql`
          insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda,
            referencia_banco, created_at, liquidada_at)
          values (${txnId}, ${input.comercioId}, ${input.mode}, 'reparto', 'LIQUIDADA', ${input.linkId}, ${share.monto},
            'VES', 'SIMULADO', ${input.at}, ${input.at})`
        beneficiarios.push(
          Split.maskBeneficiary(entry, {
            monto: share.monto,
            estado: "pagado",
            referencia_bancaria: "SIMULADO",
            liquidacion_txn_id: txnId
          })
        )
      }
      settled = {
        montoComercio: allocated.montoComercio,
        reparto: Split.reparto({ montoComercio: allocated.montoComercio, beneficiarios })
      }
    }
    yield* sql`update links set reparto = ${sql.json(settled.reparto)} where id = ${input.linkId}`
    return settled
  })
