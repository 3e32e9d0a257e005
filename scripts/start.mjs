// `npm start`: builds what the server needs (turbo caches it), then runs the server in this
// process, so Ctrl-C reaches it directly and it stops cleanly.
import { spawnSync } from "node:child_process"

const build = spawnSync(
  "npx",
  ["turbo", "run", "build", "--filter=@switch/server...", "--output-logs=errors-only"],
  {
    stdio: "inherit",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" }
  }
)
if (build.status !== 0) process.exit(build.status ?? 1)
await import("../apps/server/dist/main.js")
