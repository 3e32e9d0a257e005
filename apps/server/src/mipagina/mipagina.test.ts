/**
 * The merchant's own payment page against the real server: the owner's settings
 * (`/switch/v1/mi-pagina`, a session only), the public page `/p/<codigo>` (404 when off or
 * unknown, the form, its CSRF, the payer's amount checked against the minimum and maximum), the
 * link it makes (`origen` `mi_pagina`, in the page's mode, paid on its own page), the creation
 * limits per client address and per merchant, and the QR.
 */
import { randomUUID } from "node:crypto"
import { MiPagina } from "@switch/core"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage, PAYER } from "../../test/checkoutHarness.js"
import { call, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  // Behind a trusted proxy (this machine), so each test pays from its own client address.
  server = await startServer({ settings: { proxiesConfiables: ["127.0.0.1"] } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

/** A merchant with an owner's session (cookie and CSRF token) and a test key. */
const merchant = async () => {
  const codigo = `p${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Tienda ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const body = (await reply.json()) as { csrf_token: string }
  const headers = {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
  return { codigo, key: `${codigo}:${made.body.api_key}`, headers }
}

const ON = { activa: true, monto_min: 10, monto_max: 5000, concepto_permitido: true }

/** A browser's visit to the page: its cookie and the form's token. */
const visit = async (codigo: string, ip: string) => {
  const response = await fetch(`${server.url}/p/${codigo}`, { headers: { "x-forwarded-for": ip } })
  const html = await response.text()
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ""
  const submit = (fields: Record<string, string>, token = csrf, from = ip) =>
    fetch(`${server.url}/p/${codigo}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": from },
      body: new URLSearchParams({ csrf: token, ...fields }).toString()
    })
  return { response, html, submit }
}

const linkOf = async (id: string) =>
  (
    await db.query("select origen, monto::int as monto, concepto, mode, estado from links where id = $1", [
      id
    ])
  ).rows[0]

let ipSeq = 0
/**
 * Windows are fixed and aligned to the epoch: a test counting in one waits out the last
 * seconds of the current one, so its requests never straddle two.
 */
const awayFromWindowEdge = async (windowSeconds: number) => {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000))
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`

describe("mi página: the owner's settings", () => {
  it("start off with the initial amounts; a session reads and saves them, a key is 401", async () => {
    const { codigo, key, headers } = await merchant()
    const first = await call(server.url, "GET", "/switch/v1/mi-pagina", { headers })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      activa: false,
      monto_min: 1,
      monto_max: 10000,
      concepto_permitido: false,
      mode: "test",
      url: `${server.settings.baseUrl}/p/${codigo}`,
      qr_png: `${server.settings.baseUrl}/p/${codigo}/qr.png`,
      updated_at: null
    })
    expect((await call(server.url, "GET", "/switch/v1/mi-pagina", { key })).status).toBe(401)
    expect((await call(server.url, "PUT", "/switch/v1/mi-pagina", { key, body: ON })).status).toBe(401)

    const bad = await call(server.url, "PUT", "/switch/v1/mi-pagina", {
      headers,
      body: { ...ON, monto_min: 50, monto_max: 20 }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.fieldErrors.monto_max).toEqual(["debe ser mayor o igual que monto_min"])
    const noCsrf = await call(server.url, "PUT", "/switch/v1/mi-pagina", {
      headers: { cookie: headers.cookie },
      body: ON
    })
    expect(noCsrf.status).toBe(403)

    const saved = await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ ...ON, mode: "test" })
    expect(typeof saved.body.updated_at).toBe("string")
    expect((await call(server.url, "GET", "/switch/v1/mi-pagina", { headers })).body).toEqual(saved.body)
    // The change is in the owner's audit log.
    const log = await call(server.url, "GET", "/switch/v1/actividad", { headers })
    expect(log.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accion: "PUT", objeto: "/switch/v1/mi-pagina", resultado: 200 })
      ])
    )
  })
})

describe("mi página: the public page", () => {
  it("is a 404 page when off or unknown, and the form with the checkout's CSP when on", async () => {
    const { codigo, headers } = await merchant()
    const off = await fetch(`${server.url}/p/${codigo}`)
    expect(off.status).toBe(404)
    expect(await off.text()).toContain("no existe o no está activa")
    expect((await fetch(`${server.url}/p/nadie-aqui`)).status).toBe(404)
    expect((await fetch(`${server.url}/p/%3Cscript%3E`)).status).toBe(404)
    const offPost = await visit(codigo, freshIp())
    expect((await offPost.submit({ monto: "20" })).status).toBe(404)

    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    const { response, html } = await visit(codigo, freshIp())
    expect(response.status).toBe(200)
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(response.headers.get("content-security-policy")).toContain("form-action 'self'")
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/)
    expect(html).toContain(`<h1>Pagar a Tienda ${codigo}</h1>`)
    expect(html).toContain('<label for="monto">')
    expect(html).toContain('<label for="concepto">')
    expect(html).toContain("Entre Bs 10,00 y Bs 5.000,00.")
    expect(html).toContain("Modo de prueba")
    expect(html).not.toMatch(/sk_(test|live)_/)
    expect(html).not.toContain("<script")

    // Turned off again: 404 at once.
    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: { ...ON, activa: false } })
    expect((await fetch(`${server.url}/p/${codigo}`)).status).toBe(404)
  })

  it("makes a link with origen mi_pagina from the payer's amount and concept, paid on its own page", async () => {
    const { codigo, key, headers } = await merchant()
    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    const page = await visit(codigo, freshIp())
    const made = await page.submit({ monto: "1.234,56", concepto: "  Pedido\u0000 42  " })
    expect(made.status).toBe(303)
    const location = made.headers.get("location") ?? ""
    expect(location).toMatch(/^\/l\/[0-9a-f-]{36}$/)
    const id = location.slice(3)
    expect(await linkOf(id)).toEqual({
      origen: "mi_pagina",
      monto: 123456,
      concepto: "Pedido 42",
      mode: "test",
      estado: "pendiente"
    })

    const checkout = await openPage(server.url, id)
    expect(checkout.response.status).toBe(200)
    expect(checkout.html).toContain("Bs 1.234,56")
    const paid = await checkout.post("/pagar", { ...PAYER, otp: "12345678" })
    expect(paid.status).toBe(200)
    const listed = await call(server.url, "GET", "/switch/v1/links?origen=mi_pagina", { key })
    expect(listed.body.map((l: { id: string }) => l.id)).toEqual([id])
    expect(listed.body[0]).toMatchObject({ estado: "pagado", origen: "mi_pagina", monto: 1234.56 })
    expect((await call(server.url, "GET", "/switch/v1/links?origen=api", { key })).body).toEqual([])
  })

  it("refuses an amount out of range or malformed, a concept when not allowed is ignored, and a missing token", async () => {
    const { codigo, headers } = await merchant()
    await call(server.url, "PUT", "/switch/v1/mi-pagina", {
      headers,
      body: { ...ON, concepto_permitido: false }
    })
    const page = await visit(codigo, freshIp())
    expect(page.html).not.toContain('id="concepto"')
    const before = Number((await db.query("select count(*) as n from links")).rows[0].n)

    for (const [monto, message] of [
      ["9,99", "El monto mínimo es Bs 10,00."],
      ["5.000,01", "El monto máximo es Bs 5.000,00."],
      ["", "Escribe el monto a pagar."],
      ["diez", "Escribe el monto en bolívares, por ejemplo 1.234,56."]
    ] as const) {
      const refused = await page.submit({ monto })
      expect(refused.status, monto).toBe(400)
      const html = await refused.text()
      expect(html).toContain(message)
      expect(html).toContain('aria-invalid="true"')
      expect(html).toContain('role="alert"')
    }
    const forged = await page.submit({ monto: "20" }, "falso")
    expect(forged.status).toBe(403)
    const noCookie = await fetch(`${server.url}/p/${codigo}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ monto: "20", csrf: "x" }).toString()
    })
    expect(noCookie.status).toBe(403)
    expect(Number((await db.query("select count(*) as n from links")).rows[0].n)).toBe(before)

    const ok = await page.submit({ monto: "10", concepto: "no permitido" })
    expect(ok.status).toBe(303)
    const link = await linkOf((ok.headers.get("location") ?? "").slice(3))
    expect(link).toMatchObject({ origen: "mi_pagina", monto: 1000, concepto: `Pago a Tienda ${codigo}` })
  })

  it("limits creation per client address and per merchant, with Retry-After", async () => {
    const { codigo, headers } = await merchant()
    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    await awayFromWindowEdge(MiPagina.CREAR_POR_COMERCIO.windowSeconds)
    const ip = freshIp()
    const page = await visit(codigo, ip)
    for (let i = 0; i < MiPagina.CREAR_POR_IP.limit; i++)
      expect((await page.submit({ monto: "20" })).status).toBe(303)
    const refused = await page.submit({ monto: "20" })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await refused.text()).toContain("Se hicieron demasiados intentos")
    // Another address still gets its link.
    expect((await (await visit(codigo, freshIp())).submit({ monto: "20" })).status).toBe(303)

    // Many addresses asking for one merchant: past its limit in the window, every address is refused.
    const comercioId = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
    const count = async () =>
      Number(
        (await db.query("select count(*) as n from links where comercio_id = $1", [comercioId])).rows[0].n
      )
    const perIp = MiPagina.CREAR_POR_IP.limit
    while ((await count()) < MiPagina.CREAR_POR_COMERCIO.limit) {
      const other = await visit(codigo, freshIp())
      const left = MiPagina.CREAR_POR_COMERCIO.limit - (await count())
      const replies = await Promise.all(
        Array.from({ length: Math.min(perIp, left) }, () => other.submit({ monto: "20" }))
      )
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 303))
    }
    const full = await (await visit(codigo, freshIp())).submit({ monto: "20" })
    expect(full.status).toBe(429)
    expect(await count()).toBe(MiPagina.CREAR_POR_COMERCIO.limit)
  })

  it("a burst of 480 at once admits exactly the merchant's limit, and the page reopens within minutes", async () => {
    const { codigo, headers } = await merchant()
    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    const comercioId = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
    const page = await visit(codigo, freshIp())
    await awayFromWindowEdge(MiPagina.CREAR_POR_COMERCIO.windowSeconds)
    // One address per request, so only the merchant's limit bites (the form's token is the cookie's).
    const replies = await Promise.all(
      Array.from({ length: 480 }, async () => {
        const reply = await page.submit({ monto: "20" }, undefined, freshIp())
        await reply.arrayBuffer()
        return reply
      })
    )
    const made = Number(
      (await db.query("select count(*) as n from links where comercio_id = $1", [comercioId])).rows[0].n
    )
    expect(made).toBe(MiPagina.CREAR_POR_COMERCIO.limit)
    expect(replies.filter((r) => r.status === 303)).toHaveLength(MiPagina.CREAR_POR_COMERCIO.limit)
    expect(replies.filter((r) => r.status === 429)).toHaveLength(480 - MiPagina.CREAR_POR_COMERCIO.limit)
    // The next payer waits for the merchant's short window, not for an hour.
    const next = await (await visit(codigo, freshIp())).submit({ monto: "20" })
    expect(next.status).toBe(429)
    const wait = Number(next.headers.get("retry-after"))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(MiPagina.CREAR_POR_COMERCIO.windowSeconds)
    expect(wait).toBeLessThanOrEqual(300)
  })

  it("serves the page's QR as a PNG, on or off, and 404 for an unknown code", async () => {
    const { codigo } = await merchant()
    const qr = await fetch(`${server.url}/p/${codigo}/qr.png`)
    expect(qr.status).toBe(200)
    expect(qr.headers.get("content-type")).toBe("image/png")
    const bytes = new Uint8Array(await qr.arrayBuffer())
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect((await fetch(`${server.url}/p/nadie-aqui/qr.png`)).status).toBe(404)
  })

  it("a suspended merchant's page is a 404", async () => {
    const { codigo, headers } = await merchant()
    await call(server.url, "PUT", "/switch/v1/mi-pagina", { headers, body: ON })
    await db.query("update comercios set estado = 'suspendido' where codigo = $1", [codigo])
    expect((await fetch(`${server.url}/p/${codigo}`)).status).toBe(404)
  })
})
