/**
 * The MCP sign-in end to end (issue 34): the official MCP TypeScript client's OAuth flow against
 * the real API (authorization server) and the built MCP server (resource server). Discovery
 * from a bare 401, Dynamic Client Registration and a Client ID Metadata Document client (served
 * over https with a certificate the API trusts), PKCE, consent by a signed-in merchant user,
 * token use, refresh, revocation, insufficient scope, tenant and mode isolation.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { createServer as createHttps, type Server } from "node:https"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { consent, MemoryProvider, ownerSession, REDIRECT } from "../support/oauthClient.js"
import { ADMIN_TOKEN, call, freePort, OWN_ACCOUNT, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let mcp: ChildProcess
let mcpUrl: string
let docs: Server
let cimdUrl: string

const ALL = "links:read links:write transacciones:read liquidaciones:read bancos:read"

beforeAll(async () => {
  // A certificate for 127.0.0.1 the API trusts, for the metadata document's https server.
  const dir = mkdtempSync(join(tmpdir(), "cimd-"))
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem")
    ],
    { stdio: "ignore" }
  )
  const docsPort = await freePort()
  cimdUrl = `https://127.0.0.1:${docsPort}/cliente.json`
  docs = createHttps(
    { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
    (req, res) => {
      if (req.url !== "/cliente.json") {
        res.writeHead(404)
        return res.end()
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(
        JSON.stringify({
          client_id: cimdUrl,
          client_name: "Asistente con documento",
          redirect_uris: [REDIRECT],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        })
      )
    }
  )
  await new Promise<void>((done) => docs.listen(docsPort, "127.0.0.1", done))

  const mcpPort = await freePort()
  const mcpBase = `http://127.0.0.1:${mcpPort}`
  stack = await startStack({
    SWITCH_API_POR_MINUTO: "100000",
    MCP_URL: mcpBase,
    // Development only: lets the metadata document sit on loopback (the SSRF guard's switch).
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    NODE_EXTRA_CA_CERTS: join(dir, "cert.pem")
  })
  mcp = spawn(process.execPath, [resolve(__dirname, "../../apps/mcp/dist/main.js")], {
    env: {
      ...process.env,
      HOST: "",
      MCP_PORT: String(mcpPort),
      MCP_URL: mcpBase,
      BASE_URL: stack.url,
      SWITCH_API_URL: stack.url
    },
    stdio: "ignore"
  })
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${mcpBase}/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    await new Promise((r) => setTimeout(r, 100))
  }
  mcpUrl = `${mcpBase}/mcp`
})
afterAll(async () => {
  mcp?.kill("SIGTERM")
  await stack?.stop()
  await new Promise((done) => docs?.close(done))
})

/** Connects with `provider`, signing in through the consent of `session` when asked. */
const signIn = async (
  provider: MemoryProvider,
  session: Parameters<typeof consent>[2],
  answer: Parameters<typeof consent>[3] = {}
) => {
  const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider })
  await expect(new Client({ name: "prueba", version: "1.0.0" }).connect(first)).rejects.toThrow(
    UnauthorizedError
  )
  const url = provider.authorizationUrl as URL
  const code = await consent(stack.url, url, session, answer)
  await first.finishAuth(code)
  return connectWith(provider)
}

