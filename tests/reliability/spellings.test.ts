/**
 * One answer per route, however its path is spelled (issue 41), against the built server.
 *
 * Every route of `/openapi.json` and of `/admin/v1/openapi.json`, called by every kind of caller
 * (nobody, a test key, a live key, each portal role, an OAuth token of each scope, each operator
 * role, the admin token), first as documented and then in spellings generated from it: a
 * static segment in another case, `//`, a percent-encoded unreserved character, `.` and `..`
 * segments, `;x`, a backslash, a trailing slash, the absolute-form target. Each spelling must get
 * the documented path's answer (status and error code), or 404. A new route is covered without
 * anyone editing this file. The second part sends a cajero's self-promotion, key minting and
 * webhook creation with bodies that would work, through generated spellings, and checks that
 * nothing was written.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { request as httpRequest } from "node:http"
import { FastCheck as fc } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashPassword } from "../../apps/server/src/platform/Passwords.js"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, freePort, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-grafias-1"
const SCOPES = ["links:read", "links:write", "transacciones:read", "liquidaciones:read", "bancos:read"]

let stack: Stack
let db: Pg.Client
let port = 0
let codigo = ""
const callers: Record<string, Record<string, string>> = {}
const userIds: Record<string, string> = {}

const cookieOf = (headers: Headers) => (headers.get("set-cookie") ?? "").split(";")[0] ?? ""

interface Answer {
  readonly status: number
  readonly error: string | undefined
}

/**
 * One request with `target` sent as written (node:http does not normalise it, as fetch would),
 * from an address of its own: the per-address limits then count nothing of this suite's. A
 * stream (the notices' server-sent events) is answered by its status alone.
 */
const send = (method: string, target: string, headers: Record<string, string>, body?: unknown) =>
  new Promise<Answer>((done, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path: target,
        headers: {
          ...headers,
          "x-forwarded-for": `10.${randomBytes(3).join(".")}`,
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
        }
      },
      (res) => {
        if ((res.headers["content-type"] ?? "").includes("text/event-stream")) {
          res.destroy()
          return done({ status: res.statusCode ?? 0, error: undefined })
        }
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () => {
          let error: string | undefined
          try {
            error = JSON.parse(Buffer.concat(chunks).toString("utf8"))?.error
          } catch {}
          done({ status: res.statusCode ?? 0, error: typeof error === "string" ? error : undefined })
        })
        res.on("error", fail)
      }
    )
    req.on("error", fail)
    req.end(payload)
  })

/** A documented path with its parameters filled: ids that exist nowhere, so nothing is changed. */
const concrete = (template: string) =>
  template
    .replace("{codigo}", "nadie")
    .replace("{indice}", "0")
    .replace("{flowId}", "00000000-0000-0000-0000-000000000000")
    .replace(/\{[^}]+\}/g, "00000000-0000-0000-0000-000000000000")

type Mutation =
  | { readonly kind: "case"; readonly at: number }
  | { readonly kind: "slash"; readonly at: number }
  | { readonly kind: "encode"; readonly at: number; readonly upper: boolean }
  | { readonly kind: "dot"; readonly at: number }
  | { readonly kind: "dotdot"; readonly at: number }
  | { readonly kind: "semicolon"; readonly at: number }
  | { readonly kind: "backslash"; readonly at: number }
  | { readonly kind: "trailing" }
  | { readonly kind: "absolute" }

const at = fc.nat({ max: 1000 })
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("case" as const), at }),
  fc.record({ kind: fc.constant("slash" as const), at }),
  fc.record({ kind: fc.constant("encode" as const), at, upper: fc.boolean() }),
  fc.record({ kind: fc.constant("dot" as const), at }),
  fc.record({ kind: fc.constant("dotdot" as const), at }),
  fc.record({ kind: fc.constant("semicolon" as const), at }),
  fc.record({ kind: fc.constant("backslash" as const), at }),
  fc.record({ kind: fc.constant("trailing" as const) }),
  fc.record({ kind: fc.constant("absolute" as const) })
)
const spellingOf = fc.array(mutation, { minLength: 1, maxLength: 3 })

