/**
 * Simulated settlements of test mode (issue 45): a merchant without immediate settlement sees,
 * for each paid test link, the settlement immediate settlement would make (the net after its
 * commission, the same figure a merchant with immediate settlement gets recorded), marked
 * `simulada`; nothing is written, no notice is sent, live mode never shows one, and Inicio's
 * figures count them too.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { writeEvent } from "../../test/webhooksReceiver.js"

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
  return link.body.id as string
}

const count = async (sql: string, params: Array<unknown>) => Number((await db.query(sql, params)).rows[0].n)

describe("simulated settlements in test mode", () => {
  it("a merchant without immediate settlement sees each test payment's settlement, simulated, as immediate settlement would record it", async () => {
    const daily = await registerMerchant(server.url)
    const instant = await registerMerchant(server.url)
    expect((await admin(daily.codigo, { comision_pct: 2.5 })).status).toBe(200)
    expect((await admin(instant.codigo, { comision_pct: 2.5, liquidacion_inmediata: true })).status).toBe(200)
    const amounts = [100, 1234.56, 0.99]
    const links = []
    for (const [i, monto] of amounts.entries()) {
      links.push(await paid(daily.key, monto, `Diaria ${i}`))
      await paid(instant.key, monto, `Inmediata ${i}`)
    }
    const eventsBefore = await count("select count(*) as n from eventos where evento = 'link.acreditado'", [])
    const simulated = (await call(server.url, "GET", "/switch/v1/liquidaciones", { key: daily.key })).body
    const recorded = (await call(server.url, "GET", "/switch/v1/liquidaciones", { key: instant.key })).body
    expect(simulated.map((l: any) => l.link_id)).toEqual([...links].reverse())
    // The same figures a recorded (immediate) test settlement has, for the same payments.
    const shape = (l: any) => [l.cobrado, l.neto, l.estado, l.referencia_banco, l.simulada, l.mode]
    expect(simulated.map(shape)).toEqual(recorded.map(shape))
    expect(simulated.map((l: any) => [l.simulada, l.referencia_banco])).toEqual(
      amounts.map(() => [true, "SIMULADO"])
    )
    expect(simulated[1]).toMatchObject({ concepto: "Diaria 1", cobrado: 1234.56, estado: "LIQUIDADA" })
    // Reading wrote nothing and sent nothing.
    expect(
      await count(
        "select count(*) as n from transacciones t join comercios c on c.id = t.comercio_id where c.codigo = $1 and t.operacion = 'liquidacion'",
        [daily.codigo]
      )
    ).toBe(0)
    expect(await count("select count(*) as n from eventos where evento = 'link.acreditado'", [])).toBe(
      eventsBefore
    )
    // Filters and pages work over them as over recorded ones.
    const page = await call(server.url, "GET", "/switch/v1/liquidaciones?limit=1&offset=1", {
      key: daily.key
    })
    expect(page.body.map((l: any) => l.link_id)).toEqual([links[1]])
    const after = await call(
      server.url,
      "GET",
      `/switch/v1/liquidaciones?starting_after=${simulated[0].id}&limit=1`,
      { key: daily.key }
    )
    expect(after.body.map((l: any) => l.link_id)).toEqual([links[1]])
    expect(
      (await call(server.url, "GET", "/switch/v1/liquidaciones?estado=PENDIENTE", { key: daily.key })).body
    ).toEqual([])
    // Inicio counts them as the list shows them.
    const resumen = (await call(server.url, "GET", "/switch/v1/resumen", { key: daily.key })).body
    const net = simulated.reduce((sum: number, l: any) => sum + Math.round(l.neto * 100), 0) / 100
    expect(resumen.liquidaciones).toEqual({ LIQUIDADA: { cantidad: 3, neto: net } })
  })

  it("live mode never shows a simulated settlement, and another merchant's payments never show", async () => {
    const m = await registerMerchant(server.url)
    const liveKey = await approveMerchant(server, m.codigo)
    const stranger = await registerMerchant(server.url)
    await paid(m.key, 50, "Prueba")
    await paid(stranger.key, 70, "Ajena")
    await writeEvent(server.databaseUrl, m.codigo, "live")
    const live = await call(server.url, "GET", "/switch/v1/liquidaciones", { key: liveKey })
    expect(live.status).toBe(200)
    expect(live.body).toEqual([])
    const liveResumen = (await call(server.url, "GET", "/switch/v1/resumen", { key: liveKey })).body
    expect(liveResumen.liquidaciones).toEqual({})
    const test = (await call(server.url, "GET", "/switch/v1/liquidaciones", { key: m.key })).body
    expect(test.map((l: any) => l.concepto)).toEqual(["Prueba"])
  })
})
