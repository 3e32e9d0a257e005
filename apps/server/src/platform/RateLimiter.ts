/**
 * Request counters in Postgres, shared by every server process: one fixed-window row per
 * (policy, subject, window), incremented atomically by an upsert.
 *
 * A process claims requests from a window in batches when the window is far from its limit
 * (`RateLimit.leaseSize`) and spends them from memory, so the hot path of a merchant with room
 * to spare skips the database; near the limit it claims one request at a time, so the limit
 * holds exactly across processes.
 */
import { SqlClient } from "@effect/sql"
import { RateLimit } from "@switch/core"
import { Clock, Context, Effect, Layer } from "effect"

export class RateLimiter extends Context.Tag("@switch/server/RateLimiter")<
  RateLimiter,
  {
    /**
     * Counts one request of `subject` under `policy` and decides it: from what this process
     * already holds of the window when it can, with no I/O; else by claiming from Postgres.
     */
    readonly hit: (policy: RateLimit.Policy, subject: string) => Effect.Effect<RateLimit.Decision>
    /** Deletes windows that have closed. */
    readonly sweep: Effect.Effect<void>
  }
>() {}

/** Requests this process claimed from a window and has not spent yet. */
interface Lease {
  /** About the window's count: what this process last saw there plus what it spent since. */
  count: number
  left: number
  readonly resetsAt: number
}

const MAX_LEASES = 10_000
const ALLOWED: RateLimit.Decision = { allowed: true, retryAfterSeconds: 0 }

export const RateLimiterLive = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const leases = new Map<string, Lease>()

    const claim = (window: RateLimit.Window, size: number) =>
      Effect.map(
        sql<{ cuenta: number }>`
          insert into contadores (clave, cuenta, vence)
          values (${window.key}, ${size}, ${new Date(window.resetsAt)})
          on conflict (clave) do update set cuenta = contadores.cuenta + ${size}
          returning cuenta`,
        (rows) => rows[0]?.cuenta ?? size
      )

    /** Admits one request from what this process holds of the window: false when none is held. */
    const spendHeld = (policy: RateLimit.Policy, subject: string, now: number) => {
      const lease = leases.get(RateLimit.windowKey(policy, subject, now).key)
      if (lease === undefined || lease.left === 0) return false
      // Every claimed unit was granted within the limit.
      lease.left -= 1
      lease.count += 1
      return true
    }

    return {
      hit: (policy, subject) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          if (spendHeld(policy, subject, now)) return Effect.succeed(ALLOWED)
          const window = RateLimit.windowKey(policy, subject, now)
          const lease = leases.get(window.key)
          const size = RateLimit.leaseSize(policy, lease?.count ?? 0)
          return Effect.map(claim(window, size), (after) => {
            const granted = RateLimit.grantedOf(policy, size, after)
            if (leases.size >= MAX_LEASES) leases.clear()
            // This request spends the first granted unit; the rest join what this process holds
            // (another of its requests may have claimed meanwhile). None granted: over the limit.
            const count = granted === 0 ? after : after - size + 1
            const held = leases.get(window.key)
            leases.set(window.key, {
              count: Math.max(count, held?.count ?? 0),
              left: Math.max(0, granted - 1) + (held?.left ?? 0),
              resetsAt: window.resetsAt
            })
            return RateLimit.decide(policy, count, now)
          })
        }).pipe(Effect.orDie),
      sweep: Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        for (const [key, lease] of leases) if (lease.resetsAt <= now) leases.delete(key)
        yield* sql`delete from contadores where vence < now() - interval '1 minute'`
      }).pipe(Effect.orDie)
    }
  })
)