/** `template`'s path spelled with `mutations` applied in turn. */
const spell = (template: string, mutations: ReadonlyArray<Mutation>): string => {
  const templateSegments = template.split("/").slice(1)
  let segments = concrete(template).split("/").slice(1)
  let prefix = ""
  let suffix = ""
  const pick = (n: number, length: number) => n % Math.max(length, 1)
  for (const m of mutations) {
    switch (m.kind) {
      case "case": {
        // Only the route's own words: a parameter's case is its value, not the route's.
        const statics = templateSegments.flatMap((s, i) => (s.startsWith("{") || s === "" ? [] : [i]))
        const i = statics[pick(m.at, statics.length)] ?? 0
        const word = segments[i] ?? ""
        const letters = [...word].flatMap((c, j) => (/[a-z]/i.test(c) ? [j] : []))
        if (letters.length === 0) break
        const j = letters[pick(m.at >> 3, letters.length)] ?? 0
        const c = word[j] ?? ""
        const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()
        segments[i] = word.slice(0, j) + flipped + word.slice(j + 1)
        break
      }
      case "slash": {
        const i = pick(m.at, segments.length + 1)
        segments = [...segments.slice(0, i), "", ...segments.slice(i)]
        break
      }
      case "encode": {
        const i = pick(m.at, segments.length)
        const word = segments[i] ?? ""
        const plain = [...word].flatMap((c, j) => (/[A-Za-z0-9\-._~]/.test(c) ? [j] : []))
        if (plain.length === 0) break
        const j = plain[pick(m.at >> 3, plain.length)] ?? 0
        const hex = (word.charCodeAt(j) ?? 0).toString(16).padStart(2, "0")
        segments[i] = `${word.slice(0, j)}%${m.upper ? hex.toUpperCase() : hex}${word.slice(j + 1)}`
        break
      }
      case "dot": {
        const i = pick(m.at, segments.length + 1)
        segments = [...segments.slice(0, i), ".", ...segments.slice(i)]
        break
      }
      case "dotdot": {
        const i = pick(m.at, segments.length + 1)
        segments = [...segments.slice(0, i), "x", "..", ...segments.slice(i)]
        break
      }
      case "semicolon": {
        const i = pick(m.at, segments.length)
        segments[i] = `${segments[i] ?? ""};x`
        break
      }
      case "backslash": {
        const i = pick(m.at, Math.max(segments.length - 1, 1))
        const joined = `${segments[i] ?? ""}\\${segments[i + 1] ?? ""}`
        segments = [...segments.slice(0, i), joined, ...segments.slice(i + 2)]
        break
      }
      case "trailing":
        suffix = "/"
        break
      case "absolute":
        prefix = `http://127.0.0.1:${port}`
        break
    }
  }
  return `${prefix}/${segments.join("/")}${suffix}`
}

interface Route {
  readonly method: string
  readonly template: string
}

const routesOf = async (document: string): Promise<Array<Route>> => {
  const spec = (await call(stack.url, "GET", document)).body
  return Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    ([template, methods]) => Object.keys(methods).map((m) => ({ method: m.toUpperCase(), template }))
  )
}

/** What would end the caller's own session: called last, or not at all. */
const endsSession = (r: Route) =>
  (r.method === "DELETE" && /\/sesion$/.test(r.template)) || r.template.endsWith("/sesion/cerrar-todas")

beforeAll(async () => {
  const mcpPort = await freePort()
  stack = await startStack({
    SWITCH_API_POR_MINUTO: "100000000",
    SWITCH_REGISTROS_POR_HORA: "1000000",
    SWITCH_PROXIES_CONFIABLES: "127.0.0.1",
    MCP_PORT: String(mcpPort),
    MCP_URL: `http://127.0.0.1:${mcpPort}`
  })
  port = Number(stack.env.PORT)
  db = new Pg.Client({
    connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
  })
  await db.connect()

  const merchant = await merchantWithLiveKey(stack, `grafia${Date.now().toString(36)}`)
  codigo = merchant.codigo
  callers.nadie = {}
  callers.llave_test = { "x-switch-key": merchant.testKey }
  callers.llave_live = { "x-switch-key": merchant.liveKey }
  callers.token_admin = { "x-admin-token": ADMIN_TOKEN }

  for (const rol of ["propietario", "cajero", "lectura"] as const) {
    const id = randomUUID()
    const email = `${rol}-${codigo}@grafias.example`
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, $4 from comercios where codigo = $5",
      [id, email, await hashPassword(PASSWORD), rol, codigo]
    )
    userIds[rol] = id
    const signed = await call(stack.url, "POST", "/switch/v1/sesion", { body: { email, password: PASSWORD } })
    expect(signed.status, email).toBe(200)
    callers[rol] = { cookie: cookieOf(signed.headers), "x-csrf-token": signed.body.csrf_token }
  }

  // An OAuth access token per scope, as the MCP sign-in leaves them (oauth/): a client, a grant, a token.
  await db.query(
    "insert into oauth_clientes (id, nombre, redirect_uris, origen) values ('grafias', 'Grafías', '{http://127.0.0.1/cb}', 'dcr')"
  )
  for (const scope of SCOPES) {
    const grant = randomUUID()
    const token = randomBytes(32).toString("base64url")
    await db.query(
      `insert into oauth_concesiones (id, comercio_id, usuario_id, client_id, client_nombre, redirect_host, mode, scopes, resource)
       select $1, id, $2, 'grafias', 'Grafías', '127.0.0.1', 'test', $3, $4 from comercios where codigo = $5`,
      [grant, userIds.propietario, [scope], `http://127.0.0.1:${mcpPort}/mcp`, codigo]
    )
    await db.query(
      "insert into oauth_tokens (hash, concesion_id, tipo, expires_at) values ($1, $2, 'acceso', now() + interval '1 day')",
      [createHash("sha256").update(token).digest("hex"), grant]
    )
    callers[`token_${scope}`] = { authorization: `Bearer ${token}` }
  }

  for (const rol of ["soporte", "riesgo", "tesoreria"] as const) {
    const email = `${rol}-${codigo}@operadores.example`
    const made = await call(stack.url, "POST", "/admin/v1/operadores", {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { email, password: PASSWORD, rol }
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const signed = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
      body: { email, password: PASSWORD, codigo: totpCode(made.body.totp_secret, totpStep(Date.now())) }
    })
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    callers[`operador_${rol}`] = { cookie: cookieOf(signed.headers), "x-csrf-token": signed.body.csrf_token }
  }
}, 180_000)
afterAll(async () => {
  await db?.end()
  await stack?.stop()
})

