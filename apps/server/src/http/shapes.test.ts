/**
 * SPEC's answer shapes where the framework or a shortcut used to answer otherwise: repeated
 * query parameters, bodies that are not JSON, `expira_horas` beside `expira_en`, and the
 * public status routes under the API prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  key = (await registerMerchant(server.url)).key
})
afterAll(() => server.close())

const raw = (path: string, body: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-switch-key": key },
    body
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

describe("answer shapes", () => {
  it("a repeated list filter is 400 validation naming the parameter, never the framework's error", async () => {
    for (const path of [
      "/switch/v1/links?estado=pagado&estado=cancelado",
      "/switch/v1/links?limit=1&limit=2",
      "/switch/v1/lotes?offset=1&offset=2",
      "/switch/v1/transacciones?limit=1&limit=2"
    ]) {
      const reply = await call(server.url, "GET", path, { key })
      expect(reply.status, path).toBe(400)
      expect(reply.body.error, path).toBe("validation")
      expect(typeof reply.body.detail, path).toBe("string")
      expect(typeof reply.body.parametro, path).toBe("string")
      expect(JSON.stringify(reply.body), path).not.toContain("HttpApiDecodeError")
    }
  })

  it("a body that is not JSON is a validation error whose detail has fieldErrors", async () => {
    const links = await raw("/switch/v1/links", '{"monto":')
    expect(links.status).toBe(400)
    expect(links.body).toEqual({
      error: "validation",
      detail: { fieldErrors: { _: ["El cuerpo no es JSON válido."] } }
    })
    const direct = await raw("/switch/v1/cobrar/token", "{")
    expect(direct.status).toBe(400)
    expect(direct.body.error).toBe("VALIDATION")
    expect(direct.body.detail.fieldErrors._).toHaveLength(1)
  })

  it("expira_horas is ignored, not checked, when expira_en is sent", async () => {
    const expiraEn = new Date(Date.now() + 3 * 3_600_000).toISOString()
    for (const horas of [0, 9999, "x"]) {
      const reply = await call(server.url, "POST", "/switch/v1/links", {
        key,
        body: { monto: 5, concepto: "Con fecha", expira_horas: horas, expira_en: expiraEn }
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(new Date(reply.body.expires_at).getTime()).toBe(new Date(expiraEn).getTime())
    }
    const alone = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 5, concepto: "Sin fecha", expira_horas: 0 }
    })
    expect(alone.status).toBe(400)
  })

  it("the status routes answer at the root and under /switch/v1, without a key", async () => {
    const root = await call(server.url, "GET", "/estado.json")
    const prefixed = await call(server.url, "GET", "/switch/v1/estado.json")
    expect(prefixed.status).toBe(200)
    expect(Object.keys(prefixed.body).sort()).toEqual(Object.keys(root.body).sort())
    const page = await fetch(`${server.url}/switch/v1/estado`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
  })
})
