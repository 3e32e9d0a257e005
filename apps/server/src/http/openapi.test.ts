import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020 } from "ajv/dist/2020.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"

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

  it("every operation has a summary in Spanish", async () => {
    const { body } = await call(server.url, "GET", "/openapi.json")
    const english = /\b(the|create|get|list|update|delete|of|with|and|returns?)\b/i
    const spanish = /\b(de|del|la|el|los|las|un|una|con|por|para|y|sin|en)\b|^\p{Lu}\p{Ll}+(ar|er|ir)\b/u
    for (const [path, methods] of Object.entries<any>(body.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const where = `${method.toUpperCase()} ${path}`
        expect(operation.summary, where).toEqual(expect.any(String))
        expect(operation.summary, where).toMatch(spanish)
        expect(operation.summary, where).not.toMatch(english)
      }
    }
  })

  it("every operation shows examples of its body, its path parameters and its answer, each valid against its schema", async () => {
    const { body: spec } = await call(server.url, "GET", "/openapi.json")
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    const valid = (schema: object, value: unknown, where: string) => {
      const check = ajv.compile({ ...schema, components: spec.components })
      expect(check(value) ? [] : check.errors, where).toEqual([])
    }
    let operations = 0
    for (const [path, methods] of Object.entries<any>(spec.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        operations++
        const where = `${method.toUpperCase()} ${path}`
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== "path") continue
          expect(parameter.example, `${where} ${parameter.name}`).toEqual(expect.any(String))
        }
        for (const [type, media] of Object.entries<any>(operation.requestBody?.content ?? {})) {
          expect(media.example, `${where} request ${type}`).toBeDefined()
          valid(media.schema, media.example, `${where} request`)
        }
        const answers = Object.entries<any>(operation.responses).filter(([, r]) => r.content !== undefined)
        const shown = answers.filter(([, r]) =>
          Object.values<any>(r.content).some((m) => m.example !== undefined)
        )
        expect(shown.length, `${where} answer example`).toBeGreaterThan(0)
        for (const [status, answer] of shown) {
          for (const media of Object.values<any>(answer.content))
            valid(media.schema, media.example, `${where} ${status}`)
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(38)
  })

  it("documents every webhook notice of SPEC's table in webhooks, with its data fields and a valid example", async () => {
    const { body: spec } = await call(server.url, "GET", "/openapi.json")
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    const fields: Record<string, ReadonlyArray<string>> = {
      "link.pagado": [
        "link_id",
        "monto",
        "propina",
        "total",
        "mode",
        "referencia",
        "txn_id",
        "codigo_verificacion",
        "pagador"
      ],
      "link.acreditado": ["monto_acreditado", "liquidacion_txn_id", "reparto", "mode"],
      "link.devuelto": ["monto", "monto_devuelto"],
      "transaccion.aprobada": ["estado", "operacion"],
      "transaccion.liquidada": ["operacion"],
      "transaccion.rechazada": ["operacion"],
      "webhook.test": ["mode"]
    }
    expect(Object.keys(spec.webhooks ?? {}).sort()).toEqual(Object.keys(fields).sort())
    for (const [evento, data] of Object.entries(fields)) {
      const post = spec.webhooks[evento].post
      expect(post.summary, evento).toEqual(expect.any(String))
      const media = post.requestBody.content["application/json"]
      const name = String(media.schema.$ref).split("/").pop() ?? ""
      const envelope = spec.components.schemas[name]
      expect(envelope.required, evento).toEqual(expect.arrayContaining(["id", "evento", "creado_en", "data"]))
      const dataName = String(envelope.properties.data.$ref).split("/").pop() ?? ""
      expect(Object.keys(spec.components.schemas[dataName].properties), evento).toEqual(
        expect.arrayContaining([...data])
      )
      const check = ajv.compile({ ...media.schema, components: spec.components })
      expect(check(media.example) ? [] : check.errors, evento).toEqual([])
      expect(media.example.evento).toBe(evento)
      const headers = post.parameters.map((p: { name: string }) => p.name)
      expect(headers).toEqual(
        expect.arrayContaining([
          "x-service-signature",
          "x-service-signature-v2",
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature"
        ])
      )
    }
  })
})
