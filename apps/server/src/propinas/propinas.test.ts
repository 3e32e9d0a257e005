/**
 * Tips chosen in the portal (issue 33) against the real server: the owner turns them on with a
 * cap, the payment page offers up to it (never over Bs 100,000) and refuses more; off, the page
 * offers none; a key is 401, another role 403, a bad cap 400.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage, PAYER } from "../../test/checkoutHarness.js"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { hashPassword } from "../platform/Passwords.js"

let server: TestServer
let db: Pg.Client
const PASSWORD = "una-clave-larga-1"

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const signIn = async (email: string) => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const body = (await reply.json()) as { csrf_token: string }
  return {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
}

const merchant = async () => {
  const codigo = `p${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  return { codigo, key: `${codigo}:${made.body.api_key}`, headers: await signIn(email) }
}

const link = async (key: string, monto: number) =>
  (await call(server.url, "POST", "/switch/v1/links", { key, body: { monto, concepto: "Propina" } })).body
    .id as string

describe("tips chosen in the portal", () => {
  it("on with a 10 % cap: the page offers up to it and refuses more; off: no tip at all", async () => {
    const m = await merchant()
    expect((await call(server.url, "GET", "/switch/v1/propinas", { headers: m.headers })).body).toEqual({
      acepta: false,
      max_pct: null,
      max_bs: 100000
    })
    const on = await call(server.url, "PUT", "/switch/v1/propinas", {
      headers: m.headers,
      body: { acepta: true, max_pct: 10 }
    })
    expect(on.status).toBe(200)
    expect(on.body).toEqual({ acepta: true, max_pct: 10, max_bs: 100000 })
    const id = await link(m.key, 200)
    const page = await openPage(server.url, id)
    expect(page.html).toContain("Propina (opcional, hasta Bs 20,00)")
    const over = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: "20,01" })
    expect(over.status).toBe(400)
    const ok = await page.post("/pagar", { ...PAYER, otp: "12345678", propina: "20,00" })
    expect(ok.body.estado).toBe("pagado")
    expect((await call(server.url, "GET", `/switch/v1/links/${id}`, { key: m.key })).body.propina).toBe(20)

    const off = await call(server.url, "PUT", "/switch/v1/propinas", {
      headers: m.headers,
      body: { acepta: false }
    })
    expect(off.body).toEqual({ acepta: false, max_pct: null, max_bs: 100000 })
    const none = await openPage(server.url, await link(m.key, 200))
    expect(none.html).not.toContain('id="propina"')
  })

  it("100 % of a Bs 150.000 charge is still at most Bs 100.000", async () => {
    const m = await merchant()
    await call(server.url, "PUT", "/switch/v1/propinas", {
      headers: m.headers,
      body: { acepta: true, max_pct: 100 }
    })
    const page = await openPage(server.url, await link(m.key, 150_000))
    expect(page.html).toContain("Propina (opcional, hasta Bs 100.000,00)")
  })

  it("a bad cap is 400; a key 401; a cajero 403; without the CSRF token 403", async () => {
    const m = await merchant()
    for (const body of [
      { acepta: true },
      { acepta: true, max_pct: 0 },
      { acepta: true, max_pct: 100.01 },
      { acepta: true, max_pct: 10.001 },
      { acepta: false, max_pct: 10 },
      { acepta: "si" }
    ]) {
      const r = await call(server.url, "PUT", "/switch/v1/propinas", { headers: m.headers, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
    }
    expect((await call(server.url, "GET", "/switch/v1/propinas", { key: m.key })).status).toBe(401)
    expect(
      (await call(server.url, "PUT", "/switch/v1/propinas", { key: m.key, body: { acepta: false } })).status
    ).toBe(401)
    const email = `cajero-${randomUUID().slice(0, 8)}@equipo.example`
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, 'cajero' from comercios where codigo = $4",
      [randomUUID(), email, await hashPassword(PASSWORD), m.codigo]
    )
    const cajero = await signIn(email)
    expect((await call(server.url, "GET", "/switch/v1/propinas", { headers: cajero })).status).toBe(200)
    const refused = await call(server.url, "PUT", "/switch/v1/propinas", {
      headers: cajero,
      body: { acepta: true, max_pct: 5 }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_no_permitido")
    const noCsrf = await call(server.url, "PUT", "/switch/v1/propinas", {
      headers: { cookie: m.headers.cookie },
      body: { acepta: true, max_pct: 5 }
    })
    expect(noCsrf.status).toBe(403)
    expect(
      (await db.query("select propina_max_bp from comercios where codigo = $1", [m.codigo])).rows[0]
        .propina_max_bp
    ).toBe(null)
  })
})
