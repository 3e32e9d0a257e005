// `npm start`: builds what is needed (turbo caches it), runs the API server in this process (so
// Ctrl-C reaches it directly and it stops cleanly) and the MCP server beside it.
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
    "--output-logs=errors-only"
  ],
  { stdio: "inherit", env }
)
if (build.status !== 0) process.exit(build.status ?? 1)

const mcp = spawn(process.execPath, [new URL("../apps/mcp/dist/main.js", import.meta.url).pathname], {
  stdio: "inherit",
  env: {
    ...process.env,
    SWITCH_API_URL: process.env.SWITCH_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`
  }
})
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => mcp.kill(signal))
process.on("exit", () => mcp.kill("SIGTERM"))

await import("../apps/server/dist/main.js")
