/**
 * `GET /clientes` pages by `offset` and by the `starting_after` cursor (the id of the page
 * before's last customer), newest first, the key's merchant and mode only. Customers are written
 * as the payment page's "become a customer" writes them (platform/Customers.ts): a row each.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

/** `n` customers of the merchant in `mode`, one second apart, the last the newest; their ids, newest first. */
const customers = async (codigo: string, mode: "test" | "live", n: number) => {
  const ids: Array<string> = []
  for (let i = 0; i < n; i++) {
    const id = randomUUID()
    await db.query(
      `insert into clientes (id, comercio_id, mode, huella, created_at)
       select $1, id, $2, $3, now() - make_interval(secs => $4) from comercios where codigo = $5`,
      [id, mode, `huella-${id}`, n - i, codigo]
    )
    ids.push(id)
  }
  return ids.reverse()
}

describe("GET /clientes pages", () => {
  it("walks every customer by starting_after, as by offset, and only the key's merchant and mode", async () => {
    const m = await registerMerchant(server.url)
    const other = await registerMerchant(server.url)
    const newest = await customers(m.codigo, "test", 7)
    await customers(m.codigo, "live", 2)
    await customers(other.codigo, "test", 3)
    const byCursor: Array<string> = []
    let after: string | undefined
    for (let pages = 0; pages < 5; pages++) {
      const reply = await call(
        server.url,
        "GET",
        `/switch/v1/clientes?limit=3${after === undefined ? "" : `&starting_after=${after}`}`,
        { key: m.key }
      )
      expect(reply.status).toBe(200)
      byCursor.push(...reply.body.map((c: { id: string }) => c.id))
      if (reply.body.length < 3) break
      after = reply.body.at(-1).id
    }
    expect(byCursor).toEqual(newest)
    const byOffset = await call(server.url, "GET", "/switch/v1/clientes?limit=3&offset=3", { key: m.key })
    expect(byOffset.body.map((c: { id: string }) => c.id)).toEqual(newest.slice(3, 6))
    // A customer of another merchant is no cursor here: nothing follows it.
    const foreign = (
      await db.query(
        "select id from clientes where huella like 'huella-%' and comercio_id <> (select id from comercios where codigo = $1) limit 1",
        [m.codigo]
      )
    ).rows[0].id
    const none = await call(server.url, "GET", `/switch/v1/clientes?starting_after=${foreign}`, {
      key: m.key
    })
    expect(none.status).toBe(200)
    expect(none.body).toEqual([])
  })

  it("a starting_after that is no id is 400 naming it", async () => {
    const m = await registerMerchant(server.url)
    const reply = await call(server.url, "GET", "/switch/v1/clientes?starting_after=nada", { key: m.key })
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).toContain("starting_after")
  })
})
