/**
 * `GET /switch/v1/links/{id}/historial` against the real server: made, a payment attempt, paid
 * (simulated), credited, and the notices about the link with their deliveries to a real
 * receiver; another merchant's link, the other mode's and a malformed id are 404.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, OWN_ACCOUNT, startServer, type TestServer } from "../../test/harness.js"
import { type Receiver, startReceiver } from "../../test/webhooksReceiver.js"

let server: TestServer
let db: Pg.Client
let receiver: Receiver

beforeAll(async () => {
  server = await startServer({ settings: { webhookAllowPrivate: true, apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

/** A merchant with an owner's session (cookie and CSRF token) and a test key. */
const merchant = async () => {
  const codigo = `h${randomUUID().slice(0, 8)}`
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
  return { key: `${codigo}:${made.body.api_key}`, headers }
}

const historial = (key: string, id: string) =>
  call(server.url, "GET", `/switch/v1/links/${id}/historial`, { key })

describe("a link's history", () => {
  it("lists made, an attempt, paid, credited and each notice with its deliveries, in order", async () => {
    const { key, headers } = await merchant()
    const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
      headers,
      body: { url: `${receiver.url}?historial`, eventos: ["*"] }
    })
    expect(hook.status).toBe(201)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 40, concepto: "Historia" }
    })
    const before = await historial(key, link.body.id)
    expect(before.status).toBe(200)
    expect(before.body).toEqual({
      link_id: link.body.id,
      entradas: [expect.objectContaining({ tipo: "creado", fecha: link.body.created_at, entregas: [] })]
    })

    // An attempt the payment page recorded (a rejection), then the simulated payment.
    await db.query(
      `insert into intentos_pago (id, link_id, comercio_id, mode, estado, motivo_rechazo, created_at, actualizado_at)
       select $1, id, comercio_id, mode, 'RECHAZADA', 'Fondos insuficientes', now(), now() from links where id = $2`,
      [randomUUID(), link.body.id]
    )
    const paid = await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)

    const until = Date.now() + 10_000
    let entradas: Array<any> = []
    for (;;) {
      entradas = (await historial(key, link.body.id)).body.entradas
      const avisos = entradas.filter((e) => e.tipo === "aviso")
      if (avisos.length >= 1 && avisos.every((a) => a.entregas[0]?.estado === "entregado")) break
      if (Date.now() > until) throw new Error(`sin entregas: ${JSON.stringify(entradas)}`)
      await new Promise((done) => setTimeout(done, 100))
    }
    expect(entradas.map((e) => e.tipo)).toEqual(["creado", "intento", "pagado", "aviso"])
    expect(entradas[1]).toMatchObject({ estado: "RECHAZADA", detalle: "Fondos insuficientes" })
    const avisos = entradas.filter((e) => e.tipo === "aviso")
    expect(avisos.map((a) => a.evento)).toEqual(["link.pagado"])
    const eventos = (await call(server.url, "GET", "/switch/v1/eventos?limit=10", { key })).body
    for (const aviso of avisos) {
      expect(eventos.map((e: { id: string }) => e.id)).toContain(aviso.evento_id)
      expect(aviso.entregas).toEqual([
        expect.objectContaining({
          webhook_id: hook.body.id,
          url: `${receiver.url}?historial`,
          estado: "entregado",
          intentos: 1,
          codigo_http: 200,
          error: null
        })
      ])
    }
    const fechas = entradas.map((e) => e.fecha)
    expect([...fechas].sort()).toEqual(fechas)
    // The settlement, once the bank credits the merchant (its transaction, as settlement writes it).
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, liquidada_at)
       select $1, comercio_id, mode, 'liquidacion', 'LIQUIDADA', id, 3920, now() from links where id = $2`,
      [randomUUID(), link.body.id]
    )
    entradas = (await historial(key, link.body.id)).body.entradas
    expect(entradas.map((e) => e.tipo)).toEqual(["creado", "intento", "pagado", "aviso", "acreditado"])
    expect(entradas[4]).toMatchObject({ estado: "LIQUIDADA", monto: 39.2 })
    // A portal session reads the same history.
    const bySession = await call(server.url, "GET", `/switch/v1/links/${link.body.id}/historial`, { headers })
    expect(bySession.body).toEqual({ link_id: link.body.id, entradas })
  })

  it("shows the settlement a merchant with immediate settlement gets: the credited net and both notices", async () => {
    const { key } = await merchant()
    const codigo = key.split(":")[0]
    const settle = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": "admin-de-prueba" },
      body: { liquidacion_inmediata: true, comision_pct: 2.5, cuenta_liquidacion: OWN_ACCOUNT }
    })
    expect(settle.status).toBe(200)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 200, concepto: "Neto" }
    })
    await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    const { entradas } = (await historial(key, link.body.id)).body
    expect(entradas.map((e: { tipo: string }) => e.tipo).sort()).toEqual(
      ["acreditado", "aviso", "aviso", "creado", "pagado"].sort()
    )
    // 200 − 2.5 % = 195, from the settlement transaction.
    expect(entradas.find((e: { tipo: string }) => e.tipo === "acreditado")).toMatchObject({
      estado: "LIQUIDADA",
      monto: 195
    })
    expect(
      entradas
        .filter((e: { tipo: string }) => e.tipo === "aviso")
        .map((e: { evento: string }) => e.evento)
        .sort()
    ).toEqual(["link.acreditado", "link.pagado"])
    // No webhook: each notice shows it went nowhere.
    for (const e of entradas) expect(e.entregas).toEqual([])
  })

  it("is 404 for another merchant's link, for a malformed id, and in the other mode", async () => {
    const a = await merchant()
    const b = await merchant()
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: a.key,
      body: { monto: 3, concepto: "Ajeno" }
    })
    expect((await historial(a.key, link.body.id)).status).toBe(200)
    const foreign = await historial(b.key, link.body.id)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error).toBe("not_found")
    expect((await historial(a.key, "no-es-un-id")).status).toBe(404)
    await db.query("update links set mode = 'live' where id = $1", [link.body.id])
    expect((await historial(a.key, link.body.id)).status).toBe(404)
  })
})
