/**
 * Links priced in dollars from the portal (issue 33) against the real server: converted at the
 * BCV rate of the moment and stored with it; the payer pays the bolivars; no rate or a stale one
 * is `503 tasa_no_disponible`; a key is `401`; `lectura` cannot create; another merchant's link is 404.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client
const PASSWORD = "una-clave-larga-1"
const ADMIN = { "x-admin-token": "admin-de-prueba" }

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000, tasaMaxHoras: 48 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const merchant = async () => {
  const codigo = `u${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
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

const setRate = async (ves: number) => {
  const r = await call(server.url, "PUT", "/admin/v1/tasa-bcv", {
    headers: ADMIN,
    body: { ves_por_usd: ves }
  })
  expect(r.status).toBe(200)
}

describe("links priced in dollars", () => {
  it("no rate, then a stale one: 503 tasa_no_disponible with the dollar limits' words; nothing made", async () => {
    const m = await merchant()
    const before = await db.query("select count(*)::int as n from links")
    const none = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers: m.headers,
      body: { monto_usd: 10, concepto: "Sin tasa" }
    })
    expect(none.status).toBe(503)
    expect(none.body.error).toBe("tasa_no_disponible")
    expect(none.body.motivo).toContain("tasa oficial del BCV")
    await setRate(36.5012)
    await db.query("update tasas_bcv set created_at = now() - interval '49 hours'")
    const stale = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers: m.headers,
      body: { monto_usd: 10, concepto: "Tasa vieja" }
    })
    expect(stale.status).toBe(503)
    expect(stale.body.error).toBe("tasa_no_disponible")
    expect((await db.query("select count(*)::int as n from links")).rows[0].n).toBe(before.rows[0].n)
  })

  it("US$ 10 at Bs 36,5012 is a link of Bs 365,01 (half-up), with the price and rate stored and shown", async () => {
    const m = await merchant()
    await setRate(36.5012)
    const made = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers: m.headers,
      body: { monto_usd: 10, concepto: "Torta", idempotency_key: "usd-1" }
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ monto: 365.01, moneda: "VES", total: 365.01, origen: "panel" })
    const shown = await call(server.url, "GET", `/switch/v1/links/${made.body.id}/dolares`, {
      headers: m.headers
    })
    expect(shown.body).toEqual({ link_id: made.body.id, monto_usd: 10, tasa_bcv: 36.5012, monto: 365.01 })
    // A new rate later changes neither the link nor its stored rate; a replay keeps them.
    await setRate(40)
    const replay = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers: m.headers,
      body: { monto_usd: 10, concepto: "Torta", idempotency_key: "usd-1" }
    })
    expect(replay.status).toBe(200)
    expect(replay.body.monto).toBe(365.01)
    expect(
      (await call(server.url, "GET", `/switch/v1/links/${made.body.id}/dolares`, { headers: m.headers })).body
    ).toEqual({ link_id: made.body.id, monto_usd: 10, tasa_bcv: 36.5012, monto: 365.01 })
    // The payer pays the bolivars (simulated in test mode): link.pagado's monto is Bs.
    const paid = await call(server.url, "POST", `/switch/v1/links/${made.body.id}/simular`, {
      key: m.key,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
    const [evento] = (
      await db.query("select data from eventos where evento = 'link.pagado' and data->>'link_id' = $1", [
        made.body.id
      ])
    ).rows
    expect(evento.data.monto).toBe(365.01)
    // A link made in bolivars has no dollar price.
    const ves = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 5, concepto: "Bs" }
    })
    expect(
      (await call(server.url, "GET", `/switch/v1/links/${ves.body.id}/dolares`, { headers: m.headers })).body
    ).toEqual({ link_id: ves.body.id, monto_usd: null, tasa_bcv: null, monto: 5 })
  })

  it("validation, a key, lectura, another merchant", async () => {
    const m = await merchant()
    await setRate(36.5)
    for (const body of [
      { concepto: "x" },
      { monto_usd: -1, concepto: "x" },
      { monto_usd: 1.001, concepto: "x" },
      { monto_usd: "10", concepto: "x" },
      { monto_usd: 10, monto: 5, concepto: "x" },
      { monto_usd: 10, concepto: "x", extra: 1 }
    ]) {
      const r = await call(server.url, "POST", "/switch/v1/links/dolares", { headers: m.headers, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error).toBe("validation")
    }
    const withKey = await call(server.url, "POST", "/switch/v1/links/dolares", {
      key: m.key,
      body: { monto_usd: 1, concepto: "x" }
    })
    expect(withKey.status).toBe(401)
    const lectura = `lectura-${randomUUID().slice(0, 8)}@equipo.example`
    const { hashPassword } = await import("../platform/Passwords.js")
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, 'lectura' from comercios where codigo = $4",
      [randomUUID(), lectura, await hashPassword(PASSWORD), m.codigo]
    )
    const reply = await fetch(`${server.url}/switch/v1/sesion`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: lectura, password: PASSWORD })
    })
    const csrf = ((await reply.json()) as { csrf_token: string }).csrf_token
    const headers = {
      cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
      "x-csrf-token": csrf
    }
    const refused = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers,
      body: { monto_usd: 1, concepto: "x" }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_no_permitido")
    const mine = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers: m.headers,
      body: { monto_usd: 1, concepto: "x" }
    })
    const other = await merchant()
    expect(
      (await call(server.url, "GET", `/switch/v1/links/${mine.body.id}/dolares`, { headers: other.headers }))
        .status
    ).toBe(404)
  })
})
