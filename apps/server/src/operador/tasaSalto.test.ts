/**
 * A BCV rate jump needs a second person (issue 41), against the real server: a rate further than
 * SWITCH_TASA_SALTO_MAX_PCT from the one in force, set by a `tesoreria` operator, by the admin
 * token or fetched from the source, is only proposed; nothing converts at it (dollar links keep
 * the rate in force) until a `tesoreria` operator other than its proposer confirms it. Its
 * proposer cannot; `soporte` cannot; a rejected one never applies; each step is audited and the
 * waiting jump raises one alert.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { Money } from "@switch/core"
import { Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { signInOwner } from "../../test/ownerSession.js"
import { query } from "../../test/webhooksReceiver.js"
import { excedeSalto } from "../platform/TasaBcv.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de tesoreria"
let server: TestServer
let fuente: { url: string; body: string; close: () => Promise<void> }

beforeAll(async () => {
  const http = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(fuente.body)
  })
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", () => done()))
  const address = http.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  fuente = {
    url: `http://127.0.0.1:${port}/tasa`,
    // The job's fetch at start-up records the first rate.
    body: JSON.stringify({ ves_por_usd: "36.5" }),
    close: () => new Promise((done) => http.close(() => done()))
  }
  server = await startServer({
    settings: { apiPorMinuto: 100_000, tasaFuenteUrl: fuente.url, alertasRevisarSegundos: 1 }
  })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await fuente?.close()
})

const db = <T = any>(text: string, values: Array<unknown> = []) => query<T>(server.databaseUrl, text, values)

const operator = async (rol: string) => {
  const headers = await signInOperator(server.url, rol, { password: PASSWORD, checkCreated: true })
  const me = await call(server.url, "GET", "/admin/v1/operador/sesion", { headers })
  const as = (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { headers, ...(body === undefined ? {} : { body }) })
  return Object.assign(as, { email: me.body.operador.email as string })
}

/** A merchant's owner, signed in to the portal: the one who prices links in dollars. */
const owner = async () => {
  const codigo = `u${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const headers = await signInOwner(server.url, email, PASSWORD)
  return async (monto_usd: number) => {
    const link = await call(server.url, "POST", "/switch/v1/links/dolares", {
      headers,
      body: { monto_usd, concepto: "En dólares" }
    })
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    return link.body.monto as number
  }
}

const waitFor = async <T>(read: () => Promise<T | undefined>, ms = 15_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error("timed out")
    await new Promise((done) => setTimeout(done, 200))
  }
}

const rate = (text: string) => Either.getOrThrow(Money.rate(text))

describe("the jump rule", () => {
  it("is exact at the edge: 20 % away is allowed, a hundredth past it is not, either way", () => {
    expect(excedeSalto(rate("100"), rate("120"), 20)).toBe(false)
    expect(excedeSalto(rate("100"), rate("80"), 20)).toBe(false)
    expect(excedeSalto(rate("100"), rate("120.00000001"), 20)).toBe(true)
    expect(excedeSalto(rate("100"), rate("79.99999999"), 20)).toBe(true)
    expect(excedeSalto(rate("36.5"), rate("3650"), 20)).toBe(true)
    expect(excedeSalto(rate("36.5"), rate("36.5"), 0.5)).toBe(false)
  })
})

describe("a BCV rate jump", () => {
  it("set by a tesoreria operator waits for another one; dollar links keep the rate in force meanwhile", async () => {
    const a = await operator("tesoreria")
    const b = await operator("tesoreria")
    const soporte = await operator("soporte")
    const priced = await owner()
    await waitFor(async () =>
      (await a("GET", "/admin/v1/operador/tasa-bcv")).body.vigente ? true : undefined
    )
    expect(await priced(10)).toBe(365)

    // 100 times the rate in force: proposed, not in force.
    const jump = await a("POST", "/admin/v1/operador/tasa-bcv", { ves_por_usd: "3650", nota: "BCV hoy" })
    expect(jump.status, JSON.stringify(jump.body)).toBe(202)
    expect(jump.body).toMatchObject({
      estado: "pendiente_confirmacion",
      vigente: { ves_por_usd: 36.5 },
      salto_max_pct: 20,
      pendiente: {
        ves_por_usd: 3650,
        anterior: 36.5,
        salto_pct: 9900,
        fuente: "operador",
        propuesta_por: a.email
      }
    })
    const id = jump.body.pendiente.id as number
    expect(await priced(10)).toBe(365)
    expect((await call(server.url, "GET", "/admin/v1/tasa-bcv", { headers: TOKEN })).body.ves_por_usd).toBe(
      36.5
    )

    // Not its proposer, not soporte; nothing moves.
    const self = await a("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/confirmar`, {})
    expect(self.status).toBe(403)
    expect(self.body.error).toBe("cuatro_ojos")
    const reader = await soporte("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/confirmar`, {})
    expect(reader.status).toBe(403)
    expect(reader.body.error).toBe("rol_insuficiente")
    expect(await priced(10)).toBe(365)
    // The waiting jump raises one alert.
    await waitFor(async () => {
      const alerts = (await b("GET", "/admin/v1/operador/alertas")).body.data as Array<any>
      return alerts.find((x) => x.tipo === "tasa_salto_pendiente" && x.detalle.propuesta_id === id)
    })

    const confirmed = await b("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/confirmar`, {
      nota: "Verificado en bcv.org.ve"
    })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body.vigente).toMatchObject({
      ves_por_usd: 3650,
      fuente: "operador",
      fijada_por: a.email,
      confirmada_por: b.email
    })
    expect(confirmed.body.pendiente).toBeNull()
    expect(await priced(10)).toBe(36_500)
    expect((await b("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/confirmar`, {})).body.error).toBe(
      "propuesta_resuelta"
    )
    const alerts = (await b("GET", "/admin/v1/operador/alertas")).body.data as Array<any>
    expect(alerts.filter((x) => x.tipo === "tasa_salto_pendiente")).toEqual([])

    const audit = await db<{ accion: string; actor: string; objeto_id: string; nota: string | null }>(
      "select accion, actor, objeto_id, nota from auditoria where objeto_tipo = 'tasa_bcv_propuesta' order by id"
    )
    expect(audit).toEqual([
      { accion: "tasa.proponer", actor: a.email, objeto_id: String(id), nota: "BCV hoy" },
      { accion: "tasa.confirmar", actor: b.email, objeto_id: String(id), nota: "Verificado en bcv.org.ve" }
    ])
    // Within the limit of the rate now in force: at once, as before.
    const near = await a("POST", "/admin/v1/operador/tasa-bcv", { ves_por_usd: "3700" })
    expect(near.status).toBe(201)
    expect(near.body.vigente.ves_por_usd).toBe(3700)
  })

  it("from the admin token or the source waits too; a rejected one never applies, a newer one replaces it", async () => {
    const a = await operator("tesoreria")
    const b = await operator("tesoreria")
    const priced = await owner()
    const before = (await a("GET", "/admin/v1/operador/tasa-bcv")).body.vigente.ves_por_usd as number
    const cents = await priced(1)

    const token = await call(server.url, "PUT", "/admin/v1/tasa-bcv", {
      headers: TOKEN,
      body: { ves_por_usd: before * 2 }
    })
    expect(token.status, JSON.stringify(token.body)).toBe(202)
    expect(token.body).toMatchObject({
      estado: "pendiente_confirmacion",
      propuesta: { ves_por_usd: before * 2, anterior: before, fuente: "token" },
      vigente: { ves_por_usd: before }
    })
    expect(await priced(1)).toBe(cents)

    // The source fetches another jump: it replaces the token's; the same value again keeps it.
    fuente.body = JSON.stringify({ ves_por_usd: before * 3 })
    const fetched = await a("POST", "/admin/v1/operador/tasa-bcv/fuente")
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200)
    expect(fetched.body.vigente.ves_por_usd).toBe(before)
    expect(fetched.body.pendiente).toMatchObject({ ves_por_usd: before * 3, fuente: "url" })
    const id = fetched.body.pendiente.id as number
    expect((await a("POST", "/admin/v1/operador/tasa-bcv/fuente")).body.pendiente.id).toBe(id)
    expect(
      (await db("select estado from tasas_bcv_propuestas where id = $1", [token.body.propuesta.id]))[0]
        ?.estado
    ).toBe("reemplazada")
    const alert = await waitFor(async () =>
      ((await a("GET", "/admin/v1/operador/alertas")).body.data as Array<any>).find(
        (x) => x.tipo === "tasa_salto_pendiente"
      )
    )
    expect(alert.detalle).toMatchObject({ propuesta_id: id, fuente: "url" })
    // The token's replaced proposal cannot be confirmed any more.
    expect(
      (await a("POST", `/admin/v1/operador/tasa-bcv/propuestas/${token.body.propuesta.id}/confirmar`, {}))
        .body.error
    ).toBe("propuesta_resuelta")

    const rejected = await b("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/rechazar`, {
      nota: "La fuente publicó mal"
    })
    expect(rejected.status).toBe(200)
    expect(rejected.body.pendiente).toBeNull()
    expect(rejected.body.vigente.ves_por_usd).toBe(before)
    expect(await priced(1)).toBe(cents)
    expect((await a("POST", `/admin/v1/operador/tasa-bcv/propuestas/${id}/confirmar`, {})).status).toBe(409)
    expect((await a("POST", "/admin/v1/operador/tasa-bcv/propuestas/999999/confirmar", {})).status).toBe(404)
    const audit = await db<{ accion: string; actor: string }>(
      "select accion, actor from auditoria where objeto_tipo = 'tasa_bcv_propuesta' and objeto_id = any($1) order by id",
      [[String(token.body.propuesta.id), String(id)]]
    )
    expect(audit).toEqual([
      { accion: "tasa.proponer", actor: "token_admin" },
      { accion: "tasa.rechazar", actor: b.email }
    ])
  })
})
