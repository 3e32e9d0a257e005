/**
 * Claims of guesses on a real database, with two pools standing for two server processes: under
 * any mix of concurrent claims no limit is passed, and a claim is refused only when one is full.
 */
import { randomUUID } from "node:crypto"
import { FastCheck, ManagedRuntime, Option } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase } from "../../test/harness.js"
import * as Guesses from "./Guesses.js"
import { PgLive } from "./Sql.js"

let databaseUrl: string
let db: Pg.Client
const runtimes: Array<{ readonly dispose: () => Promise<void> }> = []

/** A process of its own: its own pool on the shared database. */
const processOn = () => {
  const runtime = ManagedRuntime.make(PgLive(databaseUrl, { maxConnections: 6 }))
  runtimes.push(runtime)
  return {
    claim: (policy: Guesses.Policy, account: string, address: string) =>
      runtime.runPromise(Guesses.claim(policy, account, address)),
    release: (policy: Guesses.Policy, id: string) => runtime.runPromise(Guesses.release(policy, id)),
    forget: (policy: Guesses.Policy, account: string) => runtime.runPromise(Guesses.forget(policy, account))
  }
}

beforeAll(async () => {
  databaseUrl = await freshDatabase()
  db = new Pg.Client({ connectionString: databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await Promise.all(runtimes.map((r) => r.dispose()))
})

const rows = async (table: Guesses.Policy["table"]) =>
  (await db.query<{ email: string; ip: string }>(`select email, ip from ${table}`)).rows

const count = (
  list: ReadonlyArray<{ email: string; ip: string }>,
  f: (r: { email: string; ip: string }) => boolean
) => list.filter(f).length

describe("guesses", () => {
  it("one account from one address: 5 of 60 concurrent claims over two processes, no more", async () => {
    const [a, b] = [processOn(), processOn()]
    const account = `${randomUUID()}@example.com`
    const claims = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).claim(Guesses.PORTAL, account, "10.0.0.1"))
    )
    expect(claims.filter(Option.isSome)).toHaveLength(Guesses.PORTAL.perAccountAddress)
  })

  it("any mix of concurrent claims keeps every limit, and is refused only when a limit is full", async () => {
    const [a, b] = [processOn(), processOn()]
    const accounts = Array.from({ length: 4 }, (_, i) => `cuenta-${i}@example.com`)
    const addresses = Array.from({ length: 8 }, (_, i) => `10.1.0.${i}`)
    const { perAccountAddress, perAccount, perAddress = Number.POSITIVE_INFINITY } = Guesses.OPERADOR
    const tryArb = FastCheck.record({
      account: FastCheck.constantFrom(...accounts),
      address: FastCheck.constantFrom(...addresses)
    })
    await FastCheck.assert(
      FastCheck.asyncProperty(FastCheck.array(tryArb, { minLength: 150, maxLength: 200 }), async (tries) => {
        await db.query("truncate intentos_operador")
        const claims = await Promise.all(
          tries.map((t, i) => (i % 2 === 0 ? a : b).claim(Guesses.OPERADOR, t.account, t.address))
        )
        const kept = await rows("intentos_operador")
        expect(kept).toHaveLength(claims.filter(Option.isSome).length)
        const pair = (account: string, address: string) =>
          count(kept, (r) => r.email === account && r.ip === address)
        const ofAccount = (account: string) => count(kept, (r) => r.email === account)
        const ofAddress = (address: string) => count(kept, (r) => r.ip === address)
        for (const account of accounts) {
          expect(ofAccount(account)).toBeLessThanOrEqual(perAccount)
          for (const address of addresses)
            expect(pair(account, address)).toBeLessThanOrEqual(perAccountAddress)
        }
        for (const address of addresses) expect(ofAddress(address)).toBeLessThanOrEqual(perAddress)
        // Counts only grow, so a refused claim still finds one of its limits full at the end.
        tries.forEach((t, i) => {
          if (Option.isSome(claims[i] ?? Option.none())) return
          const full =
            pair(t.account, t.address) >= perAccountAddress ||
            ofAccount(t.account) >= perAccount ||
            ofAddress(t.address) >= perAddress
          expect(full, JSON.stringify(t)).toBe(true)
        })
      }),
      { numRuns: 4 }
    )
  })

  it("a released claim is no failure; forgetting an account clears it at every address and no other", async () => {
    const p = processOn()
    const account = `${randomUUID()}@example.com`
    const other = `${randomUUID()}@example.com`
    for (let i = 0; i < 10; i++) {
      const claim = await p.claim(Guesses.PORTAL, account, "10.9.9.9")
      expect(Option.isSome(claim)).toBe(true)
      if (Option.isSome(claim)) await p.release(Guesses.PORTAL, claim.value)
    }
    for (const address of ["10.9.9.1", "10.9.9.2", "10.9.9.3", "10.9.9.4"])
      for (let i = 0; i < 5; i++) await p.claim(Guesses.PORTAL, account, address)
    for (let i = 0; i < 5; i++) await p.claim(Guesses.PORTAL, other, "10.9.9.5")
    expect(Option.isNone(await p.claim(Guesses.PORTAL, account, "10.9.9.6"))).toBe(true)
    expect(Option.isNone(await p.claim(Guesses.PORTAL, other, "10.9.9.5"))).toBe(true)
    await p.forget(Guesses.PORTAL, account)
    expect(Option.isSome(await p.claim(Guesses.PORTAL, account, "10.9.9.1"))).toBe(true)
    expect(Option.isNone(await p.claim(Guesses.PORTAL, other, "10.9.9.5"))).toBe(true)
  })

  it("without a limit per address (turning TOTP off), one account has 5 in all, whatever the addresses", async () => {
    const p = processOn()
    const account = `${randomUUID()}@example.com`
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, i) => p.claim(Guesses.TOTP_DESACTIVAR, account, `10.8.0.${i}`))
    )
    expect(claims.filter(Option.isSome)).toHaveLength(Guesses.TOTP_DESACTIVAR.perAccount)
    // Another user's codes from the same addresses are their own.
    expect(
      Option.isSome(await p.claim(Guesses.TOTP_DESACTIVAR, `${randomUUID()}@example.com`, "10.8.0.1"))
    ).toBe(true)
  })

  it("a claim counts only within the window", async () => {
    const p = processOn()
    const account = `${randomUUID()}@example.com`
    await db.query(
      "insert into intentos_ingreso (email, ip, created_at) select $1, '10.7.0.1', now() - interval '16 minutes' from generate_series(1, 50)",
      [account]
    )
    expect(Option.isSome(await p.claim(Guesses.PORTAL, account, "10.7.0.1"))).toBe(true)
  })
})
