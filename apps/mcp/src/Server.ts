/**
 * The MCP endpoint over stateless Streamable HTTP: a fresh McpServer and transport per
 * request (a stateless transport cannot be reused), the caller's credential resolved from the
 * request headers, a health route, access logs without keys, and a graceful stop.
 *
 * As an OAuth 2.1 resource server (MCP authorization, issue 34): Protected Resource Metadata
 * (RFC 9728) at `/.well-known/oauth-protected-resource` and its path-suffixed form
 * `/.well-known/oauth-protected-resource/mcp`; a request without a usable credential is `401`
 * with `WWW-Authenticate: Bearer resource_metadata="...", scope="..."`, `initialize` included, so
 * a wrong or revoked key or token is refused at connection; a tool call whose scope the token
 * lacks is `403` with `error="insufficient_scope"`. CORS lets browser-based clients connect
 * (with a token; keys belong on servers). The protocol version is negotiated by the SDK
 * (2024-11-05 to 2025-11-25); stateless, no session ids, as the newest revision advises.
 * The capabilities announce tools only, without `listChanged` (issue 47).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { Switch, SwitchError } from "@switch/sdk"
import { type Credential, type CredentialResolver, keyOrToken } from "./Credentials.js"
import { registerTools, SCOPES, TOOL_SCOPES } from "./Tools.js"

export const VERSION = "0.1.0"

export interface McpOptions {
  /** The Switch API the tools call, e.g. http://127.0.0.1:8080 */
  readonly apiUrl: string
  readonly port: number
  readonly host?: string
  readonly resolver?: CredentialResolver
  readonly log?: (line: string) => void
  /** This server's public base (MCP_URL), e.g. https://mcp.example.com; default http://localhost:<port>. */
  readonly publicUrl?: string
  /** The OAuth authorization server (the API's public BASE_URL); default `apiUrl`. */
  readonly authorizationServer?: string
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "www-authenticate, mcp-session-id, mcp-protocol-version"
} as const

const MAX_BODY = 1_000_000

const readJson = (req: IncomingMessage): Promise<unknown> =>
  new Promise((done, fail) => {
    let size = 0
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        fail(new Error("too large"))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => {
      try {
        done(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch (error) {
        fail(error)
      }
    })
    req.on("error", fail)
  })

const rpcError = (
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {}
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }))
}

/** Where this server's Protected Resource Metadata is, and what it says. */
interface Resource {
  readonly resource: string
  readonly metadataUrl: string
  readonly metadata: Record<string, unknown>
}

const challenge = (resource: Resource, extra: Record<string, string>) =>
  `Bearer ${Object.entries({ ...extra, resource_metadata: resource.metadataUrl })
    .map(([k, v]) => `${k}="${v.replaceAll('"', "'")}"`)
    .join(", ")}`

const unauthorized = (res: ServerResponse, resource: Resource, reason: string, invalidToken: boolean) =>
  rpcError(res, 401, -32001, reason, {
    "www-authenticate": challenge(resource, {
      ...(invalidToken ? { error: "invalid_token", error_description: reason } : {}),
      scope: SCOPES.join(" ")
    })
  })

const requestedTool = (body: unknown): string | undefined => {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null
  return message?.method === "tools/call" && typeof message.params?.name === "string"
    ? message.params.name
    : undefined
}

const clientFor = (credential: Exclude<Credential, { _tag: "Missing" }>, apiUrl: string) =>
  credential._tag === "Key"
    ? new Switch({ key: credential.key, baseUrl: apiUrl, maxRetries: 1 })
    : new Switch({ accessToken: credential.token, mode: credential.mode, baseUrl: apiUrl, maxRetries: 1 })

