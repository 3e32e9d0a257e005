/**
 * Hostile JSON bodies on every route that reads one: fields named like an object's methods,
 * fields hidden under `__proto__` or `constructor.prototype`, and nesting thousands of levels
 * deep. Each is the route's `400` validation answer (`VALIDATION` on the direct API), never a
 * `500` (README: hostile input).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage } from "../../test/checkoutHarness.js"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string
let liveKey: string
let codigo: string
let linkId: string
let pageLinkId: string
let webhookId: string
let page: Awaited<ReturnType<typeof openPage>>

const ADMIN = { "x-admin-token": "admin-de-prueba" }

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000, webhookAllowPrivate: true } })
  const m = await registerMerchant(server.url)
  key = m.key
  codigo = m.codigo
  liveKey = await approveMerchant(server, codigo)
  // Payouts are refused before their body is read unless enabled.
  const enabled = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: ADMIN,
    body: { pagar_habilitado: true }
  })
  expect(enabled.status).toBe(200)
  const link = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 5, concepto: "Uno" }
  })
  linkId = link.body.id
  const forPage = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 5, concepto: "Dos" }
  })
  pageLinkId = forPage.body.id
  const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
    key: liveKey,
    body: { url: "http://127.0.0.1:9/hook", eventos: ["*"] }
  })
  expect(hook.status).toBe(201)
  webhookId = hook.body.id
  page = await openPage(server.url, pageLinkId)
})
afterAll(() => server?.close())

interface Route {
  readonly method: string
  readonly path: () => string
  readonly headers: () => Record<string, string>
  /** The route's validation code: `VALIDATION` on the direct API. */
  readonly error: string
}

type Headers = () => Record<string, string>
const testKey: Headers = () => ({ "x-switch-key": key })
const live: Headers = () => ({ "x-switch-key": liveKey })
const admin: Headers = () => ADMIN
const payerPage: Headers = () => ({ cookie: page.cookie, "x-csrf": page.csrf })
const anyone: Headers = () => ({})

const route = (
  method: string,
  path: string | (() => string),
  headers = testKey,
  error = "validation"
): Route => ({
  method,
  path: typeof path === "string" ? () => path : path,
  headers,
  error
})
const direct = (path: string) => route("POST", path, testKey, "VALIDATION")

