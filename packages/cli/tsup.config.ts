import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm", "cjs"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
  banner: ({ format }) => (format === "esm" ? { js: "" } : {})
})
