/**
 * Direct-API idempotency keys are UUIDs and are now kept in lower case, so a key sent in upper
 * case finds the operation stored under it. Keys stored before keep their operation: each is
 * lowered unless the merchant has another key equal to it but for case (then they were
 * separate operations, and each is left as it is).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    update transacciones t set idempotency_key = lower(t.idempotency_key)
    where t.idempotency_key <> lower(t.idempotency_key)
      and not exists (
        select 1 from transacciones o
        where o.comercio_id = t.comercio_id and o.id <> t.id
          and lower(o.idempotency_key) = lower(t.idempotency_key)
      )`
})
