/**
 * Answers that carry a key or a secret, shown only once, are never kept by a cache: each sends
 * `Cache-Control: no-store`. So do the portal's answers with a TOTP secret or a session's CSRF
 * token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, OWN_ACCOUNT, type Reply, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { webhookAllowPrivate: true } })
})
afterAll(() => server?.close())

const ADMIN = { "x-admin-token": "admin-de-prueba" }

const expectNoStore = (what: string, reply: Reply, field: string) => {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  expect(typeof reply.body[field], what).toBe("string")
  expect(reply.headers.get("cache-control"), what).toBe("no-store")
}

describe("answers with a key or a secret", () => {
  it("sign-up, key creation, live approval, webhook creation and a Flow binding send Cache-Control: no-store", async () => {
    const codigo = `nostore${Date.now() % 100_000}`
    const registered = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Sin caché", identificacion: "J-07013380-5", email: `${codigo}@example.com` }
    })
    expectNoStore("registrar", registered, "api_key")
    const key = `${codigo}:${registered.body.api_key}`

    const created = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label: "otra" } })
    expectNoStore("llaves", created, "api_key")

    const approved = await call(server.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      headers: ADMIN,
      body: { cuenta_liquidacion: OWN_ACCOUNT, emitir_llave: true }
    })
    expectNoStore("aprobar", approved, "api_key")
    const liveKey = `${codigo}:${approved.body.api_key}`

    const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: "http://127.0.0.1:9/hook", eventos: ["*"] }
    })
    expectNoStore("webhooks", hook, "secret")

    const flow = await call(server.url, "POST", "/switch/v1/flow/config", {
      key: liveKey,
      body: {
        cuenta: {
          tipo: "cuenta",
          valor: "01050194651194079423",
          banco: "0105",
          identificacion: "J070133805",
          tipo_doc: "J",
          nombre: "Tienda"
        },
        app_secret: "app-secret-de-meta",
        mode: "test"
      }
    })
    expectNoStore("flow/config", flow, "flow_secret")
  })
})

describe("answers with a TOTP secret or a session's CSRF token", () => {
  it("signing in, seeing the session, switching its mode and enrolling a TOTP send Cache-Control: no-store", async () => {
    const codigo = `nostoreses${Date.now() % 100_000}`
    const email = `${codigo}@example.com`
    const password = "una-clave-larga-1"
    const registered = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Sin caché", identificacion: "J-07013380-5", email, password }
    })
    expect(registered.status).toBe(201)
    const signedIn = await call(server.url, "POST", "/switch/v1/sesion", { body: { email, password } })
    expectNoStore("POST /sesion", signedIn, "csrf_token")
    const headers = {
      cookie: (signedIn.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
      "x-csrf-token": signedIn.body.csrf_token
    }
    expectNoStore(
      "GET /sesion",
      await call(server.url, "GET", "/switch/v1/sesion", { headers }),
      "csrf_token"
    )
    expectNoStore(
      "POST /sesion/modo",
      await call(server.url, "POST", "/switch/v1/sesion/modo", { headers, body: { mode: "test" } }),
      "csrf_token"
    )
    expectNoStore(
      "POST /sesion/totp",
      await call(server.url, "POST", "/switch/v1/sesion/totp", { headers }),
      "secreto"
    )
    // A refused sign-in carries nothing to keep, and is no-store as well.
    const refused = await call(server.url, "POST", "/switch/v1/sesion", {
      body: { email, password: "otra-clave-larga-1" }
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("cache-control")).toBe("no-store")
  })
})
