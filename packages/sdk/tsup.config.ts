import { defineConfig } from "tsup"

// Declarations come from tsc (tsconfig.build.json), as in @switch/core.
export default defineConfig({
  entry: ["src/index.ts", "src/effect.ts"],
  format: ["esm", "cjs"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20"
})