const connectWith = async (provider: MemoryProvider) => {
  const client = new Client({ name: "prueba", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
  return client
}

describe("MCP sign-in (OAuth 2.1)", () => {
  it("a bare request gets 401 with the resource metadata, which leads to the authorization server", async () => {
    const bare = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })
    })
    expect(bare.status).toBe(401)
    const header = bare.headers.get("www-authenticate") ?? ""
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1] ?? ""
    expect(header).toContain(`scope="${ALL}"`)
    const metadata = await (await fetch(metadataUrl)).json()
    expect(metadata).toMatchObject({
      resource: mcpUrl,
      authorization_servers: [stack.url],
      scopes_supported: ALL.split(" ")
    })
    const root: any = await (await fetch(new URL("/.well-known/oauth-protected-resource", mcpUrl))).json()
    expect(root.resource).toBe(mcpUrl)
    const as: any = await (await fetch(`${stack.url}/.well-known/oauth-authorization-server`)).json()
    expect(as.issuer).toBe(stack.url)
    // CORS for browser-based clients.
    const preflight = await fetch(mcpUrl, {
      method: "OPTIONS",
      headers: { origin: "https://chat.example", "access-control-request-method": "POST" }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization")
    expect(bare.headers.get("access-control-expose-headers")).toContain("www-authenticate")
  })

  it("DCR client: registers, signs in with PKCE, uses the tools, refreshes, and is revoked at once", async () => {
    const owner = await ownerSession(stack.url)
    const provider = new MemoryProvider()
    const client = await signIn(provider, owner.session)
    expect(String(provider.info?.client_id)).toMatch(/^cli_/)
    const authorizeUrl = provider.authorizationUrl as URL
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authorizeUrl.searchParams.get("resource")).toBe(mcpUrl)

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain("crear_link_cobro")
    const created: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 20, concepto: "Por OAuth" }
    })
    expect(created.isError, JSON.stringify(created)).toBeFalsy()
    const seen = await call(stack.url, "GET", `/switch/v1/links/${created.structuredContent.id}`, {
      key: owner.key
    })
    expect(seen.status).toBe(200)
    const banks: any = await client.callTool({ name: "listar_bancos", arguments: {} })
    expect(banks.structuredContent.bancos.length).toBeGreaterThan(5)

    // Refresh: the access token is revoked by the client (RFC 7009); the SDK refreshes on the 401.
    const firstAccess = provider.saved?.access_token as string
    const firstRefresh = provider.saved?.refresh_token as string
    await fetch(`${stack.url}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: firstAccess }).toString()
    })
    const again = await connectWith(provider)
    const listed: any = await again.callTool({ name: "listar_links", arguments: {} })
    expect(listed.structuredContent.links.map((l: any) => l.id)).toEqual([created.structuredContent.id])
    expect(provider.saved?.access_token).not.toBe(firstAccess)
    expect(provider.saved?.refresh_token).not.toBe(firstRefresh)

    // "Aplicaciones conectadas": the grant with its last use; revoking ends it in this very call.
    const grants = await call(stack.url, "GET", "/oauth/concesiones", {
      headers: { cookie: owner.session.cookie }
    })
    expect(grants.body.data).toHaveLength(1)
    expect(grants.body.data[0]).toMatchObject({
      nombre: "Asistente de prueba",
      mode: "test",
      redirect_host: "127.0.0.1:7777"
    })
    expect(grants.body.data[0].last_used_at).not.toBeNull()
    const revoked = await call(stack.url, "POST", `/oauth/concesiones/${grants.body.data[0].id}/revocar`, {
      headers: { cookie: owner.session.cookie, "x-csrf-token": owner.session.csrf }
    })
    expect(revoked.status).toBe(200)
    await expect(again.callTool({ name: "listar_links", arguments: {} })).rejects.toThrow()
    const raw = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${provider.saved?.access_token}`
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(raw.status).toBe(401)
    expect(raw.headers.get("www-authenticate")).toContain('error="invalid_token"')
    for (const c of [client, again]) await c.close().catch(() => undefined)
  })

  it("CIMD client: the https client_id URL is the client, fetched by the server", async () => {
    const owner = await ownerSession(stack.url)
    const provider = new MemoryProvider({ clientMetadataUrl: cimdUrl })
    const client = await signIn(provider, owner.session)
    expect((provider.authorizationUrl as URL).searchParams.get("client_id")).toBe(cimdUrl)
    const listed: any = await client.callTool({ name: "listar_links", arguments: {} })
    expect(listed.isError).toBeFalsy()
    const grants = await call(stack.url, "GET", "/oauth/concesiones", {
      headers: { cookie: owner.session.cookie }
    })
    expect(grants.body.data[0]).toMatchObject({ client_id: cimdUrl, nombre: "Asistente con documento" })
    await client.close()
  })

  it("a read-only grant creating a link is 403 insufficient_scope, asking for the missing scope", async () => {
    const owner = await ownerSession(stack.url)
    const provider = new MemoryProvider()
    const client = await signIn(provider, owner.session, { scopes: ["links:read"] })
    expect(provider.saved?.scope).toBe("links:read")
    const raw = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${provider.saved?.access_token}`,
        "mcp-protocol-version": "2025-06-18"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "crear_link_cobro", arguments: { monto: 1, concepto: "x" } }
      })
    })
    expect(raw.status).toBe(403)
    expect(raw.headers.get("www-authenticate")).toMatch(/error="insufficient_scope".*scope="links:write"/)
    // The SDK tries its step-up (a refresh, which never widens a grant) and then gives up with the 403.
    await expect(
      client.callTool({ name: "crear_link_cobro", arguments: { monto: 1, concepto: "x" } })
    ).rejects.toThrow(/403/)
    const links = await call(stack.url, "GET", "/switch/v1/links", { key: owner.key })
    expect(links.body).toEqual([])
  })

  it("merchant A's token never sees merchant B, and a test grant never sees live", async () => {
    const a = await ownerSession(stack.url)
    const b = await ownerSession(stack.url)
    await call(stack.url, "POST", `/admin/v1/comercios/${a.codigo}/aprobar`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { cuenta_liquidacion: OWN_ACCOUNT, emitir_llave: true }
    }).then(async (approved) => {
      await call(stack.url, "POST", `/admin/v1/comercios/${a.codigo}/revisar`, {
        headers: { "x-admin-token": ADMIN_TOKEN }
      })
      const live = await call(stack.url, "POST", "/switch/v1/links", {
        key: `${a.codigo}:${approved.body.api_key}`,
        body: { monto: 5, concepto: "Live" }
      })
      expect(live.status).toBe(201)
      const theirs = await call(stack.url, "POST", "/switch/v1/links", {
        key: b.key,
        body: { monto: 5, concepto: "B" }
      })
      const client = await signIn(new MemoryProvider(), a.session)
      for (const id of [live.body.id, theirs.body.id]) {
        const view: any = await client.callTool({ name: "ver_link", arguments: { id } })
        expect(view.isError).toBe(true)
        expect(view.content[0].text).toContain("not_found")
      }
      const mine: any = await client.callTool({ name: "listar_links", arguments: {} })
      expect(mine.structuredContent.links).toEqual([])
      await client.close()
    })
  })

  it("negotiates the protocol revisions in use", async () => {
    const owner = await ownerSession(stack.url)
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      const reply = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-switch-key": owner.key
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x", version: "1" } }
        })
      })
      expect(reply.status).toBe(200)
      const text = await reply.text()
      const json = JSON.parse(text.startsWith("{") ? text : (/data: (.*)/.exec(text)?.[1] ?? "{}"))
      expect(json.result.protocolVersion, version).toBe(version)
    }
  })

  it("MCP Inspector's CLI lists the tools with a token (fetched from the npm registry)", async () => {
    const owner = await ownerSession(stack.url)
    const provider = new MemoryProvider()
    const client = await signIn(provider, owner.session, { scopes: ["links:read", "bancos:read"] })
    await client.close()
    const inspector = (headers: ReadonlyArray<string>) =>
      new Promise<{ code: number; out: string }>((done) =>
        execFile(
          "npx",
          [
            "-y",
            "@modelcontextprotocol/inspector@0.17.5",
            "--cli",
            mcpUrl,
            "--transport",
            "http",
            "--method",
            "tools/list",
            ...headers.flatMap((h) => ["--header", h])
          ],
          // Outside the workspace, so npx installs the inspector on its own.
          { timeout: 240_000, cwd: tmpdir(), env: { ...process.env, npm_config_loglevel: "error" } },
          (error, stdout, stderr) =>
            done({ code: error === null ? 0 : Number(error.code ?? 1), out: `${stdout}${stderr}` })
        )
      )
    const listed = await inspector([`Authorization: Bearer ${provider.saved?.access_token}`])
    expect(listed.code, listed.out).toBe(0)
    const tools = JSON.parse(listed.out.slice(listed.out.indexOf("{"))).tools.map(
      (t: { name: string }) => t.name
    )
    expect(tools).toContain("listar_links")
    const refused = await inspector([])
    expect(refused.code).not.toBe(0)
  }, 300_000)
})
