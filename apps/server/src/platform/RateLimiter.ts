/**
 * Request counters in Postgres, shared by every server process: one fixed-window row per
 * (policy, subject, window) whose `cuenta` is how many requests the window has granted.
 *
 * Why the limit is exact. A claim is one upsert that adds what it asks for up to the limit and
 * returns what it got (`concedido`, worked out from the row as it was, under the row's lock:
 * @switch/core's `RateLimit.grant`), so claims from any number of processes never grant past
 * the limit, a refused request counts nothing, and a claim comes back short only when the
 * window is full. In one process the requests of one window share one claim at a time: those
 * that arrive while it is out wait for it, and the next claim asks for all of them, so a burst
 * costs a few round trips and gets exactly what is left (before, each waiting request claimed a
 * batch of its own and most of a burst's batches went unspent).
 *
 * Batches. Far from the limit a claim asks for more than is waiting (`RateLimit.leaseSize`) and
 * the process spends the rest from memory, so the hot path of a merchant with room to spare
 * skips the database. What a process holds unspent for {@link GIVE_BACK_AFTER_MS} goes back to
 * the window, and all of it when the process stops, so another process can grant it.
 */
import { SqlClient } from "@effect/sql"
import { RateLimit } from "@switch/core"
import { Cause, Clock, Context, Deferred, Effect, Exit, FiberId, Layer, Schedule, Scope } from "effect"

export class RateLimiter extends Context.Tag("@switch/server/RateLimiter")<
  RateLimiter,
  {
    /**
     * Counts one request of `subject` under `policy` and decides it: from what this process
     * already holds of the window when it can, with no I/O; else by claiming from Postgres.
     */
    readonly hit: (policy: RateLimit.Policy, subject: string) => Effect.Effect<RateLimit.Decision>
    /**
     * `hit` when this process holds part of the window: counts one request and answers true, with
     * no I/O and no effect. False, counting nothing, when only a claim (`hit`) can decide.
     */
    readonly tryHit: (policy: RateLimit.Policy, subject: string) => boolean
    /** Deletes windows that have closed. */
    readonly sweep: Effect.Effect<void>
  }
>() {}

/** How long requests a process claimed may sit unspent before they go back to their window. */
export const GIVE_BACK_AFTER_MS = 1_000

/** A request waiting for the window's claim under way; `gone` once its caller stopped waiting. */
interface Waiter {
  readonly done: Deferred.Deferred<boolean>
  gone: boolean
}

/** What this process knows of one window. */
interface Slot {
  readonly key: string
  readonly resetsAt: number
  /** Requests claimed from the window and not spent yet. */
  held: number
  /** The window's count as the last claim returned it. */
  seen: number
  /** When a request of this window last came (the Clock's milliseconds). */
  usedAt: number
  /** Whether a claim is under way; `waiting` is served by it. */
  claiming: boolean
  readonly waiting: Array<Waiter>
}

const MAX_SLOTS = 10_000
const ALLOWED: RateLimit.Decision = { allowed: true, retryAfterSeconds: 0 }

