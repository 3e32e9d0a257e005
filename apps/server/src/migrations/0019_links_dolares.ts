/**
 * Links priced in dollars from the portal (issue 33): the dollar price (US cents) and the BCV
 * rate (bolivars per dollar) that converted it when the link was made. `monto` stays the
 * bolivars the payer pays; both are null on every other link.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table links add column if not exists monto_usd bigint, add column if not exists tasa_bcv numeric(20, 8)`
})
