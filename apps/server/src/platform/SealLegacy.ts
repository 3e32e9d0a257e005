/**
 * Seals the secrets stored before sealing existed (Sealed.ts): webhook signing secrets and the
 * WhatsApp Flows bindings' keys and secrets. Runs at every start, after the migrations; sealed
 * values are skipped, and a value that changes between the read and the write is left as it is
 * now (sealed by whoever wrote it, or by the next start).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import * as Sealed from "./Sealed.js"

const FLOW_COLUMNS = ["monto_secret", "app_secret", "private_key"] as const

/** Seals every unsealed stored secret; answers how many it sealed. */
export const sealLegacy = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const { secret } = yield* Settings
  let sealed = 0
  const webhooks = yield* sql<{ id: string; secret: string }>`
    select id, secret from webhooks where secret not like 'v1:%'`
  for (const row of webhooks) {
    const updated = yield* sql`
      update webhooks set secret = ${Sealed.seal(secret, "webhook", row.id, row.secret)}
      where id = ${row.id} and secret = ${row.secret} returning id`
    sealed += updated.length
  }
  for (const column of FLOW_COLUMNS) {
    const rows = yield* sql<{ id: string; value: string }>`
      select id, ${sql(column)} as value from flow_bindings where ${sql(column)} not like 'v1:%'`
    for (const row of rows) {
      const updated = yield* sql`
        update flow_bindings set ${sql(column)} = ${Sealed.seal(secret, `flow:${column}`, row.id, row.value)}
        where id = ${row.id} and ${sql(column)} = ${row.value} returning id`
      sealed += updated.length
    }
  }
  if (sealed > 0) yield* Effect.logInfo(`secretos guardados sin sellar, ahora sellados: ${sealed}`)
  return sealed
}).pipe(Effect.orDie)
