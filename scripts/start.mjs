// `npm start`: builds what is needed (turbo caches it), runs the API server in this process (so
// Ctrl-C reaches it directly and it stops cleanly) and the MCP server beside it. With
// SWITCH_WORKERS=N the server's worker processes run apps/server/dist/main.js itself, not this
// script (main.ts), so the build and the MCP server happen once, here.
import { spawn, spawnSync } from "node:child_process"

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" }
const build = spawnSync(
  "npx",
  [
    "turbo",
    "run",
    "build",
    "--filter=@switch/server...",
    "--filter=@switch/mcp...",
    "--filter=@switch/portal...",
    "--output-logs=errors-only"
  ],
  { stdio: "inherit", env }
)
if (build.status !== 0) process.exit(build.status ?? 1)

// The API listens on HOST (127.0.0.1 by default; main.ts), and so does the MCP server; a
// wildcard HOST is still reached on loopback.
const host = process.env.HOST || "127.0.0.1"
const apiHost = ["0.0.0.0", "::", "[::]"].includes(host)
  ? "127.0.0.1"
  : host.includes(":")
    ? `[${host}]`
    : host
const mcp = spawn(process.execPath, [new URL("../apps/mcp/dist/main.js", import.meta.url).pathname], {
  stdio: "inherit",
  env: {
    ...process.env,
    SWITCH_API_URL: process.env.SWITCH_API_URL ?? `http://${apiHost}:${process.env.PORT ?? 8080}`
  }
})
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => mcp.kill(signal))
process.on("exit", () => mcp.kill("SIGTERM"))

await import("../apps/server/dist/main.js")
