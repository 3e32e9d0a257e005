import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["support/loopbackOnly.ts"]

// `npm test` runs the suites that need only Node; the browser suite needs Debian's Chromium
// and runs with `npm run test:browser` (CI installs Chromium and runs both).
export default defineConfig({
  test: {
    setupFiles,
    include: ["cli/**/*.test.ts", "mcp/**/*.test.ts", "support/**/*.test.ts", "webhooks/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
