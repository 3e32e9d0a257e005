/**
 * Request counters in Postgres, shared by every server process: one fixed-window row per
 * (policy, subject, window), incremented atomically by an upsert.
 */
import { SqlClient } from "@effect/sql"
import { RateLimit } from "@switch/core"
import { Clock, Context, Effect, Layer } from "effect"

export class RateLimiter extends Context.Tag("@switch/server/RateLimiter")<
  RateLimiter,
  {
    /** Counts one request of `subject` under `policy` and decides it. */
    readonly hit: (policy: RateLimit.Policy, subject: string) => Effect.Effect<RateLimit.Decision>
    /** Deletes windows that have closed. */
    readonly sweep: Effect.Effect<void>
  }
>() {}

export const RateLimiterLive = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      hit: (policy, subject) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const window = RateLimit.windowKey(policy, subject, now)
          const rows = yield* sql<{ cuenta: number }>`
            insert into contadores (clave, cuenta, vence)
            values (${window.key}, 1, ${new Date(window.resetsAt)})
            on conflict (clave) do update set cuenta = contadores.cuenta + 1
            returning cuenta`
          return RateLimit.decide(policy, rows[0]?.cuenta ?? 1, now)
        }).pipe(Effect.orDie),
      sweep: sql`delete from contadores where vence < now() - interval '1 minute'`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
    }
  })
)
