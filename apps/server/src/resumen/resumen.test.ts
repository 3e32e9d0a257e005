/**
 * `GET /resumen`: the week's collections by Venezuelan day, open links, the latest payments and
 * settlements by state, of the caller's merchant and mode only.
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

/** A settled collection of `cents` (+ `tip`) created `hoursAgo` hours ago. */
const collection = (
  codigo: string,
  mode: string,
  cents: number,
  tip: number,
  hoursAgo: number,
  op = "cobro"
) =>
  db.query(
    `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, propina, created_at)
     select gen_random_uuid(), id, $2, $6, 'LIQUIDADA', $3, $4, now() - make_interval(hours => $5::int)
     from comercios where codigo = $1`,
    [codigo, mode, cents, tip, hoursAgo, op]
  )

const diaVenezuela = (ms: number) => new Date(ms - 4 * 3_600_000).toISOString().slice(0, 10)

describe("GET /resumen", () => {
  it("adds up the week's settled collections by Venezuelan day and counts open links and settlements", async () => {
    const m = await registerMerchant(server.url)
    const live = await approveMerchant(server, m.codigo)
    const other = await registerMerchant(server.url)
    await collection(m.codigo, "test", 10_000, 500, 0)
    await collection(m.codigo, "test", 2_050, 0, 0)
    await collection(m.codigo, "test", 7_000, 0, 48)
    await collection(m.codigo, "test", 99_999, 0, 24 * 8) // older than the week
    await collection(m.codigo, "test", 5_000, 0, 1, "liquidacion")
    await collection(m.codigo, "live", 123_400, 0, 0)
    await collection(other.codigo, "test", 55_500, 0, 0)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 10, concepto: "Abierto" }
    })
    expect(link.status).toBe(201)

    const reply = await call(server.url, "GET", "/switch/v1/resumen", { key: m.key })
    expect(reply.status).toBe(200)
    const now = Date.now()
    const body = reply.body
    expect(body.mode).toBe("test")
    expect(body.semana.map((d: { dia: string }) => d.dia)).toEqual(
      Array.from({ length: 7 }, (_, i) => diaVenezuela(now - (6 - i) * 86_400_000))
    )
    const today = diaVenezuela(now)
    expect(body.hoy).toEqual({ dia: today, cobrado: 125.5, pagos: 2 })
    const twoDaysAgo = body.semana.find((d: { dia: string }) => d.dia === diaVenezuela(now - 48 * 3_600_000))
    expect(twoDaysAgo).toEqual({ dia: diaVenezuela(now - 48 * 3_600_000), cobrado: 70, pagos: 1 })
    expect(body.semana.reduce((sum: number, d: { pagos: number }) => sum + d.pagos, 0)).toBe(3)
    expect(body.links_abiertos).toBe(1)
    expect(body.pagos_recientes.map((p: { total: number }) => p.total)).toEqual([20.5, 105, 70, 999.99])
    expect(body.liquidaciones).toEqual({ LIQUIDADA: { cantidad: 1, neto: 50 } })

    const liveView = (await call(server.url, "GET", "/switch/v1/resumen", { key: live })).body
    expect(liveView.hoy.cobrado).toBe(1234)
    expect(liveView.links_abiertos).toBe(0)
    expect(liveView.liquidaciones).toEqual({})
    const otherView = (await call(server.url, "GET", "/switch/v1/resumen", { key: other.key })).body
    expect(otherView.hoy).toEqual({ dia: today, cobrado: 555, pagos: 1 })
    expect(otherView.pagos_recientes).toHaveLength(1)
    expect((await call(server.url, "GET", "/switch/v1/resumen")).status).toBe(401)
  })
})
