/**
 * The outbox: every notice a merchant receives starts as an `eventos` row, written in the
 * transaction of the change it tells. The `eventos` trigger (migration 0003) turns each row into
 * webhook deliveries and their jobs, so whoever writes here needs to know nothing of webhooks.
 * Here, below the features, because links, settlement and the direct API all write notices.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { Effect } from "effect"

/** Writes an outbox event row; `dedupe` makes a repeated write a no-op. */
export const insertEvent = (input: {
  readonly comercioId: string
  readonly mode: Mode
  readonly evento: string
  readonly data: Record<string, unknown>
  readonly dedupe: string | null
  readonly at: Date
}) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const id = randomUUID()
    yield* sql`
      insert into eventos (id, comercio_id, mode, evento, data, dedupe, created_at)
      values (${id}, ${input.comercioId}, ${input.mode}, ${input.evento}, ${sql.json(input.data)}, ${input.dedupe}, ${input.at})
      on conflict (dedupe) do nothing`
  })
