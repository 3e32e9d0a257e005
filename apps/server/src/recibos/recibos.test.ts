import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string

beforeAll(async () => {
  server = await startServer({ settings: { verificarPorMinuto: 8, housekeepingSeconds: 1 } })
  ;({ key } = await registerMerchant(server.url))
})
afterAll(() => server.close())

const paidLink = async (monto: number) => {
  const { body: link } = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto, concepto: "Camisa azul" }
  })
  await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  return (await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })).body
}

describe("GET /verificar/{codigo}", () => {
  it("confirms a receipt with SPEC's fields, counts verifications and never returns payer data", async () => {
    const link = await paidLink(1234.56)
    const first = await call(server.url, "GET", `/switch/v1/verificar/${link.codigo_verificacion}`)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      valido: true,
      monto: 1234.56,
      moneda: "VES",
      prueba: true,
      concepto: "Camisa azul",
      referencia_externa: null,
      // A simulated payment's reference (`SIMULADO`) has no digits to show.
      referencia_bancaria: null,
      verificaciones: 1
    })
    expect(first.body.fecha_hora).toBe(link.paid_at)
    expect(first.body.fecha_hora_caracas).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} [ap]\. m\.$/)
    expect(first.body.primera_verificacion).not.toBeNull()
    for (const field of ["pagador", "telefono", "cedula", "identificacion", "nombre_pagador"]) {
      expect(first.body).not.toHaveProperty(field)
    }
    // Look-alike characters and lower case still find it.
    const typed = link.codigo_verificacion
      .toLowerCase()
      .replaceAll("0", "o")
      .replaceAll("1", "l")
      .replaceAll("-", "")
    const second = await call(server.url, "GET", `/switch/v1/verificar/${typed}`)
    expect(second.status).toBe(200)
    expect(second.body.verificaciones).toBe(2)
    expect(second.body.primera_verificacion).toBe(first.body.primera_verificacion)

    // A bank's reference shows its last 4 digits only, whatever else it holds.
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    await db.query(
      "update transacciones set referencia_banco = 'BDV-2024-00981234' where codigo_verificacion = $1",
      [link.codigo_verificacion]
    )
    await db.end()
    const banked = await call(server.url, "GET", `/switch/v1/verificar/${link.codigo_verificacion}`)
    expect(banked.body.referencia_bancaria).toBe("****1234")
  })

  it("answers 404 no_encontrado for an unknown code", async () => {
    const reply = await call(server.url, "GET", "/switch/v1/verificar/SW-ZZZZZ-ZZZZZ")
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ error: "no_encontrado", estado: "no_encontrado", valido: false })
  })

  it("answers 429 with Retry-After past the per-IP limit", async () => {
    const replies = []
    for (let i = 0; i < 10; i++)
      replies.push(await call(server.url, "GET", "/switch/v1/verificar/SW-00000-00000"))
    const limited = replies.filter((r) => r.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0)
  })
})

describe("per-IP limits behind a proxy", () => {
  const verify = (base: string, forwardedFor: string) =>
    call(base, "GET", "/switch/v1/verificar/SW-00000-00000", { headers: { "x-forwarded-for": forwardedFor } })

  it("from a trusted proxy each forwarded client has its own window; otherwise the header moves nobody", async () => {
    const proxied = await startServer({
      settings: { verificarPorMinuto: 2, proxiesConfiables: ["127.0.0.1"] }
    })
    const direct = await startServer({ settings: { verificarPorMinuto: 2 } })
    try {
      const a = [await verify(proxied.url, "198.51.100.1"), await verify(proxied.url, "198.51.100.1")]
      expect(a.map((r) => r.status)).toEqual([404, 404])
      expect((await verify(proxied.url, "198.51.100.1")).status).toBe(429)
      // Another client behind the same proxy, even one that prepends a forged address.
      expect((await verify(proxied.url, "198.51.100.1, 198.51.100.2")).status).toBe(404)

      for (const ip of ["198.51.100.1", "198.51.100.2"])
        expect((await verify(direct.url, ip)).status).toBe(404)
      expect((await verify(direct.url, "198.51.100.3")).status).toBe(429)
    } finally {
      await proxied.close()
      await direct.close()
    }
  })
})

describe("transactions and expiry", () => {
  it("lists an empty array for a merchant without transactions", async () => {
    const fresh = await registerMerchant(server.url)
    const reply = await call(server.url, "GET", "/switch/v1/transacciones?limit=5", { key: fresh.key })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual([])
    expect(
      (await call(server.url, "GET", "/switch/v1/transacciones?limit=0", { key: fresh.key })).status
    ).toBe(400)
  })

  it("a link past expires_at reads as expirado at once, cannot be cancelled, and the job stores it", async () => {
    const { body: link } = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 9, concepto: "Vence", expira_en: new Date(Date.now() + 1500).toISOString() }
    })
    expect(link.estado).toBe("pendiente")
    await new Promise((r) => setTimeout(r, 1600))
    const read = await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })
    expect(read.body.estado).toBe("expirado")
    const cancel = await call(server.url, "POST", `/switch/v1/links/${link.id}/cancelar`, { key })
    expect(cancel.status).toBe(409)
    expect(cancel.body).toMatchObject({ error: "no_cancelable", estado: "expirado" })
    const listed = await call(server.url, "GET", "/switch/v1/links?estado=expirado", { key })
    expect(listed.body.map((l: { id: string }) => l.id)).toContain(link.id)
    // The housekeeping job (every second here) writes the state.
    await new Promise((r) => setTimeout(r, 1500))
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    const row = await db.query("select estado from links where id = $1", [link.id])
    await db.end()
    expect(row.rows[0].estado).toBe("expirado")
  })
})
