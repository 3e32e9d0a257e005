/**
 * `GET /liquidaciones/total` and the list's filters and orders (issue 45): the total counts what
 * the list's filters choose (`estado`, `desde`/`hasta`, `min`/`max` on the net), paging aside,
 * derived (simulated) test settlements and recorded ones alike; `orden` sorts by net or by date
 * either way, a cursor only with the default; a bad filter is `400 validation` naming it; only
 * the caller's merchant and mode are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
/** Without immediate settlement: its test settlements are derived when read. */
let daily: { key: string; codigo: string }
/** With immediate settlement: its test settlements are recorded. */
let instant: { key: string; codigo: string }
let live: string

const AMOUNTS = [100, 1234.56, 0.99, 50.2, 300]

const admin = (codigo: string, body: Record<string, unknown>) =>
  call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body
  })

const paid = async (key: string, monto: number, concepto: string) => {
  const link = await call(server.url, "POST", "/switch/v1/links", { key, body: { monto, concepto } })
  expect(link.status).toBe(201)
  const sim = await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  expect(sim.status).toBe(200)
}

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  daily = await registerMerchant(server.url)
  instant = await registerMerchant(server.url)
  expect((await admin(daily.codigo, { comision_pct: 2.5 })).status).toBe(200)
  expect((await admin(instant.codigo, { comision_pct: 2.5, liquidacion_inmediata: true })).status).toBe(200)
  for (const [i, monto] of AMOUNTS.entries()) {
    await paid(daily.key, monto, `Diaria ${i}`)
    await paid(instant.key, monto, `Inmediata ${i}`)
  }
  live = await approveMerchant(server, daily.codigo)
  // Another merchant's payments are never counted.
  const other = await registerMerchant(server.url)
  await paid(other.key, 100, "Ajena")
})
afterAll(() => server?.close())

const get = (path: string, key: string) => call(server.url, "GET", path, { key })
const total = async (query: string, key: string) => {
  const reply = await get(`/switch/v1/liquidaciones/total${query}`, key)
  expect(reply.status, query).toBe(200)
  return reply.body.total as number
}
const listed = async (query: string, key: string) => {
  const reply = await get(
    `/switch/v1/liquidaciones?limit=200${query === "" ? "" : `&${query.slice(1)}`}`,
    key
  )
  expect(reply.status, query).toBe(200)
  return reply.body as ReadonlyArray<{ id: string; neto: number; created_at: string; simulada: boolean }>
}

/** A Caracas day (UTC-4) as `YYYY-MM-DD`, `days` from today. */
const caracasDay = (days: number) =>
  new Date(Date.now() - 4 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)

describe("GET /switch/v1/liquidaciones/total", () => {
  it("counts what the list's filters choose, derived and recorded settlements alike, paging aside", async () => {
    const today = caracasDay(0)
    const queries = [
      "",
      "?estado=LIQUIDADA",
      "?estado=PENDIENTE",
      "?min=90",
      "?max=60",
      "?min=40&max=400",
      `?desde=${today}`,
      `?desde=${caracasDay(1)}`,
      `?hasta=${caracasDay(-1)}T23:59:59.999`,
      `?desde=${today}&hasta=${today}T23:59:59.999&min=1`
    ]
    for (const key of [daily.key, instant.key]) {
      for (const query of queries)
        expect(await total(query, key), query).toBe((await listed(query, key)).length)
      expect(await total("", key)).toBe(AMOUNTS.length)
      expect(await total(`?desde=${today}`, key)).toBe(AMOUNTS.length)
      expect(await total(`?desde=${caracasDay(1)}`, key)).toBe(0)
      expect(await total("?estado=RECHAZADA", key)).toBe(0)
      // Paging and order do not change the count.
      expect(await total("?limit=2&offset=1&orden=monto_asc", key)).toBe(AMOUNTS.length)
    }
  })

  it("min and max read the net credited: derived settlements the same figure the list shows, as recorded ones", async () => {
    const derived = await listed("", daily.key)
    const recorded = await listed("", instant.key)
    expect(derived.every((l) => l.simulada)).toBe(true)
    expect(derived.map((l) => l.neto).sort()).toEqual(recorded.map((l) => l.neto).sort())
    for (const [key, rows] of [
      [daily.key, derived],
      [instant.key, recorded]
    ] as const) {
      for (const l of rows) {
        const exact = `?min=${l.neto.toFixed(2)}&max=${l.neto.toFixed(2)}`
        expect(
          (await listed(exact, key)).map((r) => r.id),
          exact
        ).toContain(l.id)
        expect(await total(exact, key), exact).toBe(rows.filter((r) => r.neto === l.neto).length)
        // A cent above the net leaves it out.
        const above = `?min=${(l.neto + 0.01).toFixed(2)}`
        expect(
          (await listed(above, key)).map((r) => r.id),
          above
        ).not.toContain(l.id)
      }
    }
  })

  it("counts only the caller's merchant and mode: the live key sees none of test mode's", async () => {
    expect(await total("", live)).toBe(0)
    expect(await listed("", live)).toEqual([])
    expect(await total("", daily.key)).toBe(AMOUNTS.length)
  })

  it("a bad filter is 400 validation naming it, on the list and the total", async () => {
    for (const [query, parametro] of [
      ["?min=-1", "min"],
      ["?max=mucho", "max"],
      ["?desde=ayer", "desde"],
      ["?hasta=2026-13-45", "hasta"],
      ["?estado=PAGADA", "estado"]
    ] as const) {
      for (const path of ["/switch/v1/liquidaciones/total", "/switch/v1/liquidaciones"]) {
        const reply = await get(`${path}${query}`, daily.key)
        expect(reply.status, `${path}${query}`).toBe(400)
        expect(reply.body).toMatchObject({ error: "validation", parametro })
      }
    }
  })
})

describe("GET /switch/v1/liquidaciones?orden", () => {
  it("sorts by net either way or oldest first, pages by offset without overlap; bad values are 400", async () => {
    for (const key of [daily.key, instant.key]) {
      const nets = async (query: string) => (await listed(query, key)).map((l) => l.neto)
      const all = await nets("")
      expect(all).toHaveLength(AMOUNTS.length)
      const dates = (await listed("", key)).map((l) => l.created_at)
      expect(dates).toEqual([...dates].sort().reverse())
      const desc = [...all].sort((a, b) => b - a)
      expect(await nets("?orden=monto_desc")).toEqual(desc)
      expect(await nets("?orden=monto_asc")).toEqual([...desc].reverse())
      expect(await nets("?orden=antiguo")).toEqual([...all].reverse())
      expect(await nets("?orden=reciente")).toEqual(all)
      const page = async (offset: number) =>
        (await get(`/switch/v1/liquidaciones?limit=2&offset=${offset}&orden=monto_desc`, key)).body.map(
          (l: { neto: number }) => l.neto
        )
      expect([...(await page(0)), ...(await page(2))]).toEqual(desc.slice(0, 4))
    }
    const bad = await get("/switch/v1/liquidaciones?orden=al_azar", daily.key)
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "validation", parametro: "orden" })
    const first = (await get("/switch/v1/liquidaciones?limit=1", daily.key)).body[0].id
    const cursor = await get(`/switch/v1/liquidaciones?orden=monto_asc&starting_after=${first}`, daily.key)
    expect(cursor.status).toBe(400)
    expect(cursor.body.parametro).toBe("starting_after")
    // The default order still follows a cursor.
    const next = await get(`/switch/v1/liquidaciones?starting_after=${first}`, daily.key)
    expect(next.status).toBe(200)
    expect(next.body).toHaveLength(AMOUNTS.length - 1)
  })
})
