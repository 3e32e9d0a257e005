/**
 * The OAuth authorization server (issue 34) against the real server and Postgres: metadata,
 * registration (DCR) and metadata documents (CIMD), the consent API for a signed-in user, PKCE,
 * `iss`, `resource`, tokens and what they reach, rotation with reuse detection, revocation;
 * issue 47: a reused code revokes its tokens, no parameter twice, `invalid_scope` on a wider
 * refresh, native apps' redirects (private-use schemes, loopback on any port), a key as a bearer.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import { OAuth } from "@switch/api"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, startServer, type TestServer } from "../../test/harness.js"
import { hashPassword } from "../platform/Passwords.js"

const MCP = "http://mcp.test/mcp"
let server: TestServer
let db: Pg.Client
let docs: Server
let docsUrl = ""
const documents = new Map<string, unknown>()

beforeAll(async () => {
  server = await startServer({ settings: { webhookAllowPrivate: true, apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  docs = createServer((req, res) => {
    const doc = documents.get(req.url ?? "")
    res.writeHead(doc === undefined ? 404 : 200, { "content-type": "application/json" })
    res.end(JSON.stringify(doc ?? {}))
  })
  await new Promise<void>((done) => docs.listen(0, "127.0.0.1", done))
  const address = docs.address()
  docsUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
})
afterAll(async () => {
  await db?.end()
  await server?.close()
  await new Promise((done) => docs?.close(done))
})

const PASSWORD = "una-clave-larga-1"
interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signUp = async () => {
  const codigo = `o${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return { codigo, email, key: `${codigo}:${reply.body.api_key}` }
}

const session = async (email: string): Promise<Session> => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  expect(reply.status).toBe(200)
  const body = (await reply.json()) as { csrf_token: string }
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: body.csrf_token }
}

const addUser = async (codigo: string, rol: "cajero" | "lectura") => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@equipo.example`
  await db.query(
    `insert into usuarios (id, comercio_id, email, hash, rol)
     select $1, id, $2, $3, $4 from comercios where codigo = $5`,
    [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
  )
  return email
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

const form = async (path: string, params: Record<string, string>) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString()
  })
  return { status: response.status, body: (await response.json()) as any, headers: response.headers }
}

const REDIRECT = "http://127.0.0.1:7777/callback"

const registerClient = async (redirect = REDIRECT) => {
  const reply = await call(server.url, "POST", "/oauth/register", {
    body: {
      client_name: "Asistente de prueba",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none"
    }
  })
  expect(reply.status).toBe(201)
  return reply.body.client_id as string
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

const authorizeQuery = (clientId: string, challenge: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "estado-123",
    resource: MCP,
    scope: OAuth.SCOPES.join(" "),
    ...extra
  }).toString()

/** The whole flow for a signed-in user: tokens of a grant of `scopes` in `mode`. */
const grant = async (
  s: Session,
  options: { scopes?: ReadonlyArray<string>; mode?: "test" | "live"; clientId?: string } = {}
) => {
  const clientId = options.clientId ?? (await registerClient())
  const { verifier, challenge } = pkce()
  const query = authorizeQuery(clientId, challenge)
  const consent = await as(s, "POST", "/oauth/consentimiento", {
    solicitud: query,
    aprobar: true,
    mode: options.mode ?? "test",
    scopes: options.scopes ?? OAuth.SCOPES
  })
  expect(consent.status, JSON.stringify(consent.body)).toBe(200)
  const back = new URL(consent.body.redirect_to)
  const tokens = await form("/oauth/token", {
    grant_type: "authorization_code",
    code: back.searchParams.get("code") ?? "",
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    resource: MCP
  })
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
  return { clientId, ...(tokens.body as { access_token: string; refresh_token: string; scope: string }) }
}

const bearer = (token: string, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { authorization: `Bearer ${token}` } })