describe("every route, every caller, generated spellings", () => {
  it("each spelling gets the documented path's answer, or 404", async () => {
    const routes = [...(await routesOf("/openapi.json")), ...(await routesOf("/admin/v1/openapi.json"))]
    expect(routes.length).toBeGreaterThan(120)
    // The same spellings for every run: a failure names its route, caller and target.
    const samples = fc.sample(spellingOf, { numRuns: routes.length * 4, seed: 41 })
    const failures: Array<string> = []
    let tried = 0
    for (const [index, route] of routes.filter((r) => !endsSession(r)).entries()) {
      const canonical = concrete(route.template)
      const body = route.method === "GET" ? undefined : {}
      for (const [who, headers] of Object.entries(callers)) {
        const expected = await send(route.method, canonical, headers, body)
        for (const mutations of samples.slice(index * 4, index * 4 + 4)) {
          const target = spell(route.template, mutations)
          if (target === canonical) continue
          tried++
          const got = await send(route.method, target, headers, body)
          if (got.status === 404) continue
          if (got.status === expected.status && got.error === expected.error) continue
          // The route's own state may have moved since (a session's TOTP enrolment): ask again.
          const again = await send(route.method, canonical, headers, body)
          if (got.status === again.status && got.error === again.error) continue
          failures.push(
            `${who} ${route.method} ${target}: ${got.status} ${got.error ?? ""}, documented ${canonical}: ${expected.status} ${expected.error ?? ""}`
          )
        }
      }
    }
    expect(tried).toBeGreaterThan(routes.length * Object.keys(callers).length * 2)
    expect(failures.slice(0, 40)).toEqual([])
  })
})

describe("a cajero's own session, through generated spellings", () => {
  const written = async () => ({
    rol: (await db.query("select rol from usuarios where id = $1", [userIds.cajero])).rows[0]?.rol,
    usuarios: Number((await db.query("select count(*) from usuarios")).rows[0].count),
    llaves: Number((await db.query("select count(*) from llaves")).rows[0].count),
    webhooks: Number((await db.query("select count(*) from webhooks")).rows[0].count)
  })

  it("cannot make itself owner, invite an owner, mint a key or add a webhook; nothing is written", async () => {
    const before = await written()
    expect(before.rol).toBe("cajero")
    const attacks: ReadonlyArray<readonly [string, string, () => unknown]> = [
      ["PATCH", "/switch/v1/equipo/{id}", () => ({ rol: "propietario" })],
      ["POST", "/switch/v1/equipo", () => ({ email: `${randomUUID()}@fuera.example`, rol: "propietario" })],
      ["POST", "/switch/v1/llaves", () => ({ label: "mia", mode: "live" })],
      ["POST", "/switch/v1/llaves", () => ({ label: "mia" })],
      ["POST", "/switch/v1/webhooks", () => ({ url: "https://fuera.example/h", eventos: ["link.pagado"] })]
    ]
    const samples = fc.sample(spellingOf, { numRuns: 60, seed: 4141 })
    const reached: Array<string> = []
    for (const [method, template, body] of attacks) {
      const own = template.replace("{id}", userIds.cajero ?? "")
      // The issue's own spellings, then generated ones.
      const targets = [
        own,
        own.replace("/switch/v1/", "/switch/v1//"),
        own.replace("/switch/v1/", "/SWITCH/V1/"),
        own.replace(/\/switch\/v1\/(\w)/, (_, c: string) => `/switch/v1/%${c.charCodeAt(0).toString(16)}`),
        `http://127.0.0.1:${port}${own}`,
        ...samples.map((mutations) =>
          spell(template, mutations).replace("00000000-0000-0000-0000-000000000000", userIds.cajero ?? "")
        )
      ]
      for (const target of targets) {
        const got = await send(method, target, callers.cajero ?? {}, body())
        if (got.status < 400 || (got.status !== 404 && got.error !== "rol_no_permitido"))
          reached.push(`${method} ${target}: ${got.status} ${got.error ?? ""}`)
      }
    }
    expect(reached).toEqual([])
    expect(await written()).toEqual(before)
  })
})
