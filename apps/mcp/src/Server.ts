/**
 * The MCP endpoint over stateless Streamable HTTP: a fresh McpServer and transport per
 * request (a stateless transport cannot be reused), the caller's credential resolved from the
 * request headers, a health route, access logs without keys, and a graceful stop.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { Switch } from "@switch/sdk"
import { type CredentialResolver, switchKeyHeader } from "./Credentials.js"
import { registerTools } from "./Tools.js"

export const VERSION = "0.1.0"

export interface McpOptions {
  /** The Switch API the tools call, e.g. http://127.0.0.1:8080 */
  readonly apiUrl: string
  readonly port: number
  readonly host?: string
  readonly resolver?: CredentialResolver
  readonly log?: (line: string) => void
}

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

const rpcError = (res: ServerResponse, status: number, code: number, message: string) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }))
}

const handleMcp = async (req: IncomingMessage, res: ServerResponse, options: McpOptions) => {
  if (req.method !== "POST")
    return rpcError(res, 405, -32000, "Método no permitido: este servidor es sin estado (POST /mcp).")
  const credential = await (options.resolver ?? switchKeyHeader)(req.headers)
  if (credential._tag === "Missing") return rpcError(res, 401, -32001, credential.reason)
  let body: unknown
  try {
    body = await readJson(req)
  } catch {
    return rpcError(res, 400, -32700, "JSON inválido / parse error")
  }
  const server = new McpServer({ name: "switch", version: VERSION })
  registerTools(server, new Switch({ key: credential.key, baseUrl: options.apiUrl, maxRetries: 1 }))
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
  const server = createServer((req, res) => {
    const started = Date.now()
    const path = (req.url ?? "/").split("?")[0]
    res.on("finish", () => log(`mcp ${req.method} ${path} ${res.statusCode} ${Date.now() - started}ms`))
    if (path === "/health") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ status: "ok", version: VERSION }))
      return
    }
    if (path !== "/mcp") return rpcError(res, 404, -32601, "No encontrado: use /mcp")
    handleMcp(req, res, options).catch((error) => {
      log(`mcp error ${String((error as Error)?.message ?? error)}`)
      if (!res.headersSent) rpcError(res, 500, -32603, "error_interno")
    })
  })
  await new Promise<void>((done) => server.listen(options.port, options.host ?? "127.0.0.1", done))
  return {
    server,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeIdleConnections()
      })
  }
}
