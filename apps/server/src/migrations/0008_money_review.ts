/**
 * Money that needs a person, and counters that survive a crash:
 * - `contadores` becomes a logged table again: it holds the API, sign-up, verification and
 *   payment-code limits, and a crash must not hand a guesser or a flood a fresh window. The
 *   API limit claims its counts in batches (platform/RateLimiter.ts), so the WAL flush is paid
 *   once per batch, not once per request.
 * - `revision_desde` marks a payment attempt or a direct-API operation that the bank could not
 *   be asked about within the abandon window: it waits for an operator, never settled blindly.
 * - `aprobado_at` records the approval, so approving again mints no second live key.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table contadores set logged`
  yield* sql`alter table intentos_pago add column revision_desde timestamptz`
  yield* sql`alter table transacciones add column revision_desde timestamptz`
  yield* sql`alter table comercios add column aprobado_at timestamptz`
  yield* sql`update comercios set aprobado_at = created_at where kyc_tier >= 1`
})
