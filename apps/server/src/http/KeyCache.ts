/**
 * Found keys, cached per process so the hot path skips a query. Revocation is honoured
 * across processes: revoking a key NOTIFYs `switch_llaves` with its hash and every process
 * LISTENs and evicts it; the revoking process evicts at once. Entries also expire after
 * {@link TTL_MS}, which bounds staleness should a LISTEN connection ever drop.
 *
 * A scoped layer: the cache and its listener live as long as the server's scope (each server
 * of a process its own), and end with it.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Caller } from "@switch/api"
import { Context, Effect, Layer, Option, Redacted, Stream } from "effect"
import Pg from "pg"
import { Settings } from "../Config.js"

export const CHANNEL = "switch_llaves"
const TTL_MS = 30_000
const MAX_ENTRIES = 10_000

/** A cached key's merchant. */
export interface Entry {
  readonly caller: Caller
  readonly codigo: string
}

export class KeyCache extends Context.Tag("@switch/server/KeyCache")<
  KeyCache,
  {
    /** The key of this hash as cached at `now`; undefined when unknown or expired. */
    readonly get: (hash: string, now: number) => Entry | undefined
    /** Caches a key until the cache's age limit or `expiresAt` (a rolled key's end), the earlier. */
    readonly put: (hash: string, caller: Caller, now: number, expiresAt?: number) => void
    /** Tells every process (this one at once) that a key was revoked. */
    readonly announceRevoked: (hash: string) => Effect.Effect<void, never, SqlClient.SqlClient>
  }
>() {}

/** The cache of one scope; with `listen`, evicting keys other processes revoke. */
const make = (listen: boolean) =>
  Effect.gen(function* () {
    const entries = new Map<string, Entry & { readonly until: number }>()
    yield* Effect.addFinalizer(() => Effect.sync(() => entries.clear()))

    const evict = (hash: string) => {
      entries.delete(hash)
    }

    // Behind a pooler in transaction mode a LISTEN does not keep its connection: listen on a
    // session of its own at SWITCH_COLA_DATABASE_URL (Config.ts) instead.
    const direct = listen
      ? Option.flatMap(yield* Effect.serviceOption(Settings), (s) => s.colaDatabaseUrl)
      : Option.none()
    if (Option.isSome(direct)) yield* listenDirect(Redacted.value(direct.value), evict, () => entries.clear())
    else if (listen) {
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
    }

    const cache: KeyCache["Type"] = {
      get: (hash, now) => {
        const entry = entries.get(hash)
        if (entry === undefined) return undefined
        if (entry.until <= now) {
          entries.delete(hash)
          return undefined
        }
        return entry
      },
      put: (hash, caller, now, expiresAt) => {
        if (entries.size >= MAX_ENTRIES) entries.clear()
        const until = Math.min(now + TTL_MS, expiresAt ?? Number.POSITIVE_INFINITY)
        entries.set(hash, { caller, codigo: caller.codigo, until })
      },
      announceRevoked: (hash) =>
        Effect.gen(function* () {
          evict(hash)
          const sql = yield* SqlClient.SqlClient
          yield* sql`select pg_notify(${CHANNEL}, ${hash})`
        }).pipe(Effect.orDie)
    }
    return cache
  })

/**
 * LISTEN on a connection of its own to `url`, ended with the scope. A connection that drops
 * clears the cache (cached keys would miss revocations) and is made again a second later.
 */
const listenDirect = (url: string, evict: (hash: string) => void, clear: () => void) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      let client: Pg.Client | null = null
      let stopped = false
      let retry: NodeJS.Timeout | undefined
      const connect = () => {
        if (stopped) return
        const next = new Pg.Client({ connectionString: url, application_name: "switch-llaves" })
        client = next
        const again = () => {
          if (stopped || client !== next) return
          client = null
          clear()
          next.end().catch(() => undefined)
          retry = setTimeout(connect, 1_000)
        }
        next.on("error", again)
        next.on("end", again)
        next.on("notification", (msg) => {
          if (msg.channel === CHANNEL && msg.payload) evict(msg.payload)
        })
        next
          .connect()
          .then(() => next.query(`LISTEN ${CHANNEL}`))
          .catch(again)
      }
      connect()
      return () => {
        stopped = true
        clearTimeout(retry)
        return client?.end().catch(() => undefined)
      }
    }),
    (stop) => Effect.promise(async () => stop())
  )

/** The cache, listening for revocations for as long as the server runs. */
export const KeyCacheLive = Layer.scoped(KeyCache, make(true))

/**
 * The cache of a process that serves no request (readying a database, Prepare.ts): it only
 * announces the revocations it makes, and holds no LISTEN connection.
 */
export const KeyCacheUnlistened = Layer.scoped(KeyCache, make(false))
