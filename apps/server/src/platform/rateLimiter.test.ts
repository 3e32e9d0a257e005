/**
 * The Postgres-backed limiter with per-process batches, on a real database: two limiters stand
 * for two server processes sharing one window.
 */
import { RateLimit } from "@switch/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase } from "../../test/harness.js"
import { RateLimiter, RateLimiterLive } from "./RateLimiter.js"
import { PgLive } from "./Sql.js"

let databaseUrl: string
const runtimes: Array<ManagedRuntime.ManagedRuntime<RateLimiter, unknown>> = []

/** A limiter with its own pool, as a separate server process has. */
const limiter = () => {
  const runtime = ManagedRuntime.make(
    RateLimiterLive.pipe(Layer.provide(PgLive(databaseUrl, { maxConnections: 4 })))
  )
  runtimes.push(runtime)
  return (policy: RateLimit.Policy, subject: string) =>
    runtime.runPromise(Effect.flatMap(RateLimiter, (l) => l.hit(policy, subject)))
}

/** A limiter whose requests try `tryHit` first and `hit` only when it cannot decide, as the link lane does. */
const limiterTryingFirst = () => {
  const runtime = ManagedRuntime.make(
    RateLimiterLive.pipe(Layer.provide(PgLive(databaseUrl, { maxConnections: 4 })))
  )
  runtimes.push(runtime)
  return async (policy: RateLimit.Policy, subject: string) => {
    const limiter = await runtime.runPromise(RateLimiter)
    return limiter.tryHit(policy, subject)
      ? { allowed: true, fromMemory: true }
      : { ...(await runtime.runPromise(limiter.hit(policy, subject))), fromMemory: false }
  }
}

const counted = async (policy: RateLimit.Policy, subject: string) => {
  const client = new Pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const { rows } = await client.query("select cuenta from contadores where clave like $1", [
    `${policy.name}:${subject}:%`
  ])
  await client.end()
  return Number(rows[0]?.cuenta ?? 0)
}

/**
 * Windows are fixed and aligned to the epoch: a test counting one window waits out the last
 * seconds of the current one, so its requests never straddle two windows.
 */
const awayFromWindowEdge = async (windowSeconds: number) => {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000))
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

beforeAll(async () => {
  databaseUrl = await freshDatabase()
})
afterAll(() => Promise.all(runtimes.map((r) => r.dispose())))