export const RateLimiterLive = Layer.scoped(
  RateLimiter,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.scope
    // The clock `hit` reads, for `tryHit`, which runs outside any fiber.
    const clock = yield* Effect.clock
    const slots = new Map<string, Slot>()

    const claim = (slot: Slot, limit: number, asked: number) => {
      const first = Math.max(0, Math.min(asked, limit))
      // RateLimit.grant under the row's lock: SET reads the row as it was before this claim.
      return Effect.map(
        sql<{ cuenta: number; concedido: number }>`
          insert into contadores (clave, cuenta, vence, concedido)
          values (${slot.key}, ${first}, ${new Date(slot.resetsAt)}, ${first})
          on conflict (clave) do update set
            cuenta = greatest(contadores.cuenta, least(contadores.cuenta + ${asked}, ${limit})),
            concedido = greatest(0, least(${asked}, ${limit} - contadores.cuenta))
          returning cuenta, concedido`,
        (rows) => rows[0] ?? { cuenta: limit, concedido: 0 }
      )
    }

    const giveBack = (key: string, units: number) =>
      sql`update contadores set cuenta = greatest(0, cuenta - ${units}) where clave = ${key}`

    /** Serves the slot's waiting requests, claim after claim, until none waits. */
    const drain = (policy: RateLimit.Policy, slot: Slot): Effect.Effect<void> =>
      Effect.gen(function* () {
        for (;;) {
          const wanted = slot.waiting.filter((waiter) => !waiter.gone).length
          if (wanted === 0) {
            // In the same step as the check: a request from now on starts the next claim.
            slot.waiting.length = 0
            slot.claiming = false
            return
          }
          const asked = Math.max(wanted, RateLimit.leaseSize(policy, slot.seen))
          const got = yield* claim(slot, policy.limit, asked)
          slot.seen = got.cuenta
          let granted = got.concedido
          const full = granted < asked
          // Also those that came during the claim: served from what it got beyond what was asked
          // for, else refused if the window is full, else left for the next claim.
          const waiting = slot.waiting.splice(0)
          for (const waiter of waiting) {
            if (waiter.gone) continue
            if (granted > 0) {
              granted -= 1
              Deferred.unsafeDone(waiter.done, Exit.succeed(true))
            } else if (full) Deferred.unsafeDone(waiter.done, Exit.succeed(false))
            else slot.waiting.push(waiter)
          }
          slot.held += granted
        }
      }).pipe(
        // A claim that failed (or a server stopping) fails the requests it was to serve.
        Effect.onError((cause) =>
          Effect.sync(() => {
            const failed = Exit.die(Cause.squash(cause))
            for (const waiter of slot.waiting.splice(0)) Deferred.unsafeDone(waiter.done, failed)
            slot.claiming = false
          })
        ),
        // Those requests carry the failure (a defect, answered 500 and logged there).
        Effect.catchAllCause(() => Effect.void)
      )

    const slotOf = (window: RateLimit.Window, now: number) => {
      const known = slots.get(window.key)
      if (known !== undefined) return known
      if (slots.size >= MAX_SLOTS)
        for (const [key, slot] of slots) if (slot.held === 0 && !slot.claiming) slots.delete(key)
      const slot: Slot = {
        key: window.key,
        resetsAt: window.resetsAt,
        held: 0,
        seen: 0,
        usedAt: now,
        claiming: false,
        waiting: []
      }
      slots.set(window.key, slot)
      return slot
    }

    /** Waits for a claim (starting one unless one is under way) and answers from it. */
    const await_ = (policy: RateLimit.Policy, slot: Slot, now: number) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.suspend(() => {
          if (slot.held > 0) {
            slot.held -= 1
            return Effect.succeed(ALLOWED)
          }
          const waiter: Waiter = { done: Deferred.unsafeMake<boolean>(FiberId.none), gone: false }
          slot.waiting.push(waiter)
          // Forked interruptible (this region is not): a stopping server may cut a claim short.
          const start = slot.claiming
            ? Effect.void
            : Effect.forkIn(Effect.interruptible(drain(policy, slot)), scope)
          slot.claiming = true
          return Effect.zipRight(
            start,
            restore(Deferred.await(waiter.done)).pipe(
              Effect.onInterrupt(() => Effect.sync(() => (waiter.gone = true))),
              Effect.map((allowed) => (allowed ? ALLOWED : RateLimit.decide(policy, policy.limit + 1, now)))
            )
          )
        })
      )

    /** Gives back what sat unspent too long, and forgets closed windows. */
    const giveBackIdle = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      for (const slot of slots.values()) {
        if (slot.claiming) continue
        if (slot.resetsAt <= now) {
          slots.delete(slot.key)
          continue
        }
        if (slot.held === 0 || now - slot.usedAt < GIVE_BACK_AFTER_MS) continue
        const units = slot.held
        slot.held = 0
        yield* giveBack(slot.key, units)
      }
    })

    const giveBackAll = Effect.gen(function* () {
      for (const slot of slots.values()) {
        const units = slot.held
        slot.held = 0
        if (units > 0) yield* giveBack(slot.key, units)
      }
    })

    yield* giveBackIdle.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("límites: no se devolvió lo no usado", cause)),
      Effect.repeat(Schedule.spaced(GIVE_BACK_AFTER_MS / 2)),
      Effect.forkIn(scope)
    )
    yield* Scope.addFinalizer(
      scope,
      giveBackAll.pipe(
        Effect.timeout("2 seconds"),
        Effect.catchAllCause(() => Effect.void)
      )
    )

    return {
      hit: (policy, subject) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const slot = slotOf(RateLimit.windowKey(policy, subject, now), now)
          slot.usedAt = now
          // Every unit held was granted within the limit.
          if (slot.held > 0) {
            slot.held -= 1
            return Effect.succeed(ALLOWED)
          }
          return await_(policy, slot, now)
        }),
      tryHit: (policy, subject) => {
        const now = clock.unsafeCurrentTimeMillis()
        const slot = slots.get(RateLimit.windowKey(policy, subject, now).key)
        if (slot === undefined || slot.held === 0) return false
        slot.usedAt = now
        slot.held -= 1
        return true
      },
      sweep: Effect.gen(function* () {
        yield* sql`delete from contadores where vence < now() - interval '1 minute'`
      }).pipe(Effect.orDie)
    }
  })
)
