import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string
let codigo: string

beforeAll(async () => {
  server = await startServer()
  ;({ key, codigo } = await registerMerchant(server.url))
})
afterAll(() => server.close())

const create = (body: unknown, k = key) => call(server.url, "POST", "/switch/v1/links", { key: k, body })

describe("POST /links", () => {
  it("creates a pendiente link with SPEC's fields", async () => {
    const reply = await create({ monto: 1234.56, concepto: "Pedido 7", metadata: { pedido: "7" } })
    expect(reply.status).toBe(201)
    const link = reply.body
    expect(link).toMatchObject({
      monto: 1234.56,
      moneda: "VES",
      concepto: "Pedido 7",
      estado: "pendiente",
      mode: "test",
      comercio: codigo,
      propina: 0,
      total: 1234.56,
      pagador: { alta_cliente: false },
      codigo_verificacion: null,
      txn_id: null,
      paid_at: null,
      success_url: null,
      failure_url: null,
      metadata: { pedido: "7" }
    })
    expect(link.url).toBe(`${server.settings.baseUrl}/l/${link.id}`)
    expect(link.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(link.qr_png).toBe(`${link.url}/qr.png`)
    expect(link.wa_deeplink).toContain(encodeURIComponent(link.url))
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(24 * 3600 * 1000)
    expect(link.idempotent_replay).toBeUndefined()
  })

  it("answers 400 validation with fieldErrors and creates nothing", async () => {
    const before = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body.length
    const reply = await create({ monto: 10.001, concepto: "x".repeat(141), mode: "live" })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe("validation")
    expect(Object.keys(reply.body.detail.fieldErrors).sort()).toEqual(["concepto", "mode", "monto"])
    const after = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body.length
    expect(after).toBe(before)
  })

  it("answers 401 unauthorized for a missing, malformed or unknown key", async () => {
    for (const k of [
      undefined,
      "nokey",
      `${codigo}:sk_test_${"x".repeat(32)}`,
      `otro:${key.split(":")[1]}`
    ]) {
      const reply = await call(server.url, "POST", "/switch/v1/links", {
        ...(k === undefined ? {} : { key: k }),
        body: { monto: 1, concepto: "x" }
      })
      expect(reply.status).toBe(401)
      expect(reply.body.error).toBe("unauthorized")
    }
  })

  it("replays the same key with 200 and idempotent_replay, and 50 parallel creations give one link", async () => {
    const body = { monto: 5, concepto: "Idem", idempotency_key: "pedido-50" }
    const replies = await Promise.all(Array.from({ length: 50 }, () => create(body)))
    const ids = new Set(replies.map((r) => r.body.id))
    expect(ids.size).toBe(1)
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    const replays = replies.filter((r) => r.status === 200)
    expect(replays).toHaveLength(49)
    expect(replays.every((r) => r.body.idempotent_replay === true)).toBe(true)
  })

  it("refuses a split until the merchant has the pilot", async () => {
    const reply = await create({ monto: 100, concepto: "x", split: [] })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe("split_no_disponible")
  })
})

describe("GET, cancel and simulate", () => {
  it("gets an own link and 404s an unknown or malformed id", async () => {
    const { body: link } = await create({ monto: 20, concepto: "Ver" })
    const reply = await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })
    expect(reply.status).toBe(200)
    expect(reply.body.id).toBe(link.id)
    expect(
      (await call(server.url, "GET", "/switch/v1/links/00000000-0000-0000-0000-000000000000", { key })).status
    ).toBe(404)
    expect((await call(server.url, "GET", "/switch/v1/links/no-es-uuid", { key })).body).toEqual({
      error: "not_found"
    })
  })

  it("cancels a pendiente link once; the second cancel is 409 no_cancelable with estado", async () => {
    const { body: link } = await create({ monto: 20, concepto: "Cancelar" })
    const first = await call(server.url, "POST", `/switch/v1/links/${link.id}/cancelar`, { key })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ id: link.id, estado: "cancelado" })
    const second = await call(server.url, "POST", `/switch/v1/links/${link.id}/cancelar`, { key })
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ error: "no_cancelable", estado: "cancelado" })
  })

  it("simulates pagado: transaction, receipt code, reference SIMULADO; a paid link cannot be cancelled", async () => {
    const { body: link } = await create({ monto: 150.5, concepto: "Simular" })
    const sim = await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(sim.status).toBe(200)
    expect(sim.body).toEqual({ id: link.id, estado: "pagado", resultado: "pagado", simulado: true })
    const paid = (await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })).body
    expect(paid.estado).toBe("pagado")
    expect(paid.codigo_verificacion).toMatch(/^SW-[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    expect(paid.txn_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(paid.paid_at).not.toBeNull()
    const cancel = await call(server.url, "POST", `/switch/v1/links/${link.id}/cancelar`, { key })
    expect(cancel.status).toBe(409)
    expect(cancel.body).toMatchObject({ error: "no_cancelable", estado: "pagado" })
    const again = await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "no_simulable", estado: "pagado" })
    const txns = (await call(server.url, "GET", "/switch/v1/transacciones", { key })).body
    expect(txns.find((t: { link_id: string }) => t.link_id === link.id)).toMatchObject({
      estado: "LIQUIDADA",
      referencia_banco: "SIMULADO",
      monto: 150.5
    })
    const verified = await call(
      server.url,
      "GET",
      `/switch/v1/verificar/${paid.codigo_verificacion.toLowerCase()}`
    )
    expect(verified.status).toBe(200)
    expect(verified.body).toMatchObject({ valido: true, monto: 150.5, prueba: true, verificaciones: 1 })
  })

  it("simulates rechazado without change and expirado at once", async () => {
    const { body: link } = await create({ monto: 20, concepto: "Rechazo" })
    const rej = await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
      key,
      body: { resultado: "rechazado" }
    })
    expect(rej.body.estado).toBe("pendiente")
    const exp = await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
      key,
      body: { resultado: "expirado" }
    })
    expect(exp.body.estado).toBe("expirado")
    expect((await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })).body.estado).toBe(
      "expirado"
    )
    const bad = await call(server.url, "POST", `/switch/v1/links/${link.id}/simular`, {
      key,
      body: { resultado: "x" }
    })
    expect(bad.status).toBe(400)
  })
})