describe("rate limiter", () => {
  it("SPEC's 120 per minute holds exactly across two processes hitting at once", async () => {
    const [a, b] = [limiter(), limiter()]
    await awayFromWindowEdge(RateLimit.API.windowSeconds)
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b)(RateLimit.API, "exacto"))
    )
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120)
    const refused = decisions.find((d) => !d.allowed)
    expect(refused?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60)
  })

  it("far from a high limit a process claims batches, so most requests skip the database", async () => {
    const policy = { ...RateLimit.API, limit: 1_000_000 }
    const hit = limiter()
    const batch = RateLimit.MAX_LEASE
    for (let i = 0; i <= 2 * batch; i++) expect((await hit(policy, "lote")).allowed).toBe(true)
    // Three claims of a whole batch: the last request opened the third.
    expect(await counted(policy, "lote")).toBe(3 * batch)
  })

  it("a burst of 480 at once from one process admits exactly a limit of 300, and counts no refusal", async () => {
    const policy = { ...RateLimit.API, name: "rafaga", limit: 300, windowSeconds: 3600 }
    const hit = limiter()
    await awayFromWindowEdge(policy.windowSeconds)
    const decisions = await Promise.all(Array.from({ length: 480 }, () => hit(policy, "uno")))
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300)
    expect(await counted(policy, "uno")).toBe(300)
    const refused = decisions.find((d) => !d.allowed)
    expect(refused?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(3600)
  })

  it("a burst of 480 at once over two processes admits exactly a limit of 300", async () => {
    const policy = { ...RateLimit.API, name: "rafaga", limit: 300, windowSeconds: 3600 }
    const [a, b] = [limiter(), limiter()]
    await awayFromWindowEdge(policy.windowSeconds)
    const decisions = await Promise.all(
      Array.from({ length: 480 }, (_, i) => (i % 2 === 0 ? a : b)(policy, "dos"))
    )
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300)
    expect(await counted(policy, "dos")).toBe(300)
  })

  it("tryHit counts only from what a process holds: with hit behind it, two processes admit exactly the limit", async () => {
    const policy = { ...RateLimit.API, name: "memoria", limit: 300, windowSeconds: 3600 }
    const [a, b] = [limiterTryingFirst(), limiterTryingFirst()]
    await awayFromWindowEdge(policy.windowSeconds)
    // Nothing held yet: tryHit declines and counts nothing; the claim is hit's.
    const first = await a(policy, "mezcla")
    expect(first).toMatchObject({ allowed: true, fromMemory: false })
    expect(await counted(policy, "mezcla")).toBe(RateLimit.leaseSize(policy, 0))
    const decisions = [first]
    for (let round = 0; round < 4; round++)
      decisions.push(
        ...(await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? a : b)(policy, "mezcla"))))
      )
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300)
    expect(decisions.filter((d) => d.fromMemory).length).toBeGreaterThan(0)
    expect(await counted(policy, "mezcla")).toBe(300)
  })

  it("what a process claimed and left unspent goes back to the window, and another process gets it", async () => {
    // Far from a limit of 1,000 a claim takes 15 (1/64 of what is left).
    const policy = { ...RateLimit.API, name: "devolver", limit: 1_000, windowSeconds: 3600 }
    const [a, b] = [limiter(), limiter()]
    await awayFromWindowEdge(policy.windowSeconds)
    expect((await a(policy, "lote")).allowed).toBe(true)
    expect(await counted(policy, "lote")).toBe(15)
    const byB = await Promise.all(Array.from({ length: 1_000 }, () => b(policy, "lote")))
    expect(byB.filter((d) => d.allowed)).toHaveLength(985)
    // A's 14 unspent go back within a couple of seconds; then B gets them.
    const until = Date.now() + 5_000
    while ((await counted(policy, "lote")) !== 986 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await counted(policy, "lote")).toBe(986)
    const later = await Promise.all(Array.from({ length: 20 }, () => b(policy, "lote")))
    expect(later.filter((d) => d.allowed)).toHaveLength(14)
    expect(await counted(policy, "lote")).toBe(1_000)
  })

  it("a process that stops gives back what it held unspent", async () => {
    const policy = { ...RateLimit.API, name: "parada", limit: 1_000, windowSeconds: 3600 }
    await awayFromWindowEdge(policy.windowSeconds)
    const hit = limiter()
    expect((await hit(policy, "lote")).allowed).toBe(true)
    expect(await counted(policy, "lote")).toBe(15)
    await runtimes.pop()?.dispose()
    expect(await counted(policy, "lote")).toBe(1)
  })

  it("batches never let two processes past the limit together, and strand at most a few", async () => {
    const policy = { ...RateLimit.API, limit: 2_000 }
    const [a, b] = [limiter(), limiter()]
    let allowed = 0
    await awayFromWindowEdge(policy.windowSeconds)
    for (let i = 0; i < 2_400; i += 8) {
      const round = await Promise.all(
        Array.from({ length: 8 }, (_, j) => (j % 2 === 0 ? a : b)(policy, "compartido"))
      )
      allowed += round.filter((d) => d.allowed).length
    }
    expect(allowed).toBeLessThanOrEqual(2_000)
    expect(allowed).toBeGreaterThanOrEqual(2_000 - 2 * 31)
  })
})

describe("durability", () => {
  it("rate and cap counters survive a Postgres crash: no table is UNLOGGED", async () => {
    const client = new Pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query(
        `select c.relname, c.relpersistence from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')`
      )
      expect(rows.map((r) => r.relname)).toContain("contadores")
      expect(rows.filter((r) => r.relpersistence === "u").map((r) => r.relname)).toEqual([])
    } finally {
      await client.end()
    }
  })
})
