/**
 * The durable job queue (DESIGN §3): a graphile-worker runner in every server process, on its
 * own small pool of the same database. Jobs are added inside the transactions that cause them
 * (`graphile_worker.add_job` from the outbox, platform/Outbox.ts, and from markPaid), so a committed
 * change always has its job, and a job survives any crash after the commit. graphile-worker's
 * row locks make sure several processes never run the same job at once.
 *
 * A process killed while holding a job leaves it locked under its worker's id, and
 * graphile-worker frees such locks only after 4 hours. So every worker's id is written to
 * `cola_trabajadores` before it asks for its first job, and its process renews them every
 * {@link LATIDO}; any process unlocks the jobs of ids silent for {@link MUERTO_TRAS}, which only a
 * dead (or stalled that long) process can be. A live sibling's ids keep beating, so its jobs
 * are never touched.
 *
 * Tasks: `webhook_entrega` (one delivery attempt) and those the composition hands in
 * (`Http.ts`: `liquidar`, immediate settlement), so the runner imports no other feature.
 */
import { hostname } from "node:os"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, Runtime, Schedule } from "effect"
import { Logger, runMigrations, runTaskList, type TaskList } from "graphile-worker"
import Pg from "pg"
import { Settings } from "../Config.js"
import * as Deliveries from "./Deliveries.js"
import type { WebhookSender } from "./Sender.js"

/** Jobs that wait (retries, bank queries) are found by polling; new ones arrive by NOTIFY. */
const POLL_MS = 500
const CONCURRENCY = 8
const POOL_SIZE = 8
/** Wait before starting again a runner that could not start or stopped. */
const RESTART_AFTER = "1 second"

const asRecord = (payload: unknown): Record<string, unknown> =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {}

/** What a task may use: the sender, the settings and Postgres (and the banks, when provided). */
export type JobEnv = PgClient.PgClient | SqlClient.SqlClient | Settings | WebhookSender

/** One run of a job, from its payload. */
export type JobTask = (payload: Record<string, unknown>) => Effect.Effect<unknown, unknown, JobEnv>

/** Longer than any of our jobs runs (a delivery attempt: 10 s; a settlement: three bank calls). */
const ABANDONED_AFTER = "5 minutes"

/**
 * Frees jobs whose runner died holding them without ever being registered (a process of a
 * version before `cola_trabajadores`, or one whose registration failed); registered runners
 * are found dead far sooner by {@link heartbeat}. A job freed while somehow still running is
 * harmless: every task claims its attempt in a transaction first, so a second run of the same
 * attempt does nothing. Housekeeping runs this in every process.
 */
