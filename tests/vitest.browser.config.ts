import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["support/loopbackOnly.ts"]

export default defineConfig({
  test: {
    setupFiles,
    include: ["browser/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false
  }
})
