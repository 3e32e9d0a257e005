import { chmodSync } from "node:fs"
import { defineConfig } from "tsup"

// The SDK is bundled in, code and declarations, so `npm i -g` of this package alone works: its
// dependencies are published packages only (commander, qrcode).
export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm", "cjs"],
  noExternal: [/^@switch\//],
  // The SDK's declarations are one self-contained file, inlined here.
  dts: { entry: "src/index.ts", resolve: [/^@switch\//] },
  sourcemap: true,
  clean: true,
  target: "node20",
  // src/bin.ts starts with `#!/usr/bin/env node` (esbuild keeps it); make the output executable.
  onSuccess: async () => {
    chmodSync("dist/bin.js", 0o755)
    chmodSync("dist/bin.cjs", 0o755)
  }
})
