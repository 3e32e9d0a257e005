import { defineConfig } from "tsup"

export default defineConfig({
  entry: { main: "src/main.ts" },
  format: ["esm"],
  splitting: false,
  sourcemap: true,
  clean: true,
  target: "node20"
})
