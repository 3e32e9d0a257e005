import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["support/loopbackOnly.ts"]

// `npm run test:multi`: the reliability suites that need more than one machine, against Debian's
// PostgreSQL behind PgBouncer, two servers and haproxy (support/multi.ts). Needs
// `apt-get install postgresql pgbouncer haproxy` and a build; CI runs it after test:reliability.
export default defineConfig({
  test: {
    setupFiles,
    include: ["multi/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    fileParallelism: false
  }
})
