/**
 * The transactions list's filters and the CSV export: every row of any size streamed from a
 * cursor (20,000 rows here), no `banco` column, the caller's merchant and mode only, the same
 * filters as the list, malformed filters refused, and a portal session reaching both.
 */
import { randomUUID } from "node:crypto"
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

/** `n` transactions of the merchant in `mode`, one a minute back from `start`, alternating states. */
const seed = async (codigo: string, mode: "test" | "live", n: number, start = "2026-11-20T16:00:00Z") => {
  await db.query(
    `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, propina, referencia_banco, created_at)
     select gen_random_uuid(), c.id, $2, 'cobro', case when g % 2 = 0 then 'LIQUIDADA' else 'RECHAZADA' end,
       10000 + g, g % 3, 'REF' || g, $4::timestamptz - make_interval(mins => g)
     from comercios c, generate_series(1, $3::int) g where c.codigo = $1`,
    [codigo, mode, n, start]
  )
}

const exportOf = async (key: string, query = "") => {
  const response = await fetch(`${server.url}/switch/v1/transacciones/exportar${query}`, {
    headers: { "x-switch-key": key }
  })
  return { response, text: await response.text() }
}

describe("GET /transacciones/exportar", () => {
  it("streams every row of a large export as CSV without a banco column, only the caller's merchant and mode", async () => {
    const a = await registerMerchant(server.url)
    const aLive = await approveMerchant(server, a.codigo)
    const b = await registerMerchant(server.url)
    await seed(a.codigo, "test", 20_000)
    await seed(a.codigo, "live", 7)
    await seed(b.codigo, "test", 5)

    const { response, text } = await exportOf(a.key)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="transacciones-test.csv"')
    // Streamed: no length known in advance.
    expect(response.headers.get("content-length")).toBeNull()
    const lines = text
      .replace(/^\ufeff/, "")
      .trimEnd()
      .split("\r\n")
    const header = lines[0]?.split(",") ?? []
    expect(header).toEqual([
      "id",
      "fecha",
      "fecha_caracas",
      "operacion",
      "estado",
      "monto",
      "propina",
      "total",
      "moneda",
      "mode",
      "link_id",
      "referencia_banco",
      "codigo_verificacion",
      "motivo_rechazo",
      "liquidada_at"
    ])
    expect(header).not.toContain("banco")
    expect(lines).toHaveLength(20_001)
    expect(new Set(lines.slice(1).map((l) => l.split(",")[9]))).toEqual(new Set(["test"]))
    // Newest first; amounts with a point and two decimals; Caracas time beside UTC.
    expect(lines[1]?.split(",").slice(1, 8)).toEqual([
      "2026-11-20T15:59:00.000Z",
      "20/11/2026 11:59 a. m.",
      "cobro",
      "RECHAZADA",
      "100.01",
      "0.01",
      "100.02"
    ])

    const live = await exportOf(aLive)
    expect(live.text.trimEnd().split("\r\n")).toHaveLength(8)
    expect(live.response.headers.get("content-disposition")).toContain("transacciones-live.csv")
    const other = await exportOf(b.key)
    expect(other.text.trimEnd().split("\r\n")).toHaveLength(6)
    const ids = new Set(other.text.split("\r\n").map((l) => l.split(",")[0]))
    for (const line of lines.slice(1, 50)) expect(ids.has(line.split(",")[0])).toBe(false)
  })

  it("takes the list's filters, and the list takes them too", async () => {
    const m = await registerMerchant(server.url)
    await seed(m.codigo, "test", 10, "2026-11-20T16:00:00Z")
    await seed(m.codigo, "test", 4, "2026-11-10T16:00:00Z")
    const liquidated = await exportOf(m.key, "?estado=LIQUIDADA")
    expect(liquidated.text.trimEnd().split("\r\n")).toHaveLength(1 + 5 + 2)
    // A Caracas day: from its start to the given instant.
    const day = await exportOf(m.key, "?desde=2026-11-20&hasta=2026-11-20T23:59:59")
    expect(day.text.trimEnd().split("\r\n")).toHaveLength(11)
    const list = await call(
      server.url,
      "GET",
      "/switch/v1/transacciones?estado=RECHAZADA&desde=2026-11-20&limit=200",
      {
        key: m.key
      }
    )
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(5)
    expect(new Set(list.body.map((t: { estado: string }) => t.estado))).toEqual(new Set(["RECHAZADA"]))
    expect(
      (await call(server.url, "GET", "/switch/v1/transacciones?operacion=cobro&limit=200", { key: m.key }))
        .body
    ).toHaveLength(14)
    expect(
      (await call(server.url, "GET", "/switch/v1/transacciones?operacion=pago", { key: m.key })).body
    ).toEqual([])
  })

  it("refuses malformed filters with 400 validation naming them, before sending any row", async () => {
    const m = await registerMerchant(server.url)
    for (const [query, parametro] of [
      ["?estado=liquidada", "estado"],
      ["?estado=X'%3B--", "estado"],
      ["?operacion=COBRO", "operacion"],
      ["?desde=ayer", "desde"],
      ["?hasta=2026-02-31", "hasta"],
      ["?desde=2026-11-20&hasta=2026-11-10", "hasta"]
    ] as const) {
      for (const path of ["/switch/v1/transacciones/exportar", "/switch/v1/transacciones"]) {
        const reply = await call(server.url, "GET", `${path}${query}`, { key: m.key })
        expect(reply.status, `${path}${query}`).toBe(400)
        expect(reply.body.parametro, `${path}${query}`).toBe(parametro)
      }
    }
    expect((await call(server.url, "GET", "/switch/v1/transacciones/exportar")).status).toBe(401)
  })

  it("a portal session exports its own mode, any role, with no CSRF header on a GET", async () => {
    const codigo = `t${randomUUID().slice(0, 8)}`
    const email = `${codigo}@dueno.example`
    const reg = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: "Comercio",
        identificacion: "J-07013380-5",
        email,
        password: "una-clave-larga-1"
      }
    })
    expect(reg.status).toBe(201)
    await seed(codigo, "test", 3)
    const signIn = await fetch(`${server.url}/switch/v1/sesion`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "una-clave-larga-1" })
    })
    const cookie = (signIn.headers.getSetCookie()[0] ?? "").split(";")[0] ?? ""
    const response = await fetch(`${server.url}/switch/v1/transacciones/exportar`, { headers: { cookie } })
    expect(response.status).toBe(200)
    expect((await response.text()).trimEnd().split("\r\n")).toHaveLength(4)
  })
})