describe("GET /links filters", () => {
  it("a link made through the API is stored with origen api, and the origen filter selects by it", async () => {
    const own = await registerMerchant(server.url)
    const made = await create({ monto: 5, concepto: "Por la API" }, own.key)
    expect(made.body.origen).toBe("api")
    const lote = await call(server.url, "POST", "/switch/v1/lotes", {
      key: own.key,
      body: { items: [{ monto: 6, concepto: "Del lote" }] }
    })
    expect(lote.status).toBe(201)
    const list = async (origen: string) =>
      (await call(server.url, "GET", `/switch/v1/links?origen=${origen}`, { key: own.key })).body as Array<{
        origen: string
      }>
    expect((await list("api")).map((l) => l.origen)).toEqual(["api", "api"])
    for (const other of ["panel", "mi_pagina", "boton", "whatsapp"]) expect(await list(other)).toEqual([])
  })

  it("filters by estado, amount, q (accent-insensitive) and rejects bad parameters with parametro", async () => {
    const other = await registerMerchant(server.url)
    const mk = (body: unknown) => create(body, other.key)
    await mk({ monto: 10, concepto: "Café con leche" })
    const big = (await mk({ monto: 500, concepto: "Zapatos rojos" })).body
    await call(server.url, "POST", `/switch/v1/links/${big.id}/cancelar`, { key: other.key })
    const list = (q: string) => call(server.url, "GET", `/switch/v1/links${q}`, { key: other.key })
    expect((await list("")).body.map((l: { concepto: string }) => l.concepto)).toEqual([
      "Zapatos rojos",
      "Café con leche"
    ])
    expect((await list("?q=CAFE")).body).toHaveLength(1)
    expect((await list("?q=zapatos%20azules")).body).toHaveLength(0)
    // By its id, whole or its beginning (the 8 characters the portal shows), in any case.
    const ids = (reply: { body: Array<{ id: string }> }) => reply.body.map((l) => l.id)
    expect(ids(await list(`?q=${big.id}`))).toEqual([big.id])
    expect(ids(await list(`?q=${big.id.slice(0, 8).toUpperCase()}`))).toEqual([big.id])
    expect(ids(await list(`?q=zapatos%20${big.id.slice(0, 13)}`))).toEqual([big.id])
    expect(ids(await list(`?q=cafe%20${big.id.slice(0, 8)}`))).toEqual([])
    // q's limit is 80 characters as a person counts them: 80 emoji pass, 81 letters do not.
    expect((await list(`?q=${encodeURIComponent("😀".repeat(80))}`)).status).toBe(200)
    expect((await list(`?q=${"a".repeat(81)}`)).status).toBe(400)
    expect((await list("?estado=cancelado,desconocido")).body).toHaveLength(1)
    expect((await list("?estado=desconocido")).body).toHaveLength(2)
    expect((await list("?min=100")).body).toHaveLength(1)
    expect((await list("?max=10")).body).toHaveLength(1)
    expect((await list("?mode=live")).body).toHaveLength(0)
    expect((await list("?limit=1")).body).toHaveLength(1)
    for (const [param, value] of [
      ["desde", "ayer"],
      ["hasta", "2026-13-01"],
      ["min", "-1"],
      ["max", "x"],
      ["con_propina", "si"],
      ["mode", "prod"],
      ["origen", "tv"],
      ["limit", "201"]
    ]) {
      const reply = await list(`?${param}=${value}`)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ error: "validation", parametro: param })
      expect(typeof reply.body.detail).toBe("string")
    }
  })
})
