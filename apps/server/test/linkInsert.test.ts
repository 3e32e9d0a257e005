/**
 * Link inserts committed together (links/LinkInsert.ts, platform/Coalesce.ts), on a real
 * database: rows that arrive in one turn go as one statement, and each still gets its own
 * outcome. A key used twice in one statement makes one link; a suspended merchant's row is
 * skipped; a row that fails fails alone; two processes racing for the same keys in opposite
 * orders make one link per key and never deadlock.
 */
import { randomUUID } from "node:crypto"
import { Effect, Layer, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeLinkInsert, type NewLink } from "../src/links/LinkInsert.js"
import { PgLive, PgPool } from "../src/platform/Sql.js"
import { freshDatabase } from "./harness.js"

let databaseUrl: string
let db: Pg.Client
const disposers: Array<() => Promise<void>> = []

/** A process's pool, with every statement it runs counted. */
const processPool = async () => {
  const runtime = ManagedRuntime.make(PgLive(databaseUrl, { maxConnections: 10 }).pipe(Layer.orDie))
  disposers.push(() => runtime.dispose())
  const pool = await runtime.runPromise(Effect.map(PgPool, (p) => p))
  const statements: Array<number> = []
  const counted: PgPool["Type"] = {
    run: (text, values) => {
      statements.push(text.includes("unnest") ? (values[0] as Array<unknown>).length : 1)
      return pool.run(text, values)
    }
  }
  return { insert: makeLinkInsert(counted), statements }
}

const merchant = async (estado = "activo") => {
  const id = randomUUID()
  await db.query(
    `insert into comercios (id, codigo, nombre, identificacion, email, estado)
     values ($1, $2, 'Tienda', 'J123', 'a@b.ve', $3)`,
    [id, `c${id.slice(0, 8)}`, estado]
  )
  return id
}

const link = (comercioId: string, over: Partial<NewLink> = {}): NewLink => {
  const id = randomUUID()
  const at = new Date()
  return {
    id,
    comercioId,
    mode: "test",
    monto: 1500,
    concepto: `Pedido "7" {a,b} \\ NULL ñ 🎉`,
    expiresAt: new Date(at.getTime() + 86_400_000),
    successUrl: null,
    failureUrl: "https://tienda.ve/fallo",
    metadata: JSON.stringify({ b: "2", a: 'x,"y"' }),
    idempotencyKey: null,
    split: null,
    busqueda: `pedido ${id}`,
    createdAt: at,
    ...over
  }
}

const rows = async (comercioId: string) =>
  (
    await db.query(
      "select id, concepto, metadata, failure_url, idempotency_key from links where comercio_id = $1",
      [comercioId]
    )
  ).rows

beforeAll(async () => {
  databaseUrl = await freshDatabase()
  db = new Pg.Client({ connectionString: databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db.end()
  await Promise.all(disposers.map((dispose) => dispose()))
})

describe("link inserts committed together", () => {
  it("sends the rows of one turn as one statement, each answered and stored as sent", async () => {
    const { insert, statements } = await processPool()
    const comercio = await merchant()
    const links = Array.from({ length: 30 }, () => link(comercio))
    const answers = await Promise.all(links.map(insert))
    expect(statements).toEqual([30])
    expect(answers).toEqual(links.map(() => ({ metadata: { a: 'x,"y"', b: "2" }, split: null })))
    const stored = await rows(comercio)
    expect(stored.map((r) => r.id).sort()).toEqual(links.map((l) => l.id).sort())
    for (const r of stored) {
      expect(r.concepto).toBe(`Pedido "7" {a,b} \\ NULL ñ 🎉`)
      expect(r.failure_url).toBe("https://tienda.ve/fallo")
    }
  })

  it("makes one link for a key sent twice in one statement; the other row is skipped", async () => {
    const { insert, statements } = await processPool()
    const comercio = await merchant()
    const [a, b, c] = [
      link(comercio, { idempotencyKey: "k" }),
      link(comercio, { idempotencyKey: "k" }),
      link(comercio)
    ]
    const answers = await Promise.all([a, b, c].map(insert))
    expect(statements).toEqual([3])
    expect(answers[0]).toBeDefined()
    expect(answers[1]).toBeUndefined()
    expect(answers[2]).toBeDefined()
    expect((await rows(comercio)).map((r) => r.id).sort()).toEqual([a!.id, c!.id].sort())
  })

  it("skips a suspended merchant's row and inserts the others'", async () => {
    const { insert } = await processPool()
    const [open, suspended] = [await merchant(), await merchant("suspendido")]
    const answers = await Promise.all([link(open), link(suspended), link(open)].map(insert))
    expect(answers.map((a) => a !== undefined)).toEqual([true, false, true])
    expect(await rows(open)).toHaveLength(2)
    expect(await rows(suspended)).toHaveLength(0)
  })

  it("fails only the row that fails; the others are inserted once", async () => {
    const { insert, statements } = await processPool()
    const comercio = await merchant()
    const good = [link(comercio), link(comercio)]
    const orphan = link(randomUUID()) // no such merchant: a foreign-key violation
    const outcomes = await Promise.allSettled([good[0]!, orphan, good[1]!].map(insert))
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"])
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/foreign key/)
    // The statement for three failed as a whole; then each row went by itself.
    expect(statements).toEqual([3, 1, 1, 1])
    expect((await rows(comercio)).map((r) => r.id).sort()).toEqual(good.map((l) => l.id).sort())
  })

  it("two processes racing for the same keys in opposite orders make one link per key, no deadlock", async () => {
    const [one, two] = [await processPool(), await processPool()]
    const comercio = await merchant()
    const deadlocks = async () =>
      Number(
        (await db.query("select deadlocks from pg_stat_database where datname = current_database()")).rows[0]
          .deadlocks
      )
    const before = await deadlocks()
    for (let round = 0; round < 10; round++) {
      const keys = Array.from({ length: 40 }, (_, i) => `r${round}-${i}`)
      const made = await Promise.all([
        Promise.all(keys.map((k) => one.insert(link(comercio, { idempotencyKey: k })))),
        Promise.all([...keys].reverse().map((k) => two.insert(link(comercio, { idempotencyKey: k }))))
      ])
      // Each key was inserted by exactly one of the two.
      const inserted = [...made[0], ...[...made[1]].reverse()].filter((a) => a !== undefined)
      expect(inserted).toHaveLength(40)
    }
    const stored = await rows(comercio)
    expect(stored).toHaveLength(400)
    expect(new Set(stored.map((r) => r.idempotency_key)).size).toBe(400)
    expect(await deadlocks()).toBe(before)
    expect(one.statements.every((n) => n > 1)).toBe(true)
  })
})
