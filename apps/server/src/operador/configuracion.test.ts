import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { totpCode, totpStep } from "../platform/Totp.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de operador"

const db = async <T = any>(text: string, values: Array<unknown> = []): Promise<Array<T>> => {
  const client = new Pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Array<T>
  } finally {
    await client.end()
  }
}

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signedIn = async (rol: string): Promise<Session> => {
  const email = `op-${randomUUID().slice(0, 8)}@switch.test`
  const created = await call(server.url, "POST", "/admin/v1/operadores", {
    headers: TOKEN,
    body: { email, password: PASSWORD, rol }
  })
  expect(created.status).toBe(201)
  const reply = await call(server.url, "POST", "/admin/v1/operador/sesion", {
    body: { email, password: PASSWORD, codigo: totpCode(created.body.totp_secret, totpStep(Date.now())) }
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return { cookie: (reply.headers.get("set-cookie") ?? "").split(";")[0] ?? "", csrf: reply.body.csrf_token }
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

const auditRows = (codigo: string) =>
  db<{ accion: string; antes: any; despues: any; nota: string | null; operador_id: string }>(
    "select accion, antes, despues, nota, operador_id::text from auditoria where objeto_id = $1 and accion = 'comercio.configurar' order by id",
    [codigo]
  )

const columns = async (codigo: string) =>
  (
    await db(
      `select comision_bp, propina_max_bp, monto_min, monto_max, max_diario, tope_diario, tope_acumulado,
        split_habilitado, tarjeta_habilitada, estado from comercios where codigo = $1`,
      [codigo]
    )
  )[0]

describe("a merchant's commission, limits and pilots from the console", () => {
  it("riesgo changes them through the admin rules, and the audit row keeps before and after", async () => {
    const riesgo = await signedIn("riesgo")
    const { codigo } = await registerMerchant(server.url)
    const path = `/admin/v1/operador/comercios/${codigo}`
    const before = await as(riesgo, "GET", path)
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({ split_habilitado: false, tarjeta_habilitada: false, monto_max: null })

    const reply = await as(riesgo, "PATCH", path, {
      comision_pct: 1.75,
      propina_max_pct: 15,
      monto_min: { monto: 10, moneda: "VES" },
      monto_max: { monto: 500, moneda: "USD" },
      max_diario: { monto: 1234.56, moneda: "VES" },
      split_habilitado: true,
      tarjeta_habilitada: true,
      nota: "Acuerdo comercial de noviembre"
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({
      codigo,
      comision_pct: 1.75,
      comision_acordada: true,
      propina_max_pct: 15,
      monto_min: { monto: 10, moneda: "VES" },
      monto_max: { monto: 500, moneda: "USD" },
      max_diario: { monto: 1234.56, moneda: "VES" },
      split_habilitado: true,
      tarjeta_habilitada: true
    })
    expect(await columns(codigo)).toMatchObject({
      comision_bp: 175,
      propina_max_bp: 1500,
      monto_min: { cents: 1000, moneda: "VES" },
      monto_max: { cents: 50000, moneda: "USD" },
      max_diario: { cents: 123456, moneda: "VES" },
      split_habilitado: true,
      tarjeta_habilitada: true
    })
    // Everyone reads the new configuration.
    const soporte = await signedIn("soporte")
    expect((await as(soporte, "GET", path)).body).toMatchObject({
      comision_pct: 1.75,
      tarjeta_habilitada: true
    })

    const [row, ...more] = await auditRows(codigo)
    expect(more).toEqual([])
    expect(row?.nota).toBe("Acuerdo comercial de noviembre")
    expect(row?.antes).toMatchObject({
      comision_acordada: false,
      propina_max_pct: null,
      monto_min: null,
      monto_max: null,
      split_habilitado: false,
      tarjeta_habilitada: false
    })
    expect(row?.despues).toMatchObject({
      comision_pct: 1.75,
      comision_acordada: true,
      propina_max_pct: 15,
      monto_max: { monto: 500, moneda: "USD" },
      split_habilitado: true,
      tarjeta_habilitada: true
    })
    // Only the configuration is kept, not the whole merchant.
    expect(row?.despues).not.toHaveProperty("email")

    // The card surcharge is the merchant's own: riesgo sets it, a bad one changes nothing.
    const recargo = await as(riesgo, "PATCH", path, { recargo_tarjeta_pct: 2.5 })
    expect(recargo.status, JSON.stringify(recargo.body)).toBe(200)
    expect(recargo.body.recargo_tarjeta_pct).toBe(2.5)
    for (const bad of [101, -1, "tres", 1.234]) {
      const refused = await as(riesgo, "PATCH", path, { recargo_tarjeta_pct: bad, comision_pct: 3 })
      expect(refused.status, String(bad)).toBe(400)
    }
    expect(await columns(codigo)).toMatchObject({ comision_bp: 175 })
    const [, surcharge] = await auditRows(codigo)
    expect(surcharge?.antes).toMatchObject({ recargo_tarjeta_pct: 3 })
    expect(surcharge?.despues).toMatchObject({ recargo_tarjeta_pct: 2.5 })

    // A pilot off again and a limit cleared with null.
    const off = await as(riesgo, "PATCH", path, { tarjeta_habilitada: false, monto_max: null })
    expect(off.status).toBe(200)
    expect(off.body).toMatchObject({ tarjeta_habilitada: false, split_habilitado: true, monto_max: null })
    const rows = await auditRows(codigo)
    expect(rows).toHaveLength(3)
    expect(rows[2]?.antes).toMatchObject({
      tarjeta_habilitada: true,
      monto_max: { monto: 500, moneda: "USD" }
    })
    expect(rows[2]?.despues).toMatchObject({ tarjeta_habilitada: false, monto_max: null })
  })

  it("soporte and tesoreria are refused 403 and nothing changes", async () => {
    const { codigo } = await registerMerchant(server.url)
    const before = await columns(codigo)
    for (const rol of ["soporte", "tesoreria"]) {
      const s = await signedIn(rol)
      const reply = await as(s, "PATCH", `/admin/v1/operador/comercios/${codigo}`, {
        comision_pct: 0.5,
        tarjeta_habilitada: true
      })
      expect(reply.status).toBe(403)
      expect(reply.body.error).toBe("rol_insuficiente")
    }
    expect(await columns(codigo)).toEqual(before)
    expect(await auditRows(codigo)).toEqual([])
  })

  it("bad input is 400 and changes nothing: bad values, other fields, an empty change", async () => {
    const riesgo = await signedIn("riesgo")
    const { codigo } = await registerMerchant(server.url)
    const path = `/admin/v1/operador/comercios/${codigo}`
    const before = await columns(codigo)
    const bad: Array<unknown> = [
      { comision_pct: 101 },
      { comision_pct: -1 },
      { comision_pct: "2" },
      { comision_pct: 1.234 },
      { propina_max_pct: 1000 },
      { monto_max: { monto: 0, moneda: "VES" } },
      { monto_max: { monto: 10, moneda: "EUR" } },
      { monto_min: { monto: 100, moneda: "VES" }, monto_max: { monto: 10, moneda: "VES" } },
      { split_habilitado: "si" },
      // A valid change beside a bad one is refused whole.
      { tarjeta_habilitada: true, comision_pct: 200 },
      // Fields outside the configuration.
      { estado: "suspendido" },
      { tarjeta_habilitada: true, cuenta_liquidacion: null },
      {},
      { nota: "solo una nota" },
      null,
      [],
      "texto"
    ]
    for (const body of bad) {
      const reply = await as(riesgo, "PATCH", path, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.error).toBe("validation")
    }
    expect(await columns(codigo)).toEqual(before)
    expect(await auditRows(codigo)).toEqual([])
  })

  it("an unknown merchant is 404, no session is 401, a missing CSRF header is 403", async () => {
    const riesgo = await signedIn("riesgo")
    expect(
      (await as(riesgo, "PATCH", "/admin/v1/operador/comercios/no-existe", { comision_pct: 1 })).status
    ).toBe(404)
    const { codigo } = await registerMerchant(server.url)
    const path = `/admin/v1/operador/comercios/${codigo}`
    expect((await call(server.url, "PATCH", path, { body: { comision_pct: 1 } })).status).toBe(401)
    const noCsrf = await call(server.url, "PATCH", path, {
      body: { comision_pct: 1 },
      headers: { cookie: riesgo.cookie }
    })
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.body.error).toBe("csrf_invalido")
    expect(await auditRows(codigo)).toEqual([])
  })
})
