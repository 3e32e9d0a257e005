/**
 * The payment page's endpoints on test links: magic codes, exactly-once payment under
 * concurrent submissions, tips, caps, suspension, customers and CSRF.
 */
import { createHash } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ControlledClock, openPage, PAYER, startCheckoutServer } from "../../test/checkoutHarness.js"
import { call, registerMerchant, type TestServer } from "../../test/harness.js"
import { ASSETS } from "./CheckoutRoutes.js"

const ADMIN = { "x-admin-token": "admin-de-prueba" }
const clock: ControlledClock = { offsetMs: 0, fixed: null }
let server: TestServer
let db: Pg.Client
let key: string
let codigo: string

beforeAll(async () => {
  server = await startCheckoutServer({ clock })
  ;({ key, codigo } = await registerMerchant(server.url))
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db.end()
  await server.close()
})

const newLink = async (body: Record<string, unknown> = {}, withKey = key) => {
  const r = await call(server.url, "POST", "/switch/v1/links", {
    key: withKey,
    body: { monto: 1234.56, concepto: "Camisa", ...body }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

const patchMerchant = (code: string, body: Record<string, unknown>) =>
  call(server.url, "PATCH", `/admin/v1/comercios/${code}`, { headers: ADMIN, body })

const count = async (query: string, params: Array<unknown>) =>
  Number((await db.query(query, params)).rows[0]?.n ?? 0)

const paidEvents = (linkId: string) =>
  count("select count(*) as n from eventos where evento = 'link.pagado' and data->>'link_id' = $1", [linkId])

describe("test-mode payments on the page", () => {
  it("any 8-digit code pays at once: transaction, receipt code and one link.pagado event", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    const paid = await page.post("/pagar", { ...PAYER, otp: "12345678" })
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ estado: "pagado", codigo_verificacion: expect.stringMatching(/^SW-/) })
    const link = await call(server.url, "GET", `/switch/v1/links/${id}`, { key })
    expect(link.body).toMatchObject({ estado: "pagado", total: 1234.56, pagador: { alta_cliente: false } })
    expect(link.body.paid_at).not.toBeNull()
    expect(await paidEvents(id)).toBe(1)
  })

  it.each([
    ["11111111", "DESCONOCIDO"],
    ["11111112", "SALDO_INSUFICIENTE"],
    ["11111113", "OTP_INVALIDO"],
    ["11111114", "BANCO_NO_DISPONIBLE"]
  ])("code %s is rejected with %s, the link stays pendiente and no event is written", async (otp, motivo) => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    const reply = await page.post("/pagar", { ...PAYER, otp })
    expect(reply.body).toMatchObject({
      estado: "rechazado",
      motivo_rechazo: motivo,
      motivo: expect.any(String)
    })
    const link = await call(server.url, "GET", `/switch/v1/links/${id}`, { key })
    expect(link.body.estado).toBe("pendiente")
    expect(await count("select count(*) as n from eventos where data->>'link_id' = $1", [id])).toBe(0)
    const estado = await call(server.url, "GET", `/l/${id}/estado`)
    expect(estado.body).toMatchObject({ estado: "pendiente", motivo: expect.any(String) })
  })

  it("22222222 stays procesando and approves itself after about 30 s (clock moved)", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    expect((await page.post("/pagar", { ...PAYER, otp: "22222222" })).body).toEqual({ estado: "procesando" })
    clock.offsetMs = 20_000
    expect((await call(server.url, "GET", `/l/${id}/estado`)).body.estado).toBe("procesando")
    clock.offsetMs = 31_000
    expect((await call(server.url, "GET", `/l/${id}/estado`)).body.estado).toBe("pagado")
    clock.offsetMs = 0
    expect(await paidEvents(id)).toBe(1)
    expect((await openPage(server.url, id)).html).toContain("Pago exitoso")
  })

  it("20 parallel submissions debit once and write one link.pagado row", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => page.post("/pagar", { ...PAYER, otp: "12345678" }))
    )
    for (const r of replies) expect(["pagado", "procesando"]).toContain(r.body.estado)
    expect(await count("select count(*) as n from intentos_pago where link_id = $1", [id])).toBe(1)
    expect(
      await count(
        "select count(*) as n from banco_prueba b join intentos_pago i on i.id::text = b.operacion_id where i.link_id = $1",
        [id]
      )
    ).toBe(1)
    expect(await count("select count(*) as n from transacciones where link_id = $1", [id])).toBe(1)
    expect(await paidEvents(id)).toBe(1)
  })

  it("a second submission while the bank confirms waits and answers procesando", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    const first = await page.post("/pagar", { ...PAYER, otp: "33333333" })
    expect(first.body.estado).toBe("procesando")
    const second = await page.post("/pagar", { ...PAYER, otp: "12345678" })
    expect(second.body.estado).toBe("procesando")
    expect(await count("select count(*) as n from intentos_pago where link_id = $1", [id])).toBe(1)
  })

  it("tips follow the merchant's cap: refused when not allowed, capped, added to the total", async () => {
    const { key: k, codigo: c } = await registerMerchant(server.url)
    const id = await newLink({ monto: 100 }, k)
    let page = await openPage(server.url, id)
    const refused = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: 5 })
    expect(refused.status).toBe(400)
    expect(refused.body.detail.fieldErrors.propina[0]).toContain("no acepta propinas")
    expect((await patchMerchant(c, { propina_max_pct: 10 })).status).toBe(200)
    page = await openPage(server.url, id)
    expect(page.html).toContain("hasta Bs 10,00")
    const over = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: 10.01 })
    expect(over.body.detail.fieldErrors.propina[0]).toContain("Bs 10,00")
    const bad = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: 1.005 })
    expect(bad.status).toBe(400)
    const ok = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: "7,5" })
    expect(ok.body.estado).toBe("pagado")
    const link = await call(server.url, "GET", `/switch/v1/links/${id}`, { key: k })
    expect(link.body).toMatchObject({ monto: 100, propina: 7.5, total: 107.5 })
  })

  it.each([
    ["1.234,56", 1234.56],
    ["1234,56", 1234.56],
    ["1.234", 1234],
    ["1234.56", 1234.56]
  ])(
    "a tip typed as %s is read as Venezuelans write it (Bs %d) and debited with the amount",
    async (typed, tip) => {
      const { key: k, codigo: c } = await registerMerchant(server.url)
      expect((await patchMerchant(c, { propina_max_pct: 100 })).status).toBe(200)
      const id = await newLink({ monto: 2000 }, k)
      const page = await openPage(server.url, id)
      const paid = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: typed })
      expect(paid.body.estado).toBe("pagado")
      const link = await call(server.url, "GET", `/switch/v1/links/${id}`, { key: k })
      expect(link.body).toMatchObject({ monto: 2000, propina: tip, total: 2000 + tip })
    }
  )

  it("a typed tip in another notation (1,234.56) is refused, not misread", async () => {
    const { key: k, codigo: c } = await registerMerchant(server.url)
    expect((await patchMerchant(c, { propina_max_pct: 100 })).status).toBe(200)
    const id = await newLink({ monto: 2000 }, k)
    const page = await openPage(server.url, id)
    const refused = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: "1,234.56" })
    expect(refused.status).toBe(400)
    expect(refused.body.detail.fieldErrors.propina[0]).toContain("1.234,56")
    expect((await call(server.url, "GET", `/switch/v1/links/${id}`, { key: k })).body.estado).toBe(
      "pendiente"
    )
  })

  it("a full daily cap stops the code request with 409 tope_diario_excedido and a clear message", async () => {
    const { key: k, codigo: c } = await registerMerchant(server.url)
    await patchMerchant(c, { tope_diario: { monto: 1000, moneda: "VES" } })
    const id = await newLink({ monto: 1500 }, k)
    const page = await openPage(server.url, id)
    const reply = await page.post("/codigo", PAYER)
    expect(reply.status).toBe(409)
    expect(reply.body.error).toBe("tope_diario_excedido")
    expect(reply.body.motivo).toContain("límite diario")
    // The payer page never reveals the merchant's volume.
    expect(reply.body).not.toHaveProperty("usado")
  })

  it("a suspended merchant's pendiente link cannot start being paid", async () => {
    const { key: k, codigo: c } = await registerMerchant(server.url)
    const id = await newLink({}, k)
    expect((await patchMerchant(c, { estado: "suspendido" })).status).toBe(200)
    const page = await openPage(server.url, id)
    expect((await page.post("/codigo", PAYER)).body.error).toBe("comercio_suspendido")
    const pay = await page.post("/pagar", { ...PAYER, otp: "12345678" })
    expect(pay.status).toBe(403)
    expect(pay.body.error).toBe("comercio_suspendido")
    expect(await count("select count(*) as n from intentos_pago where link_id = $1", [id])).toBe(0)
  })

  it("5 code requests per hour per link, then 429 with the wait told to the payer", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    for (let i = 0; i < 5; i++) expect((await page.post("/codigo", PAYER)).status).toBe(200)
    const refused = await page.post("/codigo", { ...PAYER, telefono: "04241234567" })
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe("demasiadas_solicitudes")
    // The window is the clock hour: near its end the wait is told in seconds.
    expect(refused.body.detail).toMatch(/Espera \d+ (minutos?|segundos?) /)
    expect(refused.body.reintentar_en).toBeGreaterThan(0)
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.reintentar_en))
  })

  it("customers: business checkbox needs the name; never duplicated; the name never changes; test is not consent", async () => {
    const first = await openPage(server.url, await newLink())
    const noName = await first.post("/pagar", { ...PAYER, otp: "12345678", alta_cliente: true })
    expect(noName.body.detail.fieldErrors.nombre).toBeDefined()
    await first.post("/pagar", { ...PAYER, otp: "12345678", alta_cliente: true, nombre: "Ana Pérez" })
    const second = await openPage(server.url, await newLink())
    await second.post("/pagar", { ...PAYER, otp: "12345678", alta_cliente: true, nombre: "Otra Persona" })
    const list = await call(server.url, "GET", "/switch/v1/clientes", { key })
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(1)
    expect(list.body[0]).toMatchObject({ acepta_novedades: false, prueba: true, mode: "test" })
    // The API never shows a payer's name, id number or phone (SPEC); the name is kept unchanged.
    expect(Object.keys(list.body[0]).sort()).toEqual([
      "acepta_novedades",
      "created_at",
      "id",
      "mode",
      "prueba"
    ])
    expect(JSON.stringify(list.body)).not.toMatch(/Ana|Otra|12345678|4141234567/)
    const kept = await db.query("select nombre from clientes where id = $1", [list.body[0].id])
    expect(kept.rows).toEqual([{ nombre: "Ana Pérez" }])
  })

  it("a personal account's 'save my data' needs no name", async () => {
    const reg = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo: "personal-uno",
        nombre: "Luis",
        identificacion: "V-12345678",
        email: "l@example.com",
        tipo: "personal"
      }
    })
    const k = `personal-uno:${reg.body.api_key}`
    const page = await openPage(server.url, await newLink({}, k))
    expect(page.html).toContain("Guardar mis datos para pagar más rápido")
    expect((await page.post("/pagar", { ...PAYER, otp: "12345678", alta_cliente: true })).body.estado).toBe(
      "pagado"
    )
    const list = await call(server.url, "GET", "/switch/v1/clientes", { key: k })
    expect(list.body).toEqual([expect.objectContaining({ acepta_novedades: false })])
    const kept = await db.query("select nombre from clientes where id = $1", [list.body[0].id])
    expect(kept.rows).toEqual([{ nombre: null }])
  })

  it("POSTs without the page's CSRF token are refused", async () => {
    const id = await newLink()
    const reply = await call(server.url, "POST", `/l/${id}/pagar`, { body: { ...PAYER, otp: "12345678" } })
    expect(reply.status).toBe(403)
    const page = await openPage(server.url, id)
    const forged = await call(server.url, "POST", `/l/${id}/pagar`, {
      body: { ...PAYER, otp: "12345678" },
      headers: { cookie: page.cookie, "x-csrf": "x".repeat(page.csrf.length) }
    })
    expect(forged.status).toBe(403)
  })

  it("answers a body that is not JSON with 400 validation, and the link stays pendiente", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    for (const path of ["/codigo", "/pagar"]) {
      const response = await fetch(`${server.url}/l/${id}${path}`, {
        method: "POST",
        headers: { cookie: page.cookie, "x-csrf": page.csrf, "content-type": "application/json" },
        body: '{"banco": "0102", "otp": '
      })
      expect(response.status).toBe(400)
      const body = (await response.json()) as {
        error: string
        detail: { fieldErrors: Record<string, unknown> }
      }
      expect(body.error).toBe("validation")
      expect(body.detail.fieldErrors._).toEqual(["El cuerpo no es JSON válido."])
    }
    const link = await call(server.url, "GET", `/switch/v1/links/${id}`, { key })
    expect(link.body.estado).toBe("pendiente")
  })

  it("serves the page with a strict CSP, cached assets, and rejects invalid payer input", async () => {
    const id = await newLink()
    const page = await openPage(server.url, id)
    const csp = page.response.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("script-src 'self' 'sha256-")
    expect(csp).not.toContain("unsafe-inline")
    // One inline script and one inline stylesheet, each allowed by its hash, no handler attributes.
    const scripts = [...page.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "")
    const styles = [...page.html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? "")
    expect(scripts).toHaveLength(1)
    expect(styles).toHaveLength(1)
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`
    expect(csp).toContain(sha(scripts[0] ?? ""))
    expect(csp).toContain(sha(styles[0] ?? ""))
    expect(page.html).not.toMatch(/<script src|<link rel="stylesheet"|onclick=/)
    expect(page.html).toContain(codigo.length > 0 ? "Modo de prueba" : "")
    const asset = await fetch(`${server.url}${ASSETS.js}`)
    expect(asset.headers.get("cache-control")).toContain("immutable")
    const bad = await page.post("/codigo", {
      banco: "9999",
      tipo_doc: "V",
      identificacion: "x",
      telefono: "123"
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.detail.fieldErrors).sort()).toEqual(["banco", "identificacion", "telefono"])
    expect((await call(server.url, "GET", "/l/no-existe")).status).toBe(404)
  })

  it("GET /boton.js renders a pay button and uses no key; clientes is in the OpenAPI, the page is not", async () => {
    const boton = await fetch(`${server.url}/boton.js`)
    const text = await boton.text()
    expect(boton.headers.get("content-type")).toContain("javascript")
    expect(text).toContain("data-link")
    expect(text).toContain("ventana")
    expect(text).not.toMatch(/sk_(test|live)|x-switch-key/)
    const spec = await call(server.url, "GET", "/openapi.json")
    const paths = Object.keys(spec.body.paths)
    expect(paths).toContain("/switch/v1/clientes")
    expect(paths.some((p) => p.startsWith("/l/") || p === "/boton.js" || p.startsWith("/estado"))).toBe(false)
  })
})
