import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["../../tests/support/loopbackOnly.ts"]

export default defineConfig({
  test: {
    setupFiles,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000
  }
})
