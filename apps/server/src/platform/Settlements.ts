/**
 * What the payment recorder asks of settlement, inside the payment's transaction: queue the
 * real settlement of a paid link, or settle a test payment at once in simulation. Settlement
 * (settlement/Settlement.ts) provides it; the composition (Http.ts) hands it to the features
 * that record payments, so the recorder, down here, imports no feature.
 */
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Context, Effect } from "effect"

/** The settlement job's task name (settlement/Settlement.ts runs it). */
export const TASK_LIQUIDAR = "liquidar"

/**
 * Queues the settlement job of a paid link (one per link: its job key), to run after `seconds`;
 * `consulta` counts the times the bank was already asked. Inside the caller's transaction.
 * The console queues it too when the last part of a live split leaves review, so the merchant's
 * part is credited and `link.acreditado` sent by the job alone.
 */
export const encolarLiquidacion = (linkId: string, consulta = 0, seconds = 0) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`
      select 1 from graphile_worker.add_job(
        ${TASK_LIQUIDAR},
        json_build_object('link_id', ${linkId}::text, 'consulta', ${consulta}::int),
        run_at := now() + make_interval(secs => ${seconds}::float8),
        max_attempts := 10,
        job_key := ${`liquidar:${linkId}`}
      )`
  )

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
