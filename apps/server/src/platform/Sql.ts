/** The Postgres client and the migrations, as layers. */
import { NodeContext } from "@effect/platform-node"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { Layer, Redacted } from "effect"
import Pg from "pg"
import init from "../migrations/0001_init.js"
import checkout from "../migrations/0002_checkout.js"
import webhooks from "../migrations/0003_webhooks.js"
import direct from "../migrations/0004_direct.js"
import unloggedCounters from "../migrations/0005_unlogged_counters.js"
import flows from "../migrations/0006_flows.js"

/** int8 (bigint cents, counts) as JS numbers: every amount fits in a safe integer. */
const INT8_OID = 20
const NUMERIC_OID = 1700

export const PgLive = (url: string, maxConnections = 20) =>
  PgClient.layer({
    url: Redacted.make(url),
    maxConnections,
    applicationName: "switch",
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === INT8_OID) return (value: string) => Number(value)
        if (oid === NUMERIC_OID) return (value: string) => value
        return Pg.types.getTypeParser(oid, format)
      }) as typeof Pg.types.getTypeParser
    }
  })

export const migrations = PgMigrator.fromRecord({
  "0001_init": init,
  "0002_checkout": checkout,
  "0003_webhooks": webhooks,
  "0004_direct": direct,
  "0005_unlogged_counters": unloggedCounters,
  "0006_flows": flows
})

/** Runs pending migrations; several processes starting at once wait on the migrator's lock. */
export const MigratorLive = PgMigrator.layer({ loader: migrations }).pipe(Layer.provide(NodeContext.layer))

/** The client with its schema up to date. */
export const SqlLive = (url: string, maxConnections?: number) =>
  MigratorLive.pipe(Layer.provideMerge(PgLive(url, maxConnections)))
