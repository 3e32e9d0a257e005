/**
 * Found keys, cached per process so the hot path skips a query. Revocation is honoured
 * across processes: revoking a key NOTIFYs `switch_llaves` with its hash and every process
 * LISTENs and evicts it; the revoking process evicts at once. Entries also expire after
 * {@link TTL_MS}, which bounds staleness should a LISTEN connection ever drop.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Caller } from "@switch/api"
import { Effect, Layer, Stream } from "effect"

export const CHANNEL = "switch_llaves"
const TTL_MS = 30_000
const MAX_ENTRIES = 10_000

const entries = new Map<
  string,
  { readonly caller: Caller; readonly codigo: string; readonly until: number }
>()

export const get = (hash: string, now: number) => {
  const entry = entries.get(hash)
  if (entry === undefined) return undefined
  if (entry.until <= now) {
    entries.delete(hash)
    return undefined
  }
  return entry
}

export const put = (hash: string, caller: Caller, now: number) => {
  if (entries.size >= MAX_ENTRIES) entries.clear()
  entries.set(hash, { caller, codigo: caller.codigo, until: now + TTL_MS })
}

export const evict = (hash: string) => {
  entries.delete(hash)
}

/** Tells every process (this one at once) that a key was revoked. */
export const announceRevoked = (hash: string) =>
  Effect.gen(function* () {
    evict(hash)
    const sql = yield* SqlClient.SqlClient
    yield* sql`select pg_notify(${CHANNEL}, ${hash})`
  })

/** Listens for revocations for as long as the server runs. */
export const KeyCacheLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* Effect.forkScoped(
      sql.listen(CHANNEL).pipe(
        Stream.runForEach((hash) => Effect.sync(() => evict(hash))),
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logWarning("key revocation listener stopped; cached keys now expire by age only", cause),
            Effect.sync(() => entries.clear())
          )
        )
      )
    )
  })
)
