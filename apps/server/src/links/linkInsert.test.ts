/**
 * Link inserts committed together (links/CreateLink.ts, platform/Coalesce.ts), on a real
 * database: rows that arrive in one turn go as one statement, and each still gets its own
 * outcome. A key used twice in one statement makes one link; a suspended merchant's row is
 * skipped; a row that fails fails alone; two processes racing for the same keys in opposite
 * orders make one link per key and never deadlock.
 */
import { randomUUID } from "node:crypto"
import { Effect, Layer, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deadlockCount, freshDatabase } from "../../test/harness.js"
import { makeLinkInsert, type NewLink } from "../platform/LinksRepo.js"
import { PgLive, PgPool } from "../platform/Sql.js"

let databaseUrl: string
let db: Pg.Client
const disposers: Array<() => Promise<void>> = []

/**
 * A process's pool, with the rows of every insert it runs counted and the error codes it got.
 * With `loseAnswers`, a statement for several rows commits and then fails as a connection cut
 * after the commit would.
 */
const processPool = async (options: { readonly loseAnswers?: boolean } = {}) => {
  const runtime = ManagedRuntime.make(PgLive(databaseUrl, { maxConnections: 10 }).pipe(Layer.orDie))
  disposers.push(() => runtime.dispose())
  const pool = await runtime.runPromise(Effect.map(PgPool, (p) => p))
  const statements: Array<number> = []
  /** Per insert statement, whether it carries the idempotency conflict clause. */
  const arbitrated: Array<boolean> = []
  const errors: Array<string> = []
  const counted: PgPool["Type"] = {
    run: async <A extends object>(text: string, values: ReadonlyArray<unknown>) => {
      const batch = text.includes("unnest")
      if (text.includes("insert")) {
        statements.push(batch ? (values[0] as Array<unknown>).length : 1)
        arbitrated.push(text.includes("on conflict"))
      }
      try {
        const rows = await pool.run<A>(text, values)
        if (batch && options.loseAnswers) throw new Error("Connection terminated unexpectedly")
        return rows
      } catch (e) {
        errors.push((e as { code?: string }).code ?? "none")
        throw e
      }
    }
  }
  return { insert: makeLinkInsert(counted), statements, arbitrated, errors }
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
    origen: "api",
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

  it("answers and stores a row sent with others exactly as one sent alone", async () => {
    const { insert, statements } = await processPool()
    const comercio = await merchant()
    const at = new Date()
    const same = { createdAt: at, expiresAt: new Date(at.getTime() + 3_600_000), busqueda: "igual" }
    const alone = await insert(link(comercio, { ...same, idempotencyKey: "solo" }))
    const together = await Promise.all([
      insert(link(comercio, { ...same, idempotencyKey: "junto" })),
      insert(link(comercio, same))
    ])
    expect(statements).toEqual([1, 2])
    // The JSON columns come back in Postgres's key order either way.
    expect(together.map((a) => JSON.stringify(a))).toEqual([JSON.stringify(alone), JSON.stringify(alone)])
    const stored = (
      await db.query(
        `select to_jsonb(l) - 'id' - 'idempotency_key' as row from links l where comercio_id = $1`,
        [comercio]
      )
    ).rows.map((r) => JSON.stringify(r.row))
    expect(stored).toHaveLength(3)
    expect(new Set(stored).size).toBe(1)
  })

  it("stores each link's own origen, alone or together (the origen filter means something)", async () => {
    const { insert, statements } = await processPool()
    const comercio = await merchant()
    const alone = link(comercio, { origen: "panel" })
    await insert(alone)
    const together = [link(comercio, { origen: "mi_pagina" }), link(comercio, { origen: "whatsapp" })]
    await Promise.all(together.map(insert))
    expect(statements).toEqual([1, 2])
    const stored = await db.query("select id, origen from links where comercio_id = $1", [comercio])
    const byId = new Map(stored.rows.map((r) => [r.id, r.origen]))
    for (const l of [alone, ...together]) expect(byId.get(l.id)).toBe(l.origen)
  })

  it("answers every row as created when its statement committed but the answer was lost", async () => {
    const { insert, errors } = await processPool({ loseAnswers: true })
    const comercio = await merchant()
    const links = [
      ...Array.from({ length: 6 }, () => link(comercio)),
      ...Array.from({ length: 6 }, (_, i) => link(comercio, { idempotencyKey: `perdida-${i}` }))
    ]
    const answers = await Promise.all(links.map(insert))
    expect(errors.length).toBeGreaterThan(0)
    // Each is this request's own new link: none is a conflict (which would answer 200), none failed.
    expect(answers.every((a) => a !== undefined)).toBe(true)
    expect((await rows(comercio)).map((r) => r.id).sort()).toEqual(links.map((l) => l.id).sort())
  })

  it("spares statements without an idempotency key the conflict clause, alone or together", async () => {
    const { insert, statements, arbitrated } = await processPool()
    const comercio = await merchant()
    const unkeyed = await Promise.all([link(comercio), link(comercio), link(comercio)].map(insert))
    const alone = await insert(link(comercio))
    const keyed = await insert(link(comercio, { idempotencyKey: "con-llave" }))
    const mixed = await Promise.all(
      [link(comercio), link(comercio, { idempotencyKey: "mezcla" })].map(insert)
    )
    expect(statements).toEqual([3, 1, 1, 2])
    expect(arbitrated).toEqual([false, false, true, true])
    expect([...unkeyed, alone, keyed, ...mixed].every((a) => a !== undefined)).toBe(true)
    expect(await rows(comercio)).toHaveLength(7)
    // A key already taken still inserts nothing, alone or beside rows without one.
    const again = await Promise.all(
      [link(comercio), link(comercio, { idempotencyKey: "mezcla" })].map(insert)
    )
    expect(again.map((a) => a !== undefined)).toEqual([true, false])
    expect(await insert(link(comercio, { idempotencyKey: "con-llave" }))).toBeUndefined()
    expect(await rows(comercio)).toHaveLength(8)
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
    // The statement for three failed as a whole; its halves went again: two rows, then one.
    expect(statements).toEqual([3, 2, 1, 1, 1])
    expect((await rows(comercio)).map((r) => r.id).sort()).toEqual(good.map((l) => l.id).sort())
  })

  it("two processes racing for the same keys in opposite orders make one link per key, no deadlock", async () => {
    const [one, two] = [await processPool(), await processPool()]
    const comercio = await merchant()
    const before = await deadlockCount(db)
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
    expect([...one.errors, ...two.errors]).not.toContain("40P01")
    expect(await deadlockCount(db)).toBe(before)
    expect(one.statements.every((n) => n > 1)).toBe(true)
  })
})
