/**
 * A batch and single link creations racing for the same idempotency keys (LotesService.ts,
 * links/CreateLink.ts). Both insert their rows in key order, so they wait on each other in one
 * order and never deadlock; each key ends as exactly one link, and every answer is a success,
 * a replay or the batch's `409 item_duplicado` (which rolls the whole batch back).
 *
 * The race is forced: a transaction holds the middle key, so the batch's statement and the
 * links' statement that carries that key both stop there, each holding keys on its side; then
 * the key is released. The batch lists its items in descending key order while the links
 * arrive in ascending order, so without the batch's `order by` the two would hold each other's
 * next keys and deadlock (one of them answering 500).
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, deadlockCount, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let open = true
let db: Pg.Client
let key: string
let codigo: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 1_000_000 } })
  ;({ key, codigo } = await registerMerchant(server.url))
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db.end()
  if (open) await server.close()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Holds an idempotency key of the merchant in an open transaction; the result releases it. */
const holdKey = async (idempotencyKey: string) => {
  const holder = new Pg.Client({ connectionString: server.databaseUrl })
  await holder.connect()
  await holder.query("begin")
  await holder.query(
    `insert into links (id, comercio_id, mode, monto, concepto, expires_at, idempotency_key)
     select gen_random_uuid(), id, 'test', 1, 'held', now() + interval '1 day', $2 from comercios where codigo = $1`,
    [codigo, idempotencyKey]
  )
  return async () => {
    await holder.query("rollback")
    await holder.end()
  }
}

/** Waits until the batch's insert and a links insert both wait on a lock. */
const bothWaiting = async () => {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await db.query<{ lote: boolean }>(
      `select query like '%lote_id%' as lote from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and query like '%insert into links%'`
    )
    if (rows.some((r) => r.lote) && rows.some((r) => !r.lote)) return
    await sleep(25)
  }
  throw new Error("the batch and the links never both waited for the held key")
}

/**
 * Closes the server and waits for its connections' backends to end. A backend reports its
 * counters (deadlocks among them) at least on exit, so they are all counted after this.
 */
const closeServer = async () => {
  await server.close()
  open = false
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await db.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
    )
    if (rows[0].n === 0) return
    await sleep(50)
  }
  throw new Error("the server's connections did not end")
}

describe("a batch racing single links for the same keys", () => {
  it("makes one link per key, answers no 5xx and never deadlocks", async () => {
    const before = await deadlockCount(db)
    const statuses: Array<number> = []
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 300 }, (_, i) => `r${round}-${String(i).padStart(3, "0")}`)
      const release = await holdKey(keys[150]!)
      const lote = call(server.url, "POST", "/switch/v1/lotes", {
        key,
        body: {
          items: [...keys].reverse().map((k) => ({ monto: 10, concepto: `Lote ${k}`, idempotency_key: k }))
        }
      })
      const links = keys.map((k) =>
        call(server.url, "POST", "/switch/v1/links", {
          key,
          body: { monto: 10, concepto: `Link ${k}`, idempotency_key: k }
        })
      )
      await bothWaiting().finally(release)
      const [batch, ...singles] = await Promise.all([lote, ...links])
      statuses.push(batch!.status, ...singles.map((s) => s.status))
      if (batch!.status === 409) expect(batch!.body.error).toBe("item_duplicado")
      else expect(batch!.status).toBe(201)

      // Each key is one link, and every single creation answered with that link.
      const { rows } = await db.query<{ id: string; idempotency_key: string }>(
        "select id, idempotency_key from links where idempotency_key like $1",
        [`r${round}-%`]
      )
      expect(rows).toHaveLength(keys.length)
      const byKey = new Map(rows.map((r) => [r.idempotency_key, r.id]))
      singles.forEach((s, i) => {
        expect([200, 201]).toContain(s.status)
        expect(s.body.id).toBe(byKey.get(keys[i]!))
      })
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([])
    await closeServer()
    expect(await deadlockCount(db)).toBe(before)
  })
})
