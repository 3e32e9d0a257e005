/**
 * What stands before a payment-code request besides the receive caps (`platform/Limits.ts`):
 * SPEC's payment-code limits, reserved atomically in Postgres before the bank is asked and given
 * back when the bank refuses (RateLimit.ts's recipe).
 */
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { RateLimit } from "@switch/core"
import { Data, Effect } from "effect"

/** A full payment-code window: how long the payer must wait. */
export class CodeLimitReached extends Data.TaggedError("CodeLimitReached")<{
  readonly retryAfterSeconds: number
  readonly refusedBy: ReadonlyArray<string>
}> {}

/** Subjects of the payment-code windows for one request. */
export interface CodeSubjects {
  readonly link: string
  readonly idPhone: string
  readonly ip: string
}

const subjectOf = (policy: RateLimit.Policy, s: CodeSubjects) =>
  policy.scope === "link" ? s.link : policy.scope === "id_phone" ? s.idPhone : s.ip

/**
 * Reserves one slot in every payment-code window of the mode, all or none: a full window rolls
 * the transaction back and fails with the longest wait. Returns the counter keys to give back.
 */
export const reserveCodeSlots = (mode: Mode, subjects: CodeSubjects, nowMs: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const policies = RateLimit.paymentCodePolicies(mode)
    const reserve = Effect.gen(function* () {
      const keys: Array<string> = []
      const full: Array<RateLimit.Counter> = []
      for (const policy of policies) {
        const window = RateLimit.windowKey(policy, subjectOf(policy, subjects), nowMs)
        const rows = yield* sql`
          insert into contadores (clave, cuenta, vence) values (${window.key}, 1, ${new Date(window.resetsAt)})
          on conflict (clave) do update set cuenta = contadores.cuenta + 1
            where contadores.cuenta < ${policy.limit}
          returning cuenta`
        if (rows.length === 0) full.push({ policy, countAfterIncrement: policy.limit + 1 })
        keys.push(window.key)
      }
      if (full.length > 0) {
        const decision = RateLimit.decideAll(full, nowMs)
        return yield* Effect.fail(
          new CodeLimitReached({
            retryAfterSeconds: decision.retryAfterSeconds,
            refusedBy: decision.refusedBy.map((p) => p.name)
          })
        )
      }
      return keys
    })
    return yield* sql.withTransaction(reserve)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** Gives reserved slots back (the bank refused the request, so it does not count). */
export const releaseCodeSlots = (keys: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql`update contadores set cuenta = cuenta - 1 where clave = any(${keys}) and cuenta > 0`
  }).pipe(Effect.orDie)
