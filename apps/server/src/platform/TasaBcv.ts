/**
 * The official BCV rate (bolivars per dollar) that converts dollar limits and caps. Operators
 * set it with `PUT /admin/v1/tasa-bcv`; every set is a new row, so the history stays and the
 * current rate is the latest row, read from Postgres (shared by every server process).
 */
import { SqlClient } from "@effect/sql"
import { Money } from "@switch/core"
import { Effect, Either, Option } from "effect"

/** A rate and when an operator set it. */
export interface TasaBcv {
  readonly rate: Money.Rate
  readonly actualizadaEn: Date
}

const SCALE = 100_000_000n

/** The rate as the exact decimal text `numeric(20, 8)` stores. */
const toNumericText = (rate: Money.Rate): string =>
  `${rate.scaled / SCALE}.${(rate.scaled % SCALE).toString().padStart(8, "0")}`

/** The current rate (the latest row); none until an operator has set one. */
export const currentRate: Effect.Effect<Option.Option<TasaBcv>, never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    // numeric is read as text (see platform/Sql.ts), so no float ever holds the rate.
    const rows = yield* sql<{ ves_por_usd: string; created_at: Date }>`
      select ves_por_usd::text as ves_por_usd, created_at from tasas_bcv order by id desc limit 1`
    const row = rows[0]
    if (row === undefined) return Option.none()
    const rate = Money.rate(row.ves_por_usd)
    if (Either.isLeft(rate)) return yield* Effect.dieMessage("tasas_bcv holds an invalid rate")
    return Option.some({ rate: rate.right, actualizadaEn: row.created_at })
  }
).pipe(Effect.orDie)

/** Records a new current rate. */
export const setRate = (rate: Money.Rate): Effect.Effect<TasaBcv, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ created_at: Date }>`
      insert into tasas_bcv (ves_por_usd) values (${toNumericText(rate)}::numeric) returning created_at`
    const row = rows[0]
    if (row === undefined) return yield* Effect.dieMessage("tasas_bcv insert returned nothing")
    return { rate, actualizadaEn: row.created_at }
  }).pipe(Effect.orDie)

/** The API's view of a rate. */
export const view = (tasa: TasaBcv) => ({
  ves_por_usd: Money.rateToNumber(tasa.rate),
  actualizada_en: tasa.actualizadaEn.toISOString()
})
