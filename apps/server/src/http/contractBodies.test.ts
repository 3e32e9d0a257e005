/**
 * Bodies the contract decodes (`JsonBody` and a strict payload schema, http/JsonBody.ts and
 * http/ApiErrors.ts) are answered exactly as @switch/core's decoder answers them: every hostile
 * body gives the same `400 validation` detail, `null` reads as absent, and the key is checked
 * before the body is read.
 */
import { Comercios, Links } from "@switch/api"
import { Validation } from "@switch/core"
import { Either, type Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string
let linkId: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  key = (await registerMerchant(server.url)).key
  const link = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 10, concepto: "Cuerpos" }
  })
  expect(link.status).toBe(201)
  linkId = link.body.id
})
afterAll(() => server.close())

const send = (path: string, text: string, withKey = key) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-switch-key": withKey },
    body: text
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }))

/** What core's decoder answers for `text`, the way the handlers read bodies before (empty is `{}`). */
const coreAnswer = <A, I>(schema: Schema.Schema<A, I, never>, text: string) => {
  const decoded = Validation.decode(schema)(text.trim() === "" ? {} : JSON.parse(text))
  if (Either.isRight(decoded)) throw new Error(`core accepts ${text}`)
  return { error: "validation", detail: decoded.left }
}

const shared = [
  "",
  "  ",
  "{}",
  "[]",
  "null",
  '"texto"',
  "42",
  '{"otro":1,"mas":"x"}',
  '{"\\u0000":1}',
  '{"constructor":1,"toString":"x"}'
]

describe("POST /links/{id}/simular decodes SimularLink from the contract", () => {
  const path = () => `/switch/v1/links/${linkId}/simular`
  const bodies = [
    ...shared,
    '{"resultado":"otro"}',
    '{"resultado":1,"extra":true}',
    '{"resultado":"pagado","x":1}',
    '{"resultado":"pag\\u0000ado"}',
    '{"resultado":["pagado"]}'
  ]

  it.each(bodies)("%j is the core decoder's 400", async (text) => {
    const reply = await send(path(), text)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(coreAnswer(Links.SimularBody, text))
  })

  it("a body that is not JSON is SPEC's fieldErrors on _", async () => {
    const reply = await send(path(), '{"resultado":')
    expect(reply).toEqual({
      status: 400,
      body: { error: "validation", detail: { fieldErrors: { _: ["El cuerpo no es JSON válido."] } } }
    })
  })

  it("an unknown key is checked before the body, and null reads as absent", async () => {
    expect((await send(path(), "{", "x:sk_test_nadie")).status).toBe(401)
    const reply = await send(path(), '{"resultado":"rechazado","nota":null}')
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({ id: linkId, resultado: "rechazado", simulado: true })
  })
})

describe("POST /llaves decodes CrearLlave from the contract", () => {
  const bodies = [
    ...shared,
    '{"label":"   "}',
    '{"label":""}',
    `{"label":"${"x".repeat(65)}"}`,
    '{"label":"ok","mode":"prod"}',
    '{"label":7,"mode":7,"extra":7}',
    '{"label":"a\\u0000b"}'
  ]

  it.each(bodies)("%j is the core decoder's 400", async (text) => {
    const reply = await send("/switch/v1/llaves", text)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(coreAnswer(Comercios.LlaveBody, text))
  })

  it("a JSON body is read as JSON whatever its content-type says", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/octet-stream"]) {
      const reply = await fetch(`${server.url}/switch/v1/llaves`, {
        method: "POST",
        headers: { "content-type": type, "x-switch-key": key },
        body: '{"label":"Caja por tipo"}'
      })
      expect(reply.status, type).toBe(201)
      const bad = await fetch(`${server.url}/switch/v1/links/${linkId}/simular`, {
        method: "POST",
        headers: { "content-type": type, "x-switch-key": key },
        body: '{"resultado":"otro"}'
      })
      expect(await bad.json(), type).toEqual(coreAnswer(Links.SimularBody, '{"resultado":"otro"}'))
    }
  })

  it("null reads as absent", async () => {
    const reply = await send("/switch/v1/llaves", '{"label":"Caja 2","mode":null}')
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body).toMatchObject({ label: "Caja 2", mode: "test" })
  })
})
