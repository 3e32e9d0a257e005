import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["support/loopbackOnly.ts"]

// `npm run test:reliability`: fuzzing, kill -9 recovery, concurrency across processes and log
// hygiene against the built server. CI runs it while it stays under 5 minutes.
export default defineConfig({
  test: {
    setupFiles,
    include: ["reliability/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 180_000,
    fileParallelism: false
  }
})
