/**
 * The MCP tool server: Streamable HTTP at MCP_URL/mcp (MCP_PORT, default 8081, on HOST, default
 * 127.0.0.1), calling the Switch API at SWITCH_API_URL (default http://127.0.0.1:$PORT).
 * SIGINT/SIGTERM stop it cleanly.
 */
import { startMcpServer } from "./Server.js"

const port = Number(process.env.MCP_PORT ?? 8081)
const host = process.env.HOST || "127.0.0.1"
const apiUrl = (process.env.SWITCH_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(
  /\/+$/,
  ""
)
const quiet = (process.env.SWITCH_LOG_LEVEL ?? "info") !== "info"

const publicUrl = process.env.MCP_URL
// The OAuth authorization server: the API's public address (BASE_URL), where assistants sign in.
const authorizationServer = (process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 8080}`).replace(
  /\/+$/,
  ""
)
const running = await startMcpServer({
  apiUrl,
  port,
  host,
  ...(publicUrl ? { publicUrl } : {}),
  ...(authorizationServer ? { authorizationServer } : {}),
  ...(quiet ? { log: () => undefined } : {})
})
console.log(`Servidor MCP     ${(process.env.MCP_URL ?? `http://localhost:${port}`).replace(/\/+$/, "")}/mcp`)

const stop = () => {
  running.stop().then(() => process.exit(0))
  setTimeout(() => process.exit(0), 5_000).unref()
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
