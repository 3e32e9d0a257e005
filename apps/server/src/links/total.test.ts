/**
 * `GET /links/total`: how many links the list's filters choose, paging aside; the same filters
 * and the same `400 validation` with `parametro` as `GET /links`; only the caller's merchant and
 * mode are counted (the other mode asked for is 0). And the list's `orden`: by amount or oldest
 * first, paged with `offset`; a cursor only with the default order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string
let live: string

beforeAll(async () => {
  server = await startServer()
  const made = await registerMerchant(server.url)
  key = made.key
  live = await approveMerchant(server, made.codigo)
  const create = (monto: number, concepto: string, k = key) =>
    call(server.url, "POST", "/switch/v1/links", { key: k, body: { monto, concepto } })
  for (let i = 0; i < 7; i++) await create(10 + i, `Torta ${i}`)
  for (let i = 0; i < 3; i++) await create(500 + i, `Pan ${i}`)
  const pan = await create(900, "Pan cancelado")
  await call(server.url, "POST", `/switch/v1/links/${pan.body.id}/cancelar`, { key })
  await create(77, "Torta live", live)
  // Another merchant's links are never counted.
  const other = await registerMerchant(server.url)
  await create(10, "Torta ajena", other.key)
})
afterAll(() => server.close())

const total = async (query: string, k = key) => {
  const reply = await call(server.url, "GET", `/switch/v1/links/total${query}`, { key: k })
  expect(reply.status, query).toBe(200)
  return reply.body.total as number
}
const listed = async (query: string) =>
  (
    await call(server.url, "GET", `/switch/v1/links?limit=200${query === "" ? "" : `&${query.slice(1)}`}`, {
      key
    })
  ).body.length as number

describe("GET /switch/v1/links/total", () => {
  it("counts what the list's filters choose, paging aside, as the list does", async () => {
    expect(await call(server.url, "GET", "/switch/v1/links/total", { key })).toMatchObject({
      status: 200,
      body: { total: 11 }
    })
    const queries = [
      "",
      "?q=torta",
      "?q=pan",
      "?estado=cancelado",
      "?estado=pendiente",
      "?min=500",
      "?max=15",
      "?min=12&max=14&q=torta"
    ]
    for (const query of queries) expect(await total(query), query).toBe(await listed(query))
    expect(await total("?q=torta")).toBe(7)
    expect(await total("?estado=cancelado")).toBe(1)
    expect(await total("?min=12&max=14")).toBe(3)
    // Paging does not change the count.
    expect(await total("?limit=2&offset=4")).toBe(11)
  })

  it("counts only the key's own mode: live sees its one link; asking for the other mode is 0", async () => {
    expect(await total("", live)).toBe(1)
    expect(await total("?mode=live")).toBe(0)
    expect(await total("?mode=test")).toBe(11)
  })

  it("a bad filter is 400 validation naming it, as on the list", async () => {
    for (const [query, parametro] of [
      ["?min=-1", "min"],
      ["?desde=ayer", "desde"],
      ["?origen=fax", "origen"]
    ] as const) {
      const reply = await call(server.url, "GET", `/switch/v1/links/total${query}`, { key })
      expect(reply.status, query).toBe(400)
      expect(reply.body).toMatchObject({ error: "validation", parametro })
    }
  })

  it("orden sorts the list by amount either way or oldest first, pages by offset without overlap; bad values are 400", async () => {
    const amounts = async (query: string) =>
      (await call(server.url, "GET", `/switch/v1/links?${query}`, { key })).body.map(
        (l: { monto: number }) => l.monto
      )
    const all = await amounts("limit=200")
    expect(all).toHaveLength(11)
    const desc = [...all].sort((a, b) => b - a)
    expect(await amounts("limit=200&orden=monto_desc")).toEqual(desc)
    expect(await amounts("limit=200&orden=monto_asc")).toEqual([...desc].reverse())
    expect(await amounts("limit=200&orden=antiguo")).toEqual([...all].reverse())
    expect(await amounts("limit=200&orden=reciente")).toEqual(all)
    const pages = [
      ...(await amounts("limit=4&orden=monto_desc")),
      ...(await amounts("limit=4&offset=4&orden=monto_desc"))
    ]
    expect(pages).toEqual(desc.slice(0, 8))
    const bad = await call(server.url, "GET", "/switch/v1/links?orden=al_azar", { key })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "validation", parametro: "orden" })
    const first = (await call(server.url, "GET", "/switch/v1/links?limit=1", { key })).body[0].id
    const cursor = await call(server.url, "GET", `/switch/v1/links?orden=monto_asc&starting_after=${first}`, {
      key
    })
    expect(cursor.status).toBe(400)
    expect(cursor.body.parametro).toBe("starting_after")
  })
})
