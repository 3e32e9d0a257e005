import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

describe("Types.ts", () => {
  it("is what scripts/types.mjs writes from the contract, naming no unpublished package", () => {
    const script = fileURLToPath(new URL("../scripts/types.mjs", import.meta.url))
    const run = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" })
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
  }, 60_000)
})
