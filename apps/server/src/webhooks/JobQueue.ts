/**
 * The durable job queue (DESIGN §3): a graphile-worker runner in every server process, on its
 * own small pool of the same database. Jobs are added inside the transactions that cause them
 * (`graphile_worker.add_job` from the `eventos` trigger and from markPaid), so a committed
 * change always has its job, and a job survives any crash after the commit. graphile-worker's
 * row locks make sure several processes never run the same job at once.
 *
 * Tasks: `webhook_entrega` (one delivery attempt) and `liquidar` (immediate settlement).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, Runtime } from "effect"
import { Logger, run, type TaskList } from "graphile-worker"
import Pg from "pg"
import type { Settings } from "../Config.js"
import * as Settlement from "../settlement/Settlement.js"
import * as Deliveries from "./Deliveries.js"
import type { WebhookSender } from "./Sender.js"

/** Jobs that wait (retries, bank queries) are found by polling; new ones arrive by NOTIFY. */
const POLL_MS = 500
const CONCURRENCY = 8
const POOL_SIZE = 8

const asRecord = (payload: unknown): Record<string, unknown> =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {}

/** Longer than any of our jobs runs (a delivery attempt: 10 s; a settlement: three bank calls). */
const ABANDONED_AFTER = "5 minutes"

/**
 * Frees jobs whose runner died holding them (a kill -9 between taking a job and committing its
 * claim): graphile-worker itself only frees such locks after 4 hours. A job freed while somehow
 * still running is harmless: every task claims its attempt in a transaction first, so a second
 * run of the same attempt does nothing. Housekeeping runs this in every process.
 */
export const unlockAbandoned = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
    select graphile_worker.force_unlock_workers(array(
      select distinct locked_by from graphile_worker.jobs
      where locked_by is not null and locked_at < now() - ${ABANDONED_AFTER}::interval))`
).pipe(Effect.asVoid)

/** The runner; its tasks use the sender, the banks (when provided) and Postgres. */
export const JobQueueLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const pg = yield* PgClient.PgClient
    const runtime = yield* Effect.runtime<
      PgClient.PgClient | SqlClient.SqlClient | Settings | WebhookSender
    >()
    const runJob = Runtime.runPromise(runtime)
    const url = Option.fromNullable(pg.config.url).pipe(Option.map(Redacted.value), Option.getOrUndefined)
    const logger = new Logger(() => (level, message) => {
      if (level === "error" || level === "warning") runJob(Effect.logWarning(`graphile-worker: ${message}`))
    })
    const taskList: TaskList = {
      [Deliveries.TASK]: async (payload) => {
        const p = asRecord(payload)
        await runJob(Deliveries.runAttempt({ id: String(p.id), intento: Number(p.intento) }))
      },
      [Settlement.TASK]: async (payload) => {
        const p = asRecord(payload)
        await runJob(
          Settlement.runSettlement({ link_id: String(p.link_id), consulta: Number(p.consulta ?? 0) })
        )
      }
    }
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const created = new Pg.Pool({
          connectionString: url,
          max: POOL_SIZE,
          application_name: "switch-jobs"
        })
        created.on("error", () => undefined)
        return created
      }),
      (p) => Effect.promise(() => p.end().catch(() => undefined))
    )
    // Started beside the HTTP server rather than before it, so start-up is not longer for it.
    const runner = Effect.acquireRelease(
      Effect.promise(() =>
        run({
          pgPool: pool,
          concurrency: CONCURRENCY,
          pollInterval: POLL_MS,
          noHandleSignals: true,
          taskList,
          logger
        })
      ),
      (r) => Effect.promise(() => r.stop().catch(() => undefined))
    )
    yield* Effect.forkScoped(
      Effect.scoped(Effect.zipRight(runner, Effect.never)).pipe(
        Effect.catchAllCause((cause) => Effect.logError("the job runner stopped", cause))
      )
    )
  })
)
