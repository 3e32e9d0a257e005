/**
 * The transactions list's search (`q`: an id's start, part of a bank reference or a receipt
 * code), its amount range (`min`, `max` in Bs), its `orden` and `GET /transacciones/total`: the
 * same rows in the list, the count and the export; only the caller's merchant and mode; bad
 * values refused.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client
let key: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  const a = await registerMerchant(server.url)
  const b = await registerMerchant(server.url)
  key = a.key
  // 30 of A's: amounts Bs 101 to 130, references REF1 to REF30, a receipt code on the even ones.
  for (const [codigo, n, prefix] of [
    [a.codigo, 30, "AB"],
    [b.codigo, 5, "CD"]
  ] as const) {
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, propina, referencia_banco,
         codigo_verificacion, created_at)
       select gen_random_uuid(), c.id, 'test', 'cobro', 'LIQUIDADA', 10000 + g * 100, 0, 'REF' || g,
         case when g % 2 = 0 then 'SW-' || $3 || lpad(g::text, 3, '0') || '-XYZ12' end, now() - make_interval(mins => g)
       from comercios c, generate_series(1, $2::int) g where c.codigo = $1`,
      [codigo, n, prefix]
    )
  }
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const list = async (query: string) =>
  (await call(server.url, "GET", `/switch/v1/transacciones?limit=200&${query}`, { key })).body as Array<{
    id: string
    monto: number
    referencia_banco: string
  }>
const total = async (query: string) =>
  (await call(server.url, "GET", `/switch/v1/transacciones/total?${query}`, { key })).body.total as number

describe("transactions: search, amount range and total", () => {
  it("q finds by bank reference, receipt code (any case) and the start of the id", async () => {
    expect((await list("q=ref12")).map((t) => t.referencia_banco)).toEqual(["REF12"])
    expect((await list("q=sw-ab014")).map((t) => t.referencia_banco)).toEqual(["REF14"])
    const one = (await list("q=REF7"))[0]
    expect(one?.referencia_banco).toBe("REF7")
    const byId = await list(`q=${one?.id.slice(0, 8)}`)
    expect(byId.map((t) => t.id)).toContain(one?.id)
    // Another merchant's rows never match.
    expect(await total("q=ref")).toBe(30)
    // A like-pattern's characters are only characters.
    expect(await total("q=%25")).toBe(0)
  })

  it("min and max bound the amount in Bs, both included; total counts what the list shows, paging aside", async () => {
    const rows = await list("min=110&max=115,5")
    expect(rows.map((t) => t.monto).sort()).toEqual([110, 111, 112, 113, 114, 115])
    expect(await total("min=110&max=115.5")).toBe(6)
    expect(await total("")).toBe(30)
    expect(await total("estado=RECHAZADA")).toBe(0)
    const csv = await (
      await fetch(`${server.url}/switch/v1/transacciones/exportar?min=110&max=115.5`, {
        headers: { "x-switch-key": key }
      })
    ).text()
    expect(csv.trimEnd().split("\r\n")).toHaveLength(7)
  })

  it("bad values are 400 validation naming them", async () => {
    for (const [query, parametro] of [
      ["min=-1", "min"],
      ["max=abc", "max"],
      [`q=${"x".repeat(81)}`, "q"]
    ] as const) {
      for (const path of ["/switch/v1/transacciones", "/switch/v1/transacciones/total"]) {
        const reply = await call(server.url, "GET", `${path}?${query}`, { key })
        expect(reply.status, `${path}?${query}`).toBe(400)
        expect(reply.body).toMatchObject({ error: "validation", parametro })
      }
    }
  })

  it("orden sorts by amount either way or oldest first, paged by offset; a bad one or a cursor with it is 400", async () => {
    const amounts = async (query: string) => (await list(query)).map((t) => t.monto)
    const all = await amounts("")
    expect(all).toHaveLength(30)
    const desc = [...all].sort((a, b) => b - a)
    expect(await amounts("orden=monto_desc")).toEqual(desc)
    expect(await amounts("orden=monto_asc")).toEqual([...desc].reverse())
    expect(await amounts("orden=antiguo")).toEqual([...all].reverse())
    const page2 = (
      await call(server.url, "GET", "/switch/v1/transacciones?orden=monto_desc&limit=5&offset=5", { key })
    ).body.map((t: { monto: number }) => t.monto)
    expect(page2).toEqual(desc.slice(5, 10))
    const bad = await call(server.url, "GET", "/switch/v1/transacciones?orden=caro", { key })
    expect(bad.body).toMatchObject({ error: "validation", parametro: "orden" })
    const first = (await list(""))[0]?.id
    const cursor = await call(
      server.url,
      "GET",
      `/switch/v1/transacciones?orden=antiguo&starting_after=${first}`,
      {
        key
      }
    )
    expect(cursor.body).toMatchObject({ error: "validation", parametro: "starting_after" })
  })
})
