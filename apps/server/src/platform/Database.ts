/** Creating databases and running migrations outside a server (start-up and tests). */
import { Effect, Layer, ManagedRuntime } from "effect"
import Pg from "pg"
import type { ServerSettings } from "../Config.js"
import { Settings } from "../Config.js"
import { MerchantsService, MerchantsServiceLive } from "../merchants/MerchantsService.js"
import { sealLegacy } from "./SealLegacy.js"
import { SqlLive } from "./Sql.js"

/** Creates `name` on the server of `adminUrl` (a url to any existing database) unless it exists. */
export const ensureDatabase = async (adminUrl: string, name: string, template?: string): Promise<void> => {
  const client = new Pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name])
    if (found.rowCount === 0) {
      const quoted = `"${name.replaceAll('"', '""')}"`
      await client.query(
        `create database ${quoted}${template === undefined ? "" : ` template "${template}"`}`
      )
    }
  } finally {
    await client.end()
  }
}

/**
 * Runs the migrations on `url`, seals secrets stored before sealing existed and, when asked, seeds
 * the demo merchant; returns its key.
 */
export const prepare = async (
  url: string,
  settings: ServerSettings,
  options: { readonly seed: boolean; readonly prepared?: boolean }
): Promise<{ codigo: string; key: string } | null> => {
  const runtime = ManagedRuntime.make(
    MerchantsServiceLive.pipe(
      Layer.provideMerge(SqlLive(url, { maxConnections: 2, prepared: options.prepared ?? true })),
      Layer.provideMerge(Layer.succeed(Settings, settings))
    )
  )
  try {
    return await runtime.runPromise(
      Effect.zipRight(
        sealLegacy,
        options.seed ? Effect.flatMap(MerchantsService, (m) => m.seedDemo) : Effect.succeed(null)
      )
    )
  } finally {
    await runtime.dispose()
  }
}