/** Every route that reads a JSON body, with what it needs to get as far as reading it. */
const ROUTES: ReadonlyArray<Route> = [
  route("POST", "/switch/v1/comercios/registrar", anyone),
  route("POST", "/switch/v1/links"), // the lane
  route("POST", "/switch/v1/links?"), // the HttpApi handler
  route("POST", () => `/switch/v1/links/${linkId}/simular`),
  route("POST", "/switch/v1/lotes"),
  route("POST", "/switch/v1/webhooks", live),
  route("PATCH", () => `/switch/v1/webhooks/${webhookId}`, live),
  route("POST", "/switch/v1/llaves"),
  route("POST", "/switch/v1/flow/config", live),
  route("PUT", "/switch/v1/flows/definicion", live),
  direct("/switch/v1/cobrar/token"),
  direct("/switch/v1/cobrar"),
  direct("/switch/v1/pagar"),
  direct("/switch/v1/dispersiones"),
  direct("/switch/v1/consultar"),
  direct("/switch/v1/reintegro"),
  direct("/switch/v1/reverso"),
  route("POST", () => `/l/${pageLinkId}/codigo`, payerPage),
  route("POST", () => `/l/${pageLinkId}/pagar`, payerPage),
  route("PATCH", () => `/admin/v1/comercios/${codigo}`, admin),
  route("PUT", "/admin/v1/tasa-bcv", admin),
  route("POST", () => `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, admin)
]

const send = async (r: Route, body: string) => {
  const response = await fetch(`${server.url}${r.path()}`, {
    method: r.method,
    headers: { "content-type": "application/json", ...r.headers() },
    body
  })
  const text = await response.text()
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers }
}

/** A 400 in the route's validation shape: `{error, detail: {fieldErrors}}`. */
const expectValidation = (r: Route, body: string, reply: Awaited<ReturnType<typeof send>>) => {
  const what = `${r.method} ${r.path()} ${body.slice(0, 60)}`
  expect(reply.status, `${what} -> ${JSON.stringify(reply.body).slice(0, 200)}`).toBe(400)
  expect(reply.body.error, what).toBe(r.error)
  expect(typeof reply.body.detail?.fieldErrors, what).toBe("object")
}

const METHOD_NAMES = [
  "toString",
  "constructor",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
  "__proto__"
]

const PROTOTYPE_DETAIL = ["El cuerpo tiene un campo __proto__ o constructor.prototype, que no se acepta."]
const DEPTH_DETAIL = ["El cuerpo anida listas u objetos a más de 64 niveles."]

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`
const objects = (depth: number, inner = "1") => `${'{"a":'.repeat(depth)}${inner}${"}".repeat(depth)}`

describe("hostile bodies", () => {
  it("a field named like an object method is a 400, never a 500", async () => {
    for (const r of ROUTES) {
      for (const name of METHOD_NAMES) {
        for (const body of [
          `{"${name}":1}`,
          `{"${name}":{"x":1}}`,
          `{"monto":5,"concepto":"c","${name}":"x"}`
        ]) {
          expectValidation(r, body, await send(r, body))
        }
      }
    }
  }, 120_000)

  it("fields hidden under __proto__ or constructor.prototype are refused, not merged", async () => {
    const hidden = [
      '{"__proto__":{"monto":5,"concepto":"escondido"}}',
      '{"monto":5,"concepto":"c","metadata":{"__proto__":{"x":1}}}',
      '{"a":[{"b":{"__proto__":{"x":1}}}]}',
      '{"\\u005f_proto__":{"x":1}}',
      '{"constructor":{"prototype":{"monto":5}}}',
      '{"a":{"constructor":{"prototype":{"x":1}}}}'
    ]
    for (const r of ROUTES) {
      for (const body of hidden) {
        const reply = await send(r, body)
        expectValidation(r, body, reply)
        expect(reply.body.detail.fieldErrors, `${r.method} ${r.path()} ${body}`).toEqual({
          _: PROTOTYPE_DETAIL
        })
      }
    }
    // A sign-up whose every field hides under __proto__ creates nothing.
    const signup = await send(
      ROUTES[0] as Route,
      '{"__proto__":{"codigo":"escondido","nombre":"Escondido","identificacion":"J-07013380-5","email":"e@example.com"}}'
    )
    expect(signup.status).toBe(400)
    const admin = await call(server.url, "GET", "/admin/v1/comercios/escondido", { headers: ADMIN })
    expect(admin.status).toBe(404)
    // A key named constructor that holds no prototype is an ordinary unknown field.
    const plain = await send(ROUTES[1] as Route, '{"monto":5,"concepto":"c","constructor":{"x":1}}')
    expect(plain.status).toBe(400)
    expect(plain.body.detail.fieldErrors).toEqual({ constructor: ["campo no permitido"] })
  }, 120_000)

  it("nesting thousands of levels deep is a 400, never a 500", async () => {
    const deep = [
      arrays(5_000),
      objects(5_000),
      `{"monto":${objects(5_000)},"concepto":"c"}`,
      `{"monto":5,"concepto":"c","metadata":${arrays(5_000)}}`,
      `{"x":${arrays(5_000)},"concepto":"\\ud800"}`,
      `{"banco":${objects(5_000, '"\\ud800"')}}`,
      arrays(100_000)
    ]
    for (const r of ROUTES) {
      for (const body of deep) {
        const reply = await send(r, body)
        expectValidation(r, body, reply)
        expect(reply.body.detail.fieldErrors, `${r.method} ${r.path()}`).toEqual({ _: DEPTH_DETAIL })
      }
    }
  }, 120_000)

  it("nesting up to 64 levels is read as usual; the 65th level is refused", async () => {
    const links = ROUTES[1] as Route
    const at64 = await send(links, `{"monto":5,"concepto":"c","metadata":${objects(63)}}`)
    expect(at64.body.detail?.fieldErrors?._).toBeUndefined()
    const at65 = await send(links, `{"monto":5,"concepto":"c","metadata":${objects(64)}}`)
    expect(at65.status).toBe(400)
    expect(at65.body.detail.fieldErrors).toEqual({ _: DEPTH_DETAIL })
    // Brackets inside strings do not count.
    const quoted = await send(links, `{"monto":5,"concepto":"${"[{".repeat(35)}"}`)
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201)
  })
})
