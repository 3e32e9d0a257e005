import { chmodSync } from "node:fs"
import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm", "cjs"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
  // src/bin.ts starts with `#!/usr/bin/env node` (esbuild keeps it); make the output executable.
  onSuccess: async () => {
    chmodSync("dist/bin.js", 0o755)
    chmodSync("dist/bin.cjs", 0o755)
  }
})
