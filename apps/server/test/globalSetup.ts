/**
 * One embedded Postgres per test run, with a migrated template database; each test file
 * makes its own database from the template (fast and independent).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Option, Redacted } from "effect"
import type { TestProject } from "vitest/node"
import { prepare } from "../src/Prepare.js"
import { ensureDatabase } from "../src/platform/Database.js"
import { startPostgres } from "../src/platform/Postgres.js"
import { testSettings } from "./settings.js"

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string
    pgTemplate: string
  }
}

export const TEMPLATE = "switch_template"

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "switch-test-pg-"))
  const pg = await startPostgres({ dir })
  await ensureDatabase(pg.url("postgres"), TEMPLATE)
  await prepare(
    pg.url(TEMPLATE),
    testSettings({
      baseUrl: "http://127.0.0.1",
      secret: Redacted.make("test"),
      adminToken: Option.none(),
      registrosPorHora: 100
    }),

    { seed: false }
  )
  project.provide("pgAdminUrl", pg.url("postgres"))
  project.provide("pgTemplate", TEMPLATE)
  return async () => {
    await pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
