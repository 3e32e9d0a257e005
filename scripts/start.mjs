// `npm start` runs the service once apps/server exists; until then it says so plainly.

import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"

if (!existsSync(new URL("../apps/server/package.json", import.meta.url))) {
  console.log("Switch: the API server (apps/server) is not built yet; only @switch/core exists.")
  console.log("Run `npm test` to check the domain package.")
  process.exit(0)
}
const result = spawnSync("npm", ["run", "start", "--workspace", "apps/server"], { stdio: "inherit" })
process.exit(result.status ?? 1)