export const unlockAbandoned = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
    select graphile_worker.force_unlock_workers(array(
      select distinct locked_by from graphile_worker.jobs
      where locked_by is not null and locked_at < now() - ${ABANDONED_AFTER}::interval))`
).pipe(Effect.asVoid)

/** How often a process renews its workers' rows. */
export const LATIDO = "5 seconds"
/** Silence after which a worker's process is taken for dead: six missed beats. */
export const MUERTO_TRAS = "30 seconds"

/** What names this process in `cola_trabajadores`, for whoever reads the table. */
const PROCESO = `${hostname()}:${process.pid}`

/**
 * Renews this process's workers and unlocks the jobs of workers silent for {@link MUERTO_TRAS}
 * (their rows go with them: a process that was only stalled writes its rows again on its next
 * beat). Safe to race: a dead worker's row is deleted, and its jobs unlocked, by one process.
 */
export const heartbeat = (workerIds: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.zipRight(
      workerIds.length === 0
        ? Effect.void
        : Effect.asVoid(sql`
            insert into cola_trabajadores (worker_id, proceso)
            select unnest(${workerIds}::text[]), ${PROCESO}
            on conflict (worker_id) do update set latido = now(), proceso = excluded.proceso`),
      sql`
        with muertos as (
          delete from cola_trabajadores where latido < now() - ${MUERTO_TRAS}::interval
          returning worker_id)
        select graphile_worker.force_unlock_workers(array(select worker_id from muertos))`
    )
  ).pipe(Effect.asVoid)

declare global {
  namespace GraphileConfig {
    interface Plugins {
      SwitchColaTrabajadores: true
    }
  }
}

/**
 * Registers each worker of this process before it asks for its first job (graphile-worker
 * awaits `startWorker` first), so no job is ever locked under an id the table lacks; a worker
 * that stops cleanly removes its row.
 */
const registry = (alive: Set<string>): GraphileConfig.Plugin => ({
  name: "SwitchColaTrabajadores",
  version: "1.0.0",
  worker: {
    hooks: {
      async startWorker(_ctx, { worker, withPgClient }) {
        // Kept in memory first: if this insert fails, the next beat writes the row.
        alive.add(worker.workerId)
        await withPgClient((client) =>
          client.query(
            `insert into cola_trabajadores (worker_id, proceso) values ($1, $2)
             on conflict (worker_id) do update set latido = now(), proceso = excluded.proceso`,
            [worker.workerId, PROCESO]
          )
        )
      },
      async stopWorker(_ctx, { worker, withPgClient }) {
        alive.delete(worker.workerId)
        await withPgClient((client) =>
          client.query("delete from cola_trabajadores where worker_id = $1", [worker.workerId])
        ).catch(() => undefined)
      }
    }
  }
})

/** The runner of the webhook deliveries and of `tasks`, by job name. */
export const JobQueueLive = (tasks: Readonly<Record<string, JobTask>>) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const pg = yield* PgClient.PgClient
      const runtime = yield* Effect.runtime<JobEnv>()
      const runJob = Runtime.runPromise(runtime)
      // SWITCH_COLA_DATABASE_URL when DATABASE_URL is a pooler in transaction mode: the runner
      // needs a session (LISTEN, advisory locks) that such a pooler does not keep.
      const settings = yield* Settings
      const url = Option.orElse(settings.colaDatabaseUrl, () => Option.fromNullable(pg.config.url)).pipe(
        Option.map(Redacted.value),
        Option.getOrUndefined
      )
      const logger = new Logger(() => (level, message) => {
        if (level === "error" || level === "warning") runJob(Effect.logWarning(`graphile-worker: ${message}`))
      })
      const taskList: TaskList = {
        [Deliveries.TASK]: async (payload) => {
          const p = asRecord(payload)
          await runJob(Deliveries.runAttempt({ id: String(p.id), intento: Number(p.intento) }))
        },
        ...Object.fromEntries(
          Object.entries(tasks).map(([name, task]) => [
            name,
            async (payload: unknown) => {
              await runJob(task(asRecord(payload)))
            }
          ])
        )
      }
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const created = new Pg.Pool({
            connectionString: url,
            max: POOL_SIZE,
            application_name: "switch-jobs"
          })
          created.on("error", () => undefined)
          // As in platform/Sql.ts: a checked-out client (the migrations', a job's) whose
          // connection is cut must not end the process with an unheard `error` event.
          created.on("connect", (client) => {
            client.on("error", () => undefined)
            // The queue's own writes (taking a job, finishing it) do not wait for the disk: a job
            // a crash of Postgres un-takes or un-finishes runs again, which every task allows
            // (each claims its attempt first). Queued first, so it precedes the runner's queries.
            client.query("set synchronous_commit = off").catch(() => undefined)
          })
          return created
        }),
        (p) => Effect.promise(() => p.end().catch(() => undefined))
      )
      const alive = new Set<string>()
      const preset = { plugins: [registry(alive)] }
      /**
       * The worker pool alone (runTaskList), not graphile-worker's `run`: we schedule no cron
       * items, and its cron reads the database as it starts and, when that read fails (Postgres
       * restarting just then), rejects promises nothing can catch, which ends the process. The
       * migrations `run` did first are run here.
       */
      const runner = Effect.acquireRelease(
        Effect.tryPromise(async () => {
          await runMigrations({ pgPool: pool, logger, preset })
          // In an object: the pool is itself a thenable, which `return` alone would await.
          const workers = runTaskList(
            { concurrency: CONCURRENCY, pollInterval: POLL_MS, noHandleSignals: true, logger, preset },
            taskList,
            pool
          )
          return { workers }
        }),
        ({ workers }) => Effect.promise(() => workers.gracefulShutdown().catch(() => undefined))
      )
      // The first beat runs at start-up: jobs of workers that died long enough ago are freed now.
      yield* Effect.forkScoped(
        Effect.suspend(() => heartbeat([...alive])).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("job runner heartbeat failed", cause)),
          Effect.repeat(Schedule.spaced(LATIDO))
        )
      )
      // Started beside the HTTP server rather than before it, so start-up is not longer for it.
      // One that cannot start (the database unreachable) or that stops is started again.
      yield* Effect.forkScoped(
        Effect.scoped(Effect.flatMap(runner, ({ workers }) => Effect.tryPromise(() => workers.promise))).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("the job runner stopped; starting it again", cause)
          ),
          Effect.zipRight(Effect.sleep(RESTART_AFTER)),
          Effect.forever
        )
      )
    })
  )
