/**
 * Refunded links (issue 45): SPEC keeps a paid link's `estado` `pagado`; get and list add
 * `reembolso` once money went back to the payer (`reembolsado` when all of it, else
 * `reembolsado_parcial`, with what went back and what is left), and `GET /links?reembolso=`
 * filters by it; the merchant's own links and mode only.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { signInOwner } from "../../test/ownerSession.js"

const PASSWORD = "una-clave-larga-1"

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
})
afterAll(() => server?.close())

/** A merchant with the refunds pilot on: its test key and its owner's session headers. */
const merchant = async () => {
  const codigo = `rb${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const pilot = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { reembolsos_habilitado: true }
  })
  expect(pilot.status).toBe(200)
  return { key: `${codigo}:${made.body.api_key}`, headers: await signInOwner(server.url, email, PASSWORD) }
}

const paidLink = async (key: string, monto: number, concepto: string) => {
  const link = await call(server.url, "POST", "/switch/v1/links", { key, body: { monto, concepto } })
  expect(link.status).toBe(201)
  const sim = await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  expect(sim.status).toBe(200)
  return link.body.id as string
}

const refund = async (headers: Record<string, string>, id: string, monto: number) => {
  const r = await call(server.url, "POST", `/switch/v1/links/${id}/reembolsos`, {
    headers,
    body: { monto, motivo: "Devolución", idempotency_key: randomUUID() }
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
}

describe("refunded links", () => {
  it("get and list show reembolsado and reembolsado_parcial with the amounts; estado stays pagado", async () => {
    const m = await merchant()
    const partial = await paidLink(m.key, 100, "Parcial")
    const full = await paidLink(m.key, 50.5, "Total")
    const twice = await paidLink(m.key, 30, "En dos partes")
    const untouched = await paidLink(m.key, 20, "Sin reembolso")
    const open = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 9, concepto: "Abierto" }
    })
    await refund(m.headers, partial, 40)
    await refund(m.headers, full, 50.5)
    await refund(m.headers, twice, 10)
    await refund(m.headers, twice, 20)

    const one = await call(server.url, "GET", `/switch/v1/links/${partial}`, { key: m.key })
    expect(one.body.estado).toBe("pagado")
    expect(one.body.reembolso).toEqual({
      estado: "reembolsado_parcial",
      monto_devuelto: 40,
      monto_restante: 60
    })
    const byId = async (id: string) =>
      (await call(server.url, "GET", `/switch/v1/links/${id}`, { key: m.key })).body
    expect((await byId(full)).reembolso).toEqual({
      estado: "reembolsado",
      monto_devuelto: 50.5,
      monto_restante: 0
    })
    expect((await byId(twice)).reembolso).toEqual({
      estado: "reembolsado",
      monto_devuelto: 30,
      monto_restante: 0
    })
    expect((await byId(untouched)).reembolso).toBeUndefined()
    expect((await byId(open.body.id)).reembolso).toBeUndefined()

    const list = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key: m.key })).body
    const seen = Object.fromEntries(list.map((l: any) => [l.concepto, l.reembolso?.estado ?? l.estado]))
    expect(seen).toEqual({
      Parcial: "reembolsado_parcial",
      Total: "reembolsado",
      "En dos partes": "reembolsado",
      "Sin reembolso": "pagado",
      Abierto: "pendiente"
    })
    // The session (the portal) reads the same.
    const session = await call(server.url, "GET", `/switch/v1/links/${partial}`, { headers: m.headers })
    expect(session.body.reembolso.estado).toBe("reembolsado_parcial")
  })

  it("GET /links?reembolso= filters by it, alone or with other filters; another value is 400", async () => {
    const m = await merchant()
    const stranger = await merchant()
    const partial = await paidLink(m.key, 100, "Parcial")
    const full = await paidLink(m.key, 10, "Total")
    await paidLink(m.key, 10, "Sin reembolso")
    await refund(m.headers, partial, 1)
    await refund(m.headers, full, 10)
    const theirs = await paidLink(stranger.key, 10, "Ajeno")
    await refund(stranger.headers, theirs, 10)
    const ids = async (query: string) =>
      (await call(server.url, "GET", `/switch/v1/links?${query}`, { key: m.key })).body.map((l: any) => l.id)
    expect(await ids("reembolso=reembolsado")).toEqual([full])
    expect(await ids("reembolso=reembolsado_parcial")).toEqual([partial])
    expect(await ids("reembolso=reembolsado&q=parcial")).toEqual([])
    expect(await ids("reembolso=reembolsado_parcial&estado=pagado&min=50")).toEqual([partial])
    expect(await ids("reembolso=")).toHaveLength(3)
    const bad = await call(server.url, "GET", "/switch/v1/links?reembolso=todo", { key: m.key })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "validation", parametro: "reembolso" })
  })
})