const handleMcp = async (
  req: IncomingMessage,
  res: ServerResponse,
  options: McpOptions,
  resource: Resource
) => {
  if (req.method !== "POST")
    return rpcError(res, 405, -32000, "Método no permitido: este servidor es sin estado (POST /mcp).", {
      allow: "POST, OPTIONS"
    })
  const resolver =
    options.resolver ?? keyOrToken({ apiUrl: options.apiUrl, resource: () => resource.resource })
  const credential = await resolver(req.headers)
  if (credential._tag === "Missing")
    return unauthorized(res, resource, credential.reason, credential.invalidToken === true)
  let body: unknown
  try {
    body = await readJson(req)
  } catch {
    return rpcError(res, 400, -32700, "JSON inválido / parse error")
  }
  const client = clientFor(credential, options.apiUrl)
  // A key is checked at connection: a wrong or revoked one is refused on `initialize`.
  if (credential._tag === "Key" && (body as { method?: unknown } | null)?.method === "initialize") {
    try {
      await client.config.get()
    } catch (error) {
      if (error instanceof SwitchError && error.status === 401)
        return unauthorized(res, resource, "La llave x-switch-key es inválida o fue revocada.", false)
    }
  }
  const tool = requestedTool(body)
  const needed = tool === undefined ? undefined : TOOL_SCOPES[tool]
  if (credential._tag === "Token" && needed !== undefined && !credential.scopes.includes(needed))
    return rpcError(
      res,
      403,
      -32003,
      `insufficient_scope: la herramienta ${tool} necesita el alcance ${needed}.`,
      {
        "www-authenticate": challenge(resource, {
          error: "insufficient_scope",
          scope: needed,
          error_description: `La herramienta ${tool} necesita el alcance ${needed}.`
        })
      }
    )
  const server = new McpServer({ name: "switch", version: VERSION })
  registerTools(server, client, { checkKey: credential._tag === "Key" })
  // The capabilities say only what this server does: tools, and no resources, prompts or
  // completions. The SDK announces `tools.listChanged: true` on its own, but a stateless server
  // keeps no stream to notify on and its tools never change, so it promises no notification.
  server.server.registerCapabilities({ tools: { listChanged: false } })
  // Stateless: no session ids (DESIGN.md §7).
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined } as never)
  res.on("close", () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res, body)
}

/** Starts the MCP HTTP server; resolves once it listens. */
export const startMcpServer = async (
  options: McpOptions
): Promise<{ readonly server: Server; readonly stop: () => Promise<void> }> => {
  const log = options.log ?? ((line: string) => console.log(line))
  let resource: Resource | undefined
  const server = createServer((req, res) => {
    const started = Date.now()
    const path = (req.url ?? "/").split("?")[0]
    res.on("finish", () => log(`mcp ${req.method} ${path} ${res.statusCode} ${Date.now() - started}ms`))
    for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value)
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": "authorization, content-type, mcp-protocol-version, last-event-id",
        "access-control-max-age": "600"
      })
      res.end()
      return
    }
    const here = resource as Resource
    if (
      path === "/.well-known/oauth-protected-resource" ||
      path === "/.well-known/oauth-protected-resource/mcp"
    ) {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(here.metadata))
      return
    }
    if (path === "/health") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ status: "ok", version: VERSION }))
      return
    }
    if (path !== "/mcp") return rpcError(res, 404, -32601, "No encontrado: use /mcp")
    handleMcp(req, res, options, here).catch((error) => {
      log(`mcp error ${String((error as Error)?.message ?? error)}`)
      if (!res.headersSent) rpcError(res, 500, -32603, "error_interno")
    })
  })
  await new Promise<void>((done) => server.listen(options.port, options.host ?? "127.0.0.1", done))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : options.port
  const base = (options.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, "")
  resource = {
    resource: `${base}/mcp`,
    metadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
    metadata: {
      resource: `${base}/mcp`,
      authorization_servers: [(options.authorizationServer ?? options.apiUrl).replace(/\/+$/, "")],
      scopes_supported: SCOPES,
      bearer_methods_supported: ["header"],
      resource_name: "Switch MCP"
    }
  }
  return {
    server,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeIdleConnections()
      })
  }
}
