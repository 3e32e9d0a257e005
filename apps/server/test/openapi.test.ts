import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "./harness.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe("the published contract", () => {
  it("GET /openapi.json is a valid OpenAPI 3.1.0 document, version 0.1.0, with the x-switch-key scheme", async () => {
    const { status, body } = await call(server.url, "GET", "/openapi.json")
    expect(status).toBe(200)
    expect(body.openapi).toBe("3.1.0")
    expect(body.info.version).toBe("0.1.0")
    const result = await new Validator().validate(body)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(Object.values(body.components.securitySchemes)).toContainEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "x-switch-key" })
    )
  })

  it("lists every public route and no admin or internal one", async () => {
    const { body } = await call(server.url, "GET", "/openapi.json")
    const paths = Object.keys(body.paths)
    for (const path of [
      "/switch/v1/links",
      "/switch/v1/links/{id}",
      "/switch/v1/links/{id}/cancelar",
      "/switch/v1/links/{id}/simular",
      "/switch/v1/lotes",
      "/switch/v1/lotes/{id}",
      "/switch/v1/lotes/{id}/cancelar",
      "/switch/v1/verificar/{codigo}",
      "/switch/v1/transacciones",
      "/switch/v1/comercios/registrar",
      "/switch/v1/llaves",
      "/switch/v1/llaves/{id}/revocar",
      "/switch/v1/config"
    ]) {
      expect(paths).toContain(path)
    }
    for (const internal of ["/admin", "/switch/v1/bancos", "/switch/v1/saldo", "/switch/v1/conciliar"]) {
      expect(paths.some((p) => p.startsWith(internal))).toBe(false)
    }
  })

  it("documents the answers SPEC gives: create's 200 replay, config's 503 and always-403 PUT, Flows' 421 and 432", async () => {
    const { body } = await call(server.url, "GET", "/openapi.json")
    const codes = (path: string, method: string) => Object.keys(body.paths[path][method].responses).sort()
    expect(codes("/switch/v1/links", "post")).toEqual(
      expect.arrayContaining(["200", "201", "409", "422", "503"])
    )
    expect(codes("/switch/v1/config", "get")).toContain("503")
    expect(codes("/switch/v1/config", "put")).toContain("403")
    expect(codes("/switch/v1/config", "put").some((code) => code.startsWith("2"))).toBe(false)
    expect(codes("/switch/v1/flows/cobro/{flowId}", "post")).toEqual(
      expect.arrayContaining(["200", "400", "421", "432"])
    )
  })

  it("serves the interactive reference at /docs", async () => {
    const response = await fetch(`${server.url}/docs`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/html")
  })

  it("answers unknown routes with 404 not_found and tags every response with a request id", async () => {
    const reply = await call(server.url, "GET", "/switch/v1/no-existe")
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ error: "not_found" })
    expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })
})
