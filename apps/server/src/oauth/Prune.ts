/**
 * OAuth housekeeping (run with the rest in Http.ts): codes a day past their expiry, tokens a day
 * past theirs, and grants revoked over 90 days ago (their tokens go with them). A bounded batch
 * per round; safe to race.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const BATCH = 5_000

export const pruneOAuth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    delete from oauth_codigos where hash in (
      select hash from oauth_codigos where expires_at < now() - interval '1 day' limit ${BATCH})`
  yield* sql`
    delete from oauth_tokens where hash in (
      select hash from oauth_tokens where expires_at < now() - interval '1 day' limit ${BATCH})`
  yield* sql`
    delete from oauth_concesiones where id in (
      select id from oauth_concesiones where revoked_at < now() - interval '90 days' limit ${BATCH})`
}).pipe(Effect.orDie)
