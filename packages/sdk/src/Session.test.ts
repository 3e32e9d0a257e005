/** A browser's portal session against a scripted fetch: no key, the cookie by credentials, the CSRF header. */
import { describe, expect, it } from "vitest"
import { Switch } from "./Switch.js"

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const sesion = (mode: "test" | "live", csrf: string) => ({
  usuario: { id: "u1", email: "ana@example.com", rol: "propietario" },
  comercio: { codigo: "ana", nombre: "Ana", estado: "pendiente" },
  mode,
  aprobado: false,
  csrf_token: csrf,
  expira_en: "2026-11-26T05:00:00.000Z"
})

describe("Switch.sesion()", () => {
  it("sends no key, the cookie by credentials, and the CSRF token of sign-in on unsafe methods only", async () => {
    const requests: Array<{ url: string; init: RequestInit }> = []
    const answers = [
      json(200, sesion("test", "tok-1")),
      json(200, []),
      json(201, { id: "l1" }),
      json(200, sesion("live", "tok-1"))
    ]
    const sw = Switch.sesion({
      fetch: async (url, init) => {
        requests.push({ url, init })
        return answers.shift() as Response
      }
    })
    expect(sw.mode).toBe("test")
    const info = await sw.sesion.iniciar({ email: "ana@example.com", password: "una-clave-larga" })
    expect(info.usuario.rol).toBe("propietario")
    await sw.links.list()
    await sw.links.create({ monto: 10, concepto: "Prueba" })
    await sw.sesion.cambiarModo("live")
    expect(sw.mode).toBe("live")
    const headers = requests.map((r) => r.init.headers as Record<string, string>)
    expect(requests.map((r) => r.url)).toEqual([
      "/switch/v1/sesion",
      "/switch/v1/links?limit=50&offset=0",
      "/switch/v1/links",
      "/switch/v1/sesion/modo"
    ])
    for (const r of requests) expect(r.init.credentials).toBe("same-origin")
    for (const h of headers) expect(h["x-switch-key"]).toBeUndefined()
    expect(headers[0]?.["x-csrf-token"]).toBeUndefined()
    expect(headers[1]?.["x-csrf-token"]).toBeUndefined()
    expect(headers[2]?.["x-csrf-token"]).toBe("tok-1")
    expect(headers[3]?.["x-csrf-token"]).toBe("tok-1")
  })

  it("a key client is unchanged: the key, no credentials, no CSRF header", async () => {
    const requests: Array<RequestInit> = []
    const sw = new Switch({
      key: "demo:sk_live_abc",
      baseUrl: "http://api.test",
      fetch: async (_url, init) => {
        requests.push(init)
        return json(201, { id: "l1" })
      }
    })
    expect(sw.mode).toBe("live")
    await sw.links.create({ monto: 10, concepto: "Prueba" })
    const headers = requests[0]?.headers as Record<string, string>
    expect(headers["x-switch-key"]).toBe("demo:sk_live_abc")
    expect(headers["x-csrf-token"]).toBeUndefined()
    expect(requests[0]?.credentials).toBeUndefined()
  })
})