describe("metadata and registration", () => {
  it("publishes RFC 8414 metadata: S256 only, iss in the response, CIMD and DCR", async () => {
    const reply = await call(server.url, "GET", "/.well-known/oauth-authorization-server")
    expect(reply.status).toBe(200)
    expect(reply.body.issuer).toBe(server.settings.baseUrl)
    expect(reply.body.code_challenge_methods_supported).toEqual(["S256"])
    expect(reply.body.authorization_response_iss_parameter_supported).toBe(true)
    expect(reply.body.client_id_metadata_document_supported).toBe(true)
    expect(reply.body.registration_endpoint).toBe(`${server.settings.baseUrl}/oauth/register`)
    expect(reply.body.scopes_supported).toEqual([...OAuth.SCOPES])
    expect(reply.headers.get("access-control-allow-origin")).toBe("*")
    // Browser-based clients: the token endpoint's preflight.
    const preflight = await fetch(`${server.url}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://chat.example", "access-control-request-method": "POST" }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST")
  })

  it("limits registrations per address", async () => {
    const limited = await startServer({ settings: { registrosPorHora: 2 } })
    try {
      const register = () =>
        call(limited.url, "POST", "/oauth/register", { body: { redirect_uris: [REDIRECT] } })
      expect((await register()).status).toBe(201)
      expect((await register()).status).toBe(201)
      const third = await register()
      expect(third.status).toBe(429)
      expect(third.headers.get("retry-after")).not.toBeNull()
    } finally {
      await limited.close()
    }
  })

  it("registers public clients with https or loopback redirect URIs only", async () => {
    expect((await registerClient("https://asistente.example/cb")).startsWith("cli_")).toBe(true)
    for (const bad of ["http://asistente.example/cb", "https://a.example/cb#x", "javascript:alert(1)"]) {
      const reply = await call(server.url, "POST", "/oauth/register", { body: { redirect_uris: [bad] } })
      expect(reply.status, bad).toBe(400)
      expect(reply.body.error).toBe("invalid_redirect_uri")
    }
    const secret = await call(server.url, "POST", "/oauth/register", {
      body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" }
    })
    expect(secret.body.error).toBe("invalid_client_metadata")
  })
})

describe("authorization", () => {
  it("sends a valid request to the portal's consent screen, and errors back with state and iss", async () => {
    const clientId = await registerClient()
    const { challenge } = pkce()
    const ok = await fetch(`${server.url}/oauth/authorize?${authorizeQuery(clientId, challenge)}`, {
      redirect: "manual"
    })
    expect(ok.status).toBe(302)
    expect(ok.headers.get("location")).toMatch(/^\/panel\/oauth\/autorizar\?/)

    const wrongResource = await fetch(
      `${server.url}/oauth/authorize?${authorizeQuery(clientId, challenge, { resource: "https://otro.example/mcp" })}`,
      { redirect: "manual" }
    )
    const back = new URL(wrongResource.headers.get("location") ?? "")
    expect(back.searchParams.get("error")).toBe("invalid_target")
    expect(back.searchParams.get("state")).toBe("estado-123")
    expect(back.searchParams.get("iss")).toBe(server.settings.baseUrl)

    const plain = await fetch(
      `${server.url}/oauth/authorize?${authorizeQuery(clientId, challenge, { code_challenge_method: "plain" })}`,
      { redirect: "manual" }
    )
    expect(new URL(plain.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_request")

    const otherRedirect = await fetch(
      `${server.url}/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: "https://evil.example/cb" })}`,
      { redirect: "manual" }
    )
    expect(otherRedirect.status).toBe(400)
  })

  it("shows the signed-in user what is asked, with live only for an owner who may", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const clientId = await registerClient()
    const query = authorizeQuery(clientId, pkce().challenge)
    const anonymous = await call(server.url, "GET", `/oauth/consentimiento?${query}`)
    expect(anonymous.status).toBe(401)
    const reply = await as(owner, "GET", `/oauth/consentimiento?${query}`)
    expect(reply.status).toBe(200)
    expect(reply.body.cliente).toMatchObject({
      nombre: "Asistente de prueba",
      redirect_host: "127.0.0.1:7777"
    })
    expect(reply.body.modos).toEqual(["test"])
    const live = await as(owner, "POST", "/oauth/consentimiento", {
      solicitud: query,
      aprobar: true,
      mode: "live"
    })
    expect(live.status).toBe(403)

    const reader = await session(await addUser(m.codigo, "lectura"))
    const asked = await as(reader, "GET", `/oauth/consentimiento?${query}`)
    expect(asked.body.alcances.find((a: any) => a.alcance === "links:write").permitido).toBe(false)
    const write = await as(reader, "POST", "/oauth/consentimiento", {
      solicitud: query,
      aprobar: true,
      mode: "test",
      scopes: ["links:write"]
    })
    expect(write.status).toBe(403)

    const noCsrf = await call(server.url, "POST", "/oauth/consentimiento", {
      body: { solicitud: query, aprobar: true, mode: "test" },
      headers: { cookie: owner.cookie }
    })
    expect(noCsrf.status).toBe(403)

    const denied = await as(owner, "POST", "/oauth/consentimiento", { solicitud: query, aprobar: false })
    const back = new URL(denied.body.redirect_to)
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("iss")).toBe(server.settings.baseUrl)
  })

  it("exchanges a code once, only with its PKCE verifier, and stores tokens hashed", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const clientId = await registerClient()
    const { verifier, challenge } = pkce()
    const consent = await as(owner, "POST", "/oauth/consentimiento", {
      solicitud: authorizeQuery(clientId, challenge),
      aprobar: true,
      mode: "test"
    })
    const back = new URL(consent.body.redirect_to)
    expect(back.searchParams.get("state")).toBe("estado-123")
    expect(back.searchParams.get("iss")).toBe(server.settings.baseUrl)
    const code = back.searchParams.get("code") ?? ""
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId }
    const wrong = await form("/oauth/token", { ...base, code_verifier: pkce().verifier })
    expect(wrong.body.error).toBe("invalid_grant")
    // The failed attempt spent the code: a stolen code cannot be tried again.
    const again = await form("/oauth/token", { ...base, code_verifier: verifier })
    expect(again.body.error).toBe("invalid_grant")

    const tokens = await grant(owner)
    expect(tokens.access_token).toMatch(/^swat_/)
    const stored = await db.query("select hash from oauth_tokens where hash = $1 or hash = $2", [
      tokens.access_token,
      tokens.refresh_token
    ])
    expect(stored.rowCount).toBe(0)
  })

  it("accepts a Client ID Metadata Document, fetched through the SSRF guard, whose client_id is its URL", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const path = `/cimd-${randomUUID()}.json`
    const clientId = `${docsUrl}${path}`
    documents.set(path, { client_id: clientId, client_name: "Asistente CIMD", redirect_uris: [REDIRECT] })
    const tokens = await grant(owner, { clientId })
    expect((await bearer(tokens.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    const shown = await as(owner, "GET", "/oauth/concesiones")
    expect(shown.body.data.map((g: any) => g.nombre)).toContain("Asistente CIMD")

    const liar = `/cimd-${randomUUID()}.json`
    documents.set(liar, { client_id: "https://otro.example/c.json", redirect_uris: [REDIRECT] })
    const refused = await fetch(
      `${server.url}/oauth/authorize?${authorizeQuery(`${docsUrl}${liar}`, pkce().challenge)}`,
      {
        redirect: "manual"
      }
    )
    expect(refused.status).toBe(400)
  })

  it("without the development switch, a metadata document on a private address is refused", async () => {
    const strict = await startServer({
      databaseUrl: server.databaseUrl,
      settings: { webhookAllowPrivate: false }
    })
    try {
      const reply = await fetch(
        `${strict.url}/oauth/authorize?${authorizeQuery("https://127.0.0.1/cimd.json", pkce().challenge)}`,
        { redirect: "manual" }
      )
      expect(reply.status).toBe(400)
      expect(await reply.text()).toContain("no es pública")
    } finally {
      await strict.close()
    }
  })
})

describe("tokens", () => {
  it("reach only the routes their scopes open: every route of the contract tried with all scopes", async () => {
    const m = await signUp()
    const tokens = await grant(await session(m.email))
    const document = (await call(server.url, "GET", "/openapi.json")).body
    let tried = 0
    for (const [template, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        // Every authenticated operation carries its grant (Permisos in @switch/api).
        const permiso = operation["x-permisos"]
        if (permiso === undefined) continue
        const path = template.replace(/\{[^}]+\}/g, randomUUID())
        const reply = await bearer(
          tokens.access_token,
          method.toUpperCase(),
          path,
          method === "get" ? undefined : {}
        )
        tried++
        if (permiso.alcance !== null)
          expect(reply.body?.error, `${method} ${path}`).not.toBe("insufficient_scope")
        else {
          expect(reply.status, `${method} ${template}`).toBe(403)
          expect(reply.body.error).toBe("insufficient_scope")
        }
      }
    }
    expect(tried).toBeGreaterThan(30)
    for (const [method, path] of [
      ["POST", "/switch/v1/pagar"],
      ["POST", "/switch/v1/reintegro"],
      ["POST", "/switch/v1/dispersiones"]
    ] as const)
      expect((await bearer(tokens.access_token, method, path, {})).body.error).toBe("insufficient_scope")
  })

  it("see their merchant and mode only; a read-only grant cannot create a link", async () => {
    const a = await signUp()
    const b = await signUp()
    const liveKey = await approveMerchant(server, a.codigo)
    const mine = await call(server.url, "POST", "/switch/v1/links", {
      key: a.key,
      body: { monto: 10, concepto: "A" }
    })
    const live = await call(server.url, "POST", "/switch/v1/links", {
      key: liveKey,
      body: { monto: 10, concepto: "L" }
    })
    const theirs = await call(server.url, "POST", "/switch/v1/links", {
      key: b.key,
      body: { monto: 10, concepto: "B" }
    })
    const tokenA = await grant(await session(a.email))
    expect((await bearer(tokenA.access_token, "GET", `/switch/v1/links/${mine.body.id}`)).status).toBe(200)
    expect((await bearer(tokenA.access_token, "GET", `/switch/v1/links/${theirs.body.id}`)).status).toBe(404)
    expect((await bearer(tokenA.access_token, "GET", `/switch/v1/links/${live.body.id}`)).status).toBe(404)
    const listed = await bearer(tokenA.access_token, "GET", "/switch/v1/links")
    expect(listed.body.map((l: any) => l.id)).toEqual([mine.body.id])

    const created = await bearer(tokenA.access_token, "POST", "/switch/v1/links", {
      monto: 12.5,
      concepto: "MCP"
    })
    expect(created.status).toBe(201)
    expect(created.body.mode).toBe("test")

    const reader = await grant(await session(a.email), { scopes: ["links:read"] })
    const refused = await bearer(reader.access_token, "POST", "/switch/v1/links", { monto: 1, concepto: "x" })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("insufficient_scope")
    expect((await bearer(reader.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    expect((await bearer("swat_inventado", "GET", "/switch/v1/links")).status).toBe(401)
  })

  it("a live grant, given by an approved merchant's owner with a second factor, sees live and not test", async () => {
    const m = await signUp()
    const liveKey = await approveMerchant(server, m.codigo)
    const owner = await session(m.email)
    const query = authorizeQuery(await registerClient(), pkce().challenge)
    // No second factor yet: live is not offered.
    expect((await as(owner, "GET", `/oauth/consentimiento?${query}`)).body.modos).toEqual(["test"])
    await db.query("update usuarios set totp_secreto = 'sellado' where email = $1", [m.email])
    expect((await as(owner, "GET", `/oauth/consentimiento?${query}`)).body.modos).toEqual(["test", "live"])
    const cajero = await session(await addUser(m.codigo, "cajero"))
    expect((await as(cajero, "GET", `/oauth/consentimiento?${query}`)).body.modos).toEqual(["test"])

    const live = await call(server.url, "POST", "/switch/v1/links", {
      key: liveKey,
      body: { monto: 7, concepto: "L" }
    })
    const test = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 7, concepto: "T" }
    })
    const tokens = await grant(owner, { mode: "live" })
    expect((await bearer(tokens.access_token, "GET", `/switch/v1/links/${live.body.id}`)).status).toBe(200)
    expect((await bearer(tokens.access_token, "GET", `/switch/v1/links/${test.body.id}`)).status).toBe(404)
    const created = await bearer(tokens.access_token, "POST", "/switch/v1/links", {
      monto: 3,
      concepto: "MCP live"
    })
    expect(created.body.mode).toBe("live")
  })

  it("rotate on refresh; a reused refresh token revokes the whole grant", async () => {
    const m = await signUp()
    const first = await grant(await session(m.email))
    const refreshed = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: first.clientId
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.headers.get("cache-control")).toBe("no-store")
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token)
    expect((await bearer(refreshed.body.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    const reused = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: first.clientId
    })
    expect(reused.body.error).toBe("invalid_grant")
    expect((await bearer(refreshed.body.access_token, "GET", "/switch/v1/links")).status).toBe(401)
    const next = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: refreshed.body.refresh_token,
      client_id: first.clientId
    })
    expect(next.body.error).toBe("invalid_grant")
  })

  it("end at once when the grant is revoked in the portal, or the client revokes them (RFC 7009)", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const tokens = await grant(owner)
    await bearer(tokens.access_token, "GET", "/switch/v1/links")
    const listed = await as(owner, "GET", "/oauth/concesiones")
    expect(listed.body.data).toHaveLength(1)
    expect(listed.body.data[0].last_used_at).not.toBeNull()
    // Another process (a second server on the same database) sees the revocation at once.
    const other = await startServer({ databaseUrl: server.databaseUrl, settings: { apiPorMinuto: 100_000 } })
    try {
      const revoked = await as(owner, "POST", `/oauth/concesiones/${listed.body.data[0].id}/revocar`)
      expect(revoked.status).toBe(200)
      const there = await call(other.url, "GET", "/switch/v1/links", {
        headers: { authorization: `Bearer ${tokens.access_token}` }
      })
      expect(there.status).toBe(401)
    } finally {
      await other.close()
    }
    expect((await as(owner, "GET", "/oauth/concesiones")).body.data).toHaveLength(0)

    const second = await grant(owner)
    expect(
      (await form("/oauth/revoke", { token: second.refresh_token, client_id: second.clientId })).status
    ).toBe(200)
    expect((await bearer(second.access_token, "GET", "/switch/v1/links")).status).toBe(401)
    const introspected = await form("/oauth/introspect", { token: second.access_token })
    expect(introspected.body).toEqual({ active: false })
  })

  it("introspect themselves for the MCP server: audience, scopes, mode", async () => {
    const m = await signUp()
    const tokens = await grant(await session(m.email), { scopes: ["links:read", "bancos:read"] })
    const reply = await form("/oauth/introspect", { token: tokens.access_token })
    expect(reply.body).toMatchObject({
      active: true,
      aud: MCP,
      scope: "links:read bancos:read",
      mode: "test",
      comercio: m.codigo
    })
  })
})

/** A form body written as is: a parameter may come twice. */
const formText = async (path: string, body: string) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** A code of a consent given by `s`, for `clientId` coming back to `redirect`. */
const codeFor = async (s: Session, clientId: string, redirect: string, scopes = OAuth.SCOPES) => {
  const { verifier, challenge } = pkce()
  const consent = await as(s, "POST", "/oauth/consentimiento", {
    solicitud: authorizeQuery(clientId, challenge, { redirect_uri: redirect }),
    aprobar: true,
    mode: "test",
    scopes
  })
  expect(consent.status, JSON.stringify(consent.body)).toBe(200)
  const back = consent.body.redirect_to as string
  const code = new URL(back).searchParams.get("code") ?? ""
  const exchange = {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirect,
    client_id: clientId,
    code_verifier: verifier,
    resource: MCP
  }
  return { back, code, exchange }
}

describe("native apps, repeated parameters, reused codes (issue 47)", () => {
  it("a code presented twice revokes every token its first exchange issued (OAuth 2.1 §4.1.3)", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const clientId = await registerClient()
    const first = await codeFor(owner, clientId, REDIRECT)
    const tokens = await form("/oauth/token", first.exchange)
    expect(tokens.status).toBe(200)
    expect((await bearer(tokens.body.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    expect((await as(owner, "GET", "/oauth/concesiones")).body.data).toHaveLength(1)

    const replayed = await form("/oauth/token", first.exchange)
    expect(replayed.body.error).toBe("invalid_grant")
    expect((await bearer(tokens.body.access_token, "GET", "/switch/v1/links")).status).toBe(401)
    expect((await form("/oauth/introspect", { token: tokens.body.access_token })).body).toEqual({
      active: false
    })
    const refreshed = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.body.refresh_token,
      client_id: clientId
    })
    expect(refreshed.body.error).toBe("invalid_grant")
    expect((await as(owner, "GET", "/oauth/concesiones")).body.data).toEqual([])

    // Two exchanges at once: one wins, and the other, a second use, revokes what it got.
    const raced = await codeFor(owner, clientId, REDIRECT)
    const both = await Promise.all([
      form("/oauth/token", raced.exchange),
      form("/oauth/token", raced.exchange)
    ])
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    const winner = both.find((r) => r.status === 200)?.body
    expect((await bearer(winner.access_token, "GET", "/switch/v1/links")).status).toBe(401)

    // Still so once the code's row is gone (housekeeping deletes used codes a day after expiry).
    const late = await codeFor(owner, clientId, REDIRECT)
    const lateTokens = await form("/oauth/token", late.exchange)
    await db.query("delete from oauth_codigos where client_id = $1", [clientId])
    expect((await form("/oauth/token", late.exchange)).body.error).toBe("invalid_grant")
    expect((await bearer(lateTokens.body.access_token, "GET", "/switch/v1/links")).status).toBe(401)

    // Another grant of the same user and client is left alone.
    const other = await grant(owner, { clientId })
    await form("/oauth/token", first.exchange)
    expect((await bearer(other.access_token, "GET", "/switch/v1/links")).status).toBe(200)
  })

  it("no authorization parameter may come twice: each, repeated, gives invalid_request and no code", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const clientId = await registerClient()
    const { challenge } = pkce()
    const valid = authorizeQuery(clientId, challenge)
    const names = [...new URLSearchParams(valid).keys()]
    expect(names).toEqual(expect.arrayContaining(["state", "client_id", "redirect_uri", "scope"]))
    for (const name of names)
      for (const value of [new URLSearchParams(valid).get(name) ?? "", "otro"]) {
        const query = `${valid}&${new URLSearchParams({ [name]: value })}`
        const reply = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: "manual" })
        const consent = await as(owner, "POST", "/oauth/consentimiento", {
          solicitud: query,
          aprobar: true,
          mode: "test"
        })
        expect(consent.status, `${name} twice`).toBe(400)
        expect(consent.body.redirect_to, `${name} twice`).toBeUndefined()
        if (name === "client_id" || name === "redirect_uri") {
          // Where to answer is uncertain: the refusal is shown here, nothing goes back.
          expect(reply.status, `${name} twice`).toBe(400)
          continue
        }
        expect(reply.status, `${name} twice`).toBe(302)
        const back = new URL(reply.headers.get("location") ?? "", server.url)
        expect(back.origin + back.pathname, `${name} twice`).toBe(REDIRECT)
        expect(back.searchParams.get("code")).toBeNull()
        if (name === "resource") expect(back.searchParams.get("error")).toBe("invalid_target")
        else {
          expect(back.searchParams.get("error"), `${name} twice`).toBe("invalid_request")
          expect(back.searchParams.get("error_description")).toContain(name)
        }
        expect(back.searchParams.get("state")).toBe(name === "state" ? null : "estado-123")
      }
    expect((await db.query("select 1 from oauth_codigos where client_id = $1", [clientId])).rowCount).toBe(0)
  })

  it("no form parameter may come twice at the token, revocation and introspection endpoints", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const clientId = await registerClient()
    const { exchange } = await codeFor(owner, clientId, REDIRECT)
    const valid = new URLSearchParams(exchange).toString()
    for (const name of Object.keys(exchange)) {
      const reply = await formText("/oauth/token", `${valid}&${new URLSearchParams({ [name]: "otro" })}`)
      expect(reply.status, `${name} twice`).toBe(400)
      expect(reply.body.error, `${name} twice`).toBe(
        name === "resource" ? "invalid_target" : "invalid_request"
      )
      const same = await formText(
        "/oauth/token",
        `${valid}&${name}=${encodeURIComponent(exchange[name as keyof typeof exchange])}`
      )
      expect(same.status, `${name} twice, the same`).toBe(400)
    }
    // Refused before it was read: the code is still good.
    const tokens = await form("/oauth/token", exchange)
    expect(tokens.status).toBe(200)
    const refresh = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: tokens.body.refresh_token,
      client_id: clientId
    }).toString()
    expect((await formText("/oauth/token", `${refresh}&scope=links:read&scope=bancos:read`)).body.error).toBe(
      "invalid_request"
    )
    const token = `token=${tokens.body.access_token}`
    expect((await formText("/oauth/introspect", `${token}&${token}`)).body.error).toBe("invalid_request")
    expect((await formText("/oauth/revoke", `${token}&token=x`)).body.error).toBe("invalid_request")
    expect((await bearer(tokens.body.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    expect((await formText("/oauth/token", refresh)).status).toBe(200)
  })

  it("a refresh asking for more than its grant is invalid_scope, and spends nothing", async () => {
    const m = await signUp()
    const tokens = await grant(await session(m.email), { scopes: ["links:read", "bancos:read"] })
    const base = {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId
    }
    for (const scope of [
      "links:read links:write",
      "transacciones:read",
      "links:read bancos:read liquidaciones:read"
    ]) {
      const wider = await form("/oauth/token", { ...base, scope })
      expect(wider.status, scope).toBe(400)
      expect(wider.body.error, scope).toBe("invalid_scope")
    }
    expect((await form("/oauth/token", { ...base, scope: "no:existe" })).body.error).toBe("invalid_scope")
    const narrower = await form("/oauth/token", { ...base, scope: "links:read" })
    expect(narrower.status).toBe(200)
    expect(narrower.body.scope).toBe("links:read")
  })

  it("a native app comes back on its private-use scheme (RFC 8252 §7.1) or a loopback port of the moment (§7.3)", async () => {
    const m = await signUp()
    const owner = await session(m.email)
    const native = "com.example.app:/oauth/cb"
    const clientId = await registerClient(native)
    const { challenge } = pkce()
    const asked = await fetch(
      `${server.url}/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: native })}`,
      { redirect: "manual" }
    )
    expect(asked.headers.get("location")).toMatch(/^\/panel\/oauth\/autorizar\?/)
    const shown = await as(
      owner,
      "GET",
      `/oauth/consentimiento?${authorizeQuery(clientId, challenge, { redirect_uri: native })}`
    )
    expect(shown.body.cliente.redirect_host).toBe("com.example.app")
    const app = await codeFor(owner, clientId, native)
    expect(app.back.startsWith(`${native}?code=`)).toBe(true)
    const back = new URL(app.back)
    expect(back.searchParams.get("state")).toBe("estado-123")
    expect(back.searchParams.get("iss")).toBe(server.settings.baseUrl)
    const tokens = await form("/oauth/token", app.exchange)
    expect(tokens.status).toBe(200)
    expect((await bearer(tokens.body.access_token, "GET", "/switch/v1/links")).status).toBe(200)
    const listed = (await as(owner, "GET", "/oauth/concesiones")).body.data
    expect(listed.map((g: any) => g.redirect_host)).toContain("com.example.app")

    // Registered on one port, back on whatever port the app listens on now; the same port at the token endpoint.
    for (const registered of [
      "http://127.0.0.1:7777/callback",
      "http://[::1]:7777/callback",
      "http://localhost/callback"
    ]) {
      const loopClient = await registerClient(registered)
      const now = registered.replace(/(:7777)?\/callback$/, ":53124/callback")
      const loop = await codeFor(owner, loopClient, now)
      expect(loop.back.startsWith(`${now}?code=`), registered).toBe(true)
      expect((await form("/oauth/token", { ...loop.exchange, redirect_uri: registered })).body.error).toBe(
        "invalid_grant"
      )
      const again = await codeFor(owner, loopClient, now)
      expect((await form("/oauth/token", again.exchange)).status, registered).toBe(200)
      for (const elsewhere of [
        now.replace("/callback", "/otra"),
        now.replace("http:", "https:"),
        `${now}?x=1`,
        now.replace(/127\.0\.0\.1|\[::1\]|localhost/, "evil.example")
      ]) {
        const refused = await fetch(
          `${server.url}/oauth/authorize?${authorizeQuery(loopClient, challenge, { redirect_uri: elsewhere })}`,
          { redirect: "manual" }
        )
        expect(refused.status, elsewhere).toBe(400)
      }
    }

    // A web app does not get a private-use scheme; nobody gets a scheme a browser would run.
    const web = await call(server.url, "POST", "/oauth/register", {
      body: { application_type: "web", redirect_uris: [native] }
    })
    expect(web.body.error).toBe("invalid_redirect_uri")
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vbscript:msgbox(1)",
      "http://asistente.example/cb",
      "myapp:/cb",
      "com.example.app://cb",
      "com.example.app:/cb#x"
    ]) {
      const reply = await call(server.url, "POST", "/oauth/register", { body: { redirect_uris: [bad] } })
      expect(reply.body.error, bad).toBe("invalid_redirect_uri")
    }
  })

  it("a key sent as a bearer token is told that keys go in x-switch-key", async () => {
    const m = await signUp()
    const secret = m.key.slice(m.key.indexOf(":") + 1)
    for (const authorization of [`Bearer ${m.key}`, `Bearer ${secret}`, `bearer ${secret}`]) {
      const reply = await call(server.url, "GET", "/switch/v1/links", { headers: { authorization } })
      expect(reply.status, authorization).toBe(401)
      expect(reply.body.error).toBe("unauthorized")
      expect(reply.body.detail, authorization).toContain("x-switch-key")
      expect(reply.body.detail).toContain("Authorization: Bearer")
      expect(JSON.stringify(reply.body)).not.toContain(secret)
    }
    // A key in its header still wins over anything in Authorization.
    const both = await call(server.url, "GET", "/switch/v1/links", {
      key: m.key,
      headers: { authorization: `Bearer ${secret}` }
    })
    expect(both.status).toBe(200)
  })
})

describe("isolation and hostile input", () => {
  it("another merchant's user cannot see or revoke a grant; a cajero sees only its own", async () => {
    const a = await signUp()
    const b = await signUp()
    const ownerA = await session(a.email)
    const tokens = await grant(ownerA)
    const [mine] = (await as(ownerA, "GET", "/oauth/concesiones")).body.data
    const ownerB = await session(b.email)
    expect((await as(ownerB, "GET", "/oauth/concesiones")).body.data).toEqual([])
    expect((await as(ownerB, "POST", `/oauth/concesiones/${mine.id}/revocar`)).status).toBe(404)
    const cajero = await session(await addUser(a.codigo, "cajero"))
    expect((await as(cajero, "GET", "/oauth/concesiones")).body.data).toEqual([])
    expect((await as(cajero, "POST", `/oauth/concesiones/${mine.id}/revocar`)).status).toBe(404)
    // A key or a token is no session here.
    expect((await call(server.url, "GET", "/oauth/concesiones", { key: a.key })).status).toBe(401)
    expect((await bearer(tokens.access_token, "GET", "/oauth/concesiones")).status).toBe(401)
    expect((await bearer(tokens.access_token, "GET", "/switch/v1/links")).status).toBe(200)
  })

  it("malformed requests to every OAuth endpoint are 4xx, never 500", async () => {
    const bodies = [
      "",
      "{",
      "null",
      "[]",
      '{"redirect_uris":"x"}',
      '{"redirect_uris":[1,2]}',
      "grant_type=authorization_code",
      "grant_type=refresh_token&refresh_token=&client_id=x",
      "token=&client_id=",
      "a=%ZZ&b",
      `client_id=${"x".repeat(5000)}&grant_type=authorization_code&code=a&code_verifier=b&redirect_uri=c`,
      '{"__proto__":{"x":1},"redirect_uris":["https://a.example/cb"]}',
      '{"client_name":"a\\u0000b\\ud800","redirect_uris":["https://a.example/cb"]}',
      '{"redirect_uris":["https://a.example/c\\u0000b"]}'
    ]
    const paths = [
      "/oauth/token",
      "/oauth/register",
      "/oauth/revoke",
      "/oauth/introspect",
      "/oauth/consentimiento"
    ]
    for (const path of paths)
      for (const body of bodies)
        for (const type of ["application/x-www-form-urlencoded", "application/json", "text/plain"]) {
          const reply = await fetch(`${server.url}${path}`, {
            method: "POST",
            headers: { "content-type": type },
            body
          })
          expect(reply.status, `${path} ${type} ${body.slice(0, 40)}`).toBeLessThan(500)
        }
    for (const query of [
      "",
      "client_id=",
      "client_id=%00",
      "client_id=https://",
      `client_id=${"a".repeat(3000)}`,
      "a&b&c"
    ]) {
      const reply = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: "manual" })
      expect(reply.status, query).toBeLessThan(500)
    }
  })
})

describe("housekeeping", () => {
  it("drops expired codes and tokens and long-revoked grants, and nothing live", async () => {
    const { pruneOAuth } = await import("./Prune.js")
    const { Effect, Layer, ManagedRuntime } = await import("effect")
    const { PgLive } = await import("../platform/Sql.js")
    const m = await signUp()
    const live = await grant(await session(m.email))
    const old = await grant(await session(m.email))
    const [row] = (
      await db.query("select concesion_id from oauth_tokens where hash = encode(sha256($1::bytea), 'hex')", [
        old.access_token
      ])
    ).rows
    await db.query("update oauth_tokens set expires_at = now() - interval '2 days' where concesion_id = $1", [
      row.concesion_id
    ])
    await db.query("update oauth_concesiones set revoked_at = now() - interval '91 days' where id = $1", [
      row.concesion_id
    ])
    const runtime = ManagedRuntime.make(Layer.orDie(PgLive(server.databaseUrl, { maxConnections: 1 })))
    try {
      await runtime.runPromise(Effect.asVoid(pruneOAuth))
    } finally {
      await runtime.dispose()
    }
    expect(
      (await db.query("select 1 from oauth_concesiones where id = $1", [row.concesion_id])).rowCount
    ).toBe(0)
    expect((await bearer(live.access_token, "GET", "/switch/v1/links")).status).toBe(200)
  })
})
