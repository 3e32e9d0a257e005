import { defineConfig } from "vitest/config"

// No test connects off the loopback address (tests/support/loopbackOnly.ts).
const setupFiles = ["../../tests/support/loopbackOnly.ts"]

// `unit`: the pure parts, beside the code. `integration`: the SDK against the real server
// (the built `npm start` entry on embedded Postgres, started once per run by globalSetup).
// The integration project needs apps/server built: turbo's sdk `test` task depends on it.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["src/**/*.test.ts"], setupFiles } },
      {
        test: {
          name: "integration",
          setupFiles,
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/globalSetup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000
        }
      }
    ]
  }
})
