import { defineConfig } from "tsup"

// Declarations come from tsc (`tsconfig.build.json`): the bundled .d.ts of tsup drops the
// value half of names that are both a Schema and a type (`LinkCreate`) inside namespaces.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20"
})
