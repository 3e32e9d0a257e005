/**
 * What the payment recorder asks of settlement, inside the payment's transaction: queue the
 * real settlement of a paid link, or settle a test payment at once in simulation. Settlement
 * (settlement/Settlement.ts) provides it; the composition (Http.ts) hands it to the features
 * that record payments, so the recorder, down here, imports no feature.
 */
import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Context, type Effect } from "effect"

export interface SimulatedSettlement {
  readonly linkId: string
  readonly comercioId: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly cobroTxnId: string
  readonly at: Date
}

export class Settlements extends Context.Tag("@switch/server/Settlements")<
  Settlements,
  {
    /** Queues the durable settlement job of a paid link. */
    readonly enqueue: (linkId: string) => Effect.Effect<void, SqlError, PgClient.PgClient>
    /** The simulated settlement of a test payment (it emits `link.acreditado`). */
    readonly settleSimulated: (input: SimulatedSettlement) => Effect.Effect<void, SqlError, PgClient.PgClient>
  }
>() {}
