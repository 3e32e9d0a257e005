/**
 * `GET /liquidaciones`: a merchant with immediate settlement sees each paid link's settlement
 * (what the payer paid, the net, the state), its own merchant and mode only, filtered by state.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

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

const immediate = async (codigo: string) => {
  const reply = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { liquidacion_inmediata: true }
  })
  expect(reply.status).toBe(200)
}

/** A test link paid through the simulator; with immediate settlement, settled at once. */
const paid = async (key: string, monto: number, concepto: string) => {
  const link = await call(server.url, "POST", "/switch/v1/links", { key, body: { monto, concepto } })
  const sim = await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  expect(sim.status).toBe(200)
  return link.body.id as string
}

describe("GET /liquidaciones", () => {
  it("lists each paid link's settlement with what was paid and the net, newest first", async () => {
    const m = await registerMerchant(server.url)
    await approveMerchant(server, m.codigo)
    await immediate(m.codigo)
    const first = await paid(m.key, 100, "Primera")
    const second = await paid(m.key, 1234.56, "Segunda")
    const reply = await call(server.url, "GET", "/switch/v1/liquidaciones", { key: m.key })
    expect(reply.status).toBe(200)
    expect(reply.body.map((l: { link_id: string }) => l.link_id)).toEqual([second, first])
    const [latest] = reply.body
    expect(latest).toMatchObject({ concepto: "Segunda", cobrado: 1234.56, mode: "test" })
    expect(latest.neto).toBeGreaterThan(0)
    expect(latest.neto).toBeLessThanOrEqual(1234.56)
    const stored = await db.query(
      "select id, monto, estado from transacciones where link_id = $1 and operacion = 'liquidacion'",
      [second]
    )
    expect(latest.id).toBe(stored.rows[0].id)
    expect(latest.neto).toBe(Number(stored.rows[0].monto) / 100)
    expect(latest.estado).toBe(stored.rows[0].estado)
    const filtered = await call(
      server.url,
      "GET",
      `/switch/v1/liquidaciones?estado=${latest.estado}&limit=1`,
      {
        key: m.key
      }
    )
    expect(filtered.body).toHaveLength(1)
    const other = latest.estado === "REVISION" ? "PENDIENTE" : "REVISION"
    expect(
      (await call(server.url, "GET", `/switch/v1/liquidaciones?estado=${other}`, { key: m.key })).body
    ).toEqual([])
  })

  it("shows no other merchant's or mode's settlement, and refuses malformed parameters", async () => {
    const a = await registerMerchant(server.url)
    const aLive = await approveMerchant(server, a.codigo)
    await immediate(a.codigo)
    const b = await registerMerchant(server.url)
    await paid(a.key, 50, "De A")
    expect((await call(server.url, "GET", "/switch/v1/liquidaciones", { key: a.key })).body).toHaveLength(1)
    expect((await call(server.url, "GET", "/switch/v1/liquidaciones", { key: b.key })).body).toEqual([])
    expect((await call(server.url, "GET", "/switch/v1/liquidaciones", { key: aLive })).body).toEqual([])
    for (const [query, parametro] of [
      ["?estado=liquidada", "estado"],
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?offset=-1", "offset"]
    ] as const) {
      const reply = await call(server.url, "GET", `/switch/v1/liquidaciones${query}`, { key: a.key })
      expect(reply.status, query).toBe(400)
      expect(reply.body.parametro, query).toBe(parametro)
    }
    expect((await call(server.url, "GET", "/switch/v1/liquidaciones")).status).toBe(401)
  })

  it("pages by starting_after (the last settlement's id), as by offset", async () => {
    const m = await registerMerchant(server.url)
    await approveMerchant(server, m.codigo)
    await immediate(m.codigo)
    const links: Array<string> = []
    for (let i = 0; i < 5; i++) links.push(await paid(m.key, 10 + i, `Cursor ${i}`))
    const newest = [...links].reverse()
    const walked: Array<string> = []
    let after: string | undefined
    for (let pages = 0; pages < 4; pages++) {
      const reply = await call(
        server.url,
        "GET",
        `/switch/v1/liquidaciones?limit=2${after === undefined ? "" : `&starting_after=${after}`}`,
        { key: m.key }
      )
      expect(reply.status).toBe(200)
      walked.push(...reply.body.map((l: { link_id: string }) => l.link_id))
      if (reply.body.length < 2) break
      after = reply.body.at(-1).id
    }
    expect(walked).toEqual(newest)
    const byOffset = await call(server.url, "GET", "/switch/v1/liquidaciones?limit=2&offset=2", {
      key: m.key
    })
    expect(byOffset.body.map((l: { link_id: string }) => l.link_id)).toEqual(newest.slice(2, 4))
    const bad = await call(server.url, "GET", "/switch/v1/liquidaciones?starting_after=x", { key: m.key })
    expect(bad.status).toBe(400)
  })
})
