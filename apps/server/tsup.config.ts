import { defineConfig } from "tsup"

export default defineConfig({
  // The QR thread (links/QrPool.ts) is its own script beside the server's.
  entry: { main: "src/main.ts", QrWorker: "src/links/QrWorker.ts" },
  format: ["esm"],
  splitting: false,
  sourcemap: true,
  clean: true,
  target: "node20"
})
