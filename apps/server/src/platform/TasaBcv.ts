/**
 * The official BCV rate (bolivars per dollar) that converts dollar limits, caps and dollar-priced
 * links. Every rate is a new row of `tasas_bcv`, so the history stays and the rate in force is the
 * latest row, read from Postgres (shared by every server process). Who set each is kept: the
 * admin token (`token`), an operator by hand (`operador`) or the source (`url`).
 *
 * A jump (issue 41): a new rate more than SWITCH_TASA_SALTO_MAX_PCT away from the one in force is
 * not recorded but proposed (`tasas_bcv_propuestas`): nothing converts at it until a `tesoreria`
 * operator other than its proposer confirms it, which records it then. That holds for every way
 * a rate comes in (the console, the admin token, the source): a typo or a unit slip (36.5 written
 * 3650) would otherwise reprice every dollar link at once. One proposal waits at a time; a newer
 * one replaces it. Proposing and recording take one advisory lock, so two rates arriving together
 * are compared one after the other.
 */
import { SqlClient } from "@effect/sql"
import { Money } from "@switch/core"
import { Effect, Either, Option } from "effect"

/** A rate and when it was set. */
export interface TasaBcv {
  readonly rate: Money.Rate
  readonly actualizadaEn: Date
}

/** Who brings a rate: the admin token, an operator by hand, or the source. */
export interface Quien {
  readonly fuente: "token" | "operador" | "url"
  readonly operadorId: string | null
  readonly actor: string
}

/** A rate waiting for a second person, as the console and the admin API show it. */
export interface Propuesta {
  readonly id: number
  readonly ves_por_usd: number
  readonly anterior: number
  /** How far from the rate in force when proposed, in percent (2 decimals). */
  readonly salto_pct: number
  readonly fuente: Quien["fuente"]
  readonly operador_id: string | null
  readonly propuesta_por: string | null
  readonly nota: string | null
  readonly creada_en: string
}

/** What became of a rate brought in: recorded at once, or waiting as a proposal. */
export type Resultado =
  | { readonly _tag: "Fijada"; readonly id: number; readonly tasa: TasaBcv }
  | { readonly _tag: "Pendiente"; readonly propuesta: Propuesta; readonly nueva: boolean }

/** Why a proposal could not be confirmed or rejected. */
export type Rechazo = "no_existe" | "no_pendiente" | "mismo_operador"

const SCALE = 100_000_000n
/** Default of SWITCH_TASA_SALTO_MAX_PCT. */
export const SALTO_MAX_PCT = 20

/** The rate as the exact decimal text `numeric(20, 8)` stores. */
const toNumericText = (rate: Money.Rate): string =>
  `${rate.scaled / SCALE}.${(rate.scaled % SCALE).toString().padStart(8, "0")}`

/** A stored rate (`numeric(20, 8)`, checked positive by the table, so always readable). */
const fromText = (text: string): Money.Rate =>
  Either.getOrThrowWith(Money.rate(text), () => new Error("tasas_bcv holds an invalid rate"))

const distancia = (a: Money.Rate, b: Money.Rate): bigint =>
  a.scaled > b.scaled ? a.scaled - b.scaled : b.scaled - a.scaled

/** The distance from `anterior` to `nueva`, in hundredths of a percent, rounded down. */
export const saltoCentesimas = (anterior: Money.Rate, nueva: Money.Rate): bigint =>
  (distancia(anterior, nueva) * 10_000n) / anterior.scaled

/** Whether `nueva` is more than `maxPct` percent away from `anterior` (exact, in integers). */
export const excedeSalto = (anterior: Money.Rate, nueva: Money.Rate, maxPct: number): boolean =>
  distancia(anterior, nueva) * 10_000n > BigInt(Math.round(maxPct * 100)) * anterior.scaled

/** The rate in force (the latest row); none until one has been set. */
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

/** Records a rate in force, with who set it; call it under {@link lock}. */
const registrar = (sql: SqlClient.SqlClient, rate: Money.Rate, quien: Quien) =>
  Effect.gen(function* () {
    const [row] = yield* sql<{ id: number; created_at: Date }>`
      insert into tasas_bcv (ves_por_usd, fuente, operador_id, actor)
      values (${toNumericText(rate)}::numeric, ${quien.fuente}, ${quien.operadorId}, ${quien.actor})
      returning id::int as id, created_at`
    if (row === undefined) return yield* Effect.dieMessage("tasas_bcv insert returned nothing")
    return { id: row.id, tasa: { rate, actualizadaEn: row.created_at } }
  })

/** Rates are compared and recorded one at a time across processes. */
const lock = (sql: SqlClient.SqlClient) => sql`select pg_advisory_xact_lock(hashtext('tasas_bcv'))`

interface PropuestaRow {
  readonly id: number
  readonly ves_por_usd: string
  readonly anterior: string
  readonly fuente: Quien["fuente"]
  readonly operador_id: string | null
  readonly propuesta_por: string | null
  readonly nota: string | null
  readonly estado: string
  readonly created_at: Date
}

const propuestaView = (row: PropuestaRow): Propuesta => ({
  id: row.id,
  ves_por_usd: Money.rateToNumber(fromText(row.ves_por_usd)),
  anterior: Money.rateToNumber(fromText(row.anterior)),
  salto_pct: Number(saltoCentesimas(fromText(row.anterior), fromText(row.ves_por_usd))) / 100,
  fuente: row.fuente,
  operador_id: row.operador_id,
  propuesta_por: row.propuesta_por,
  nota: row.nota,
  creada_en: row.created_at.toISOString()
})

const propuestaRows = (sql: SqlClient.SqlClient, where: { readonly id?: number }) => sql<PropuestaRow>`
  select p.id::int as id, p.ves_por_usd::text as ves_por_usd, p.anterior::text as anterior, p.fuente,
    p.operador_id::text as operador_id, p.actor as propuesta_por, p.nota, p.estado, p.created_at
  from tasas_bcv_propuestas p
  where ${where.id === undefined ? sql`p.estado = 'pendiente'` : sql`p.id = ${where.id}`}`

/** The proposal waiting for a second person, if any. */
export const pendiente: Effect.Effect<Option.Option<Propuesta>, never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* propuestaRows(sql, {})
    return row === undefined ? Option.none() : Option.some(propuestaView(row))
  }
).pipe(Effect.orDie)

/**
 * A rate brought in by `quien`: recorded at once when there is none in force or it is within
 * `maxPct` percent of it; otherwise proposed, replacing a waiting proposal of another value (the
 * same value again leaves the waiting one as it is, so a source asked every hour does not pile
 * them up).
 */
export const proponer = (
  rate: Money.Rate,
  quien: Quien,
  maxPct: number,
  nota?: string
): Effect.Effect<Resultado, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* lock(sql)
        const vigente = yield* currentRate
        if (Option.isNone(vigente) || !excedeSalto(vigente.value.rate, rate, maxPct)) {
          const done = yield* registrar(sql, rate, quien)
          return { _tag: "Fijada" as const, ...done }
        }
        const [waiting] = yield* propuestaRows(sql, {})
        if (
          waiting !== undefined &&
          fromText(waiting.ves_por_usd).scaled === rate.scaled &&
          waiting.fuente === quien.fuente
        )
          return { _tag: "Pendiente" as const, propuesta: propuestaView(waiting), nueva: false }
        yield* sql`
          update tasas_bcv_propuestas set estado = 'reemplazada', resuelta_at = now() where estado = 'pendiente'`
        const [row] = yield* sql<{ id: number }>`
          insert into tasas_bcv_propuestas (ves_por_usd, anterior, fuente, operador_id, actor, nota)
          values (${toNumericText(rate)}::numeric, ${toNumericText(vigente.value.rate)}::numeric, ${quien.fuente},
            ${quien.operadorId}, ${quien.actor}, ${nota ?? null})
          returning id::int as id`
        const [created] = yield* propuestaRows(sql, { id: row?.id ?? 0 })
        if (created === undefined)
          return yield* Effect.dieMessage("tasas_bcv_propuestas insert returned nothing")
        return { _tag: "Pendiente" as const, propuesta: propuestaView(created), nueva: true }
      })
    )
  }).pipe(Effect.orDie)

/**
 * A `tesoreria` operator's answer to a waiting proposal: `confirmar` records its rate (never by
 * its own proposer), `rechazar` drops it (its proposer may withdraw it). The proposal as it was.
 */
export const resolver = (
  id: number,
  decision: "confirmar" | "rechazar",
  operador: { readonly id: string; readonly email: string }
): Effect.Effect<
  Either.Either<{ readonly propuesta: Propuesta; readonly tasaId: number | null }, Rechazo>,
  never,
  SqlClient.SqlClient
> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* lock(sql)
        const [row] = yield* propuestaRows(sql, { id })
        if (row === undefined) return Either.left<Rechazo>("no_existe")
        if (row.estado !== "pendiente") return Either.left<Rechazo>("no_pendiente")
        const propuesta = propuestaView(row)
        if (decision === "rechazar") {
          yield* sql`
            update tasas_bcv_propuestas set estado = 'rechazada', resuelta_por = ${operador.id}, resuelta_at = now()
            where id = ${id}`
          return Either.right({ propuesta, tasaId: null })
        }
        if (row.operador_id === operador.id) return Either.left<Rechazo>("mismo_operador")
        const done = yield* registrar(sql, fromText(row.ves_por_usd), {
          fuente: row.fuente,
          operadorId: row.operador_id,
          actor: row.propuesta_por ?? row.fuente
        })
        yield* sql`
          update tasas_bcv_propuestas set estado = 'confirmada', resuelta_por = ${operador.id}, resuelta_at = now(),
            tasa_id = ${done.id}
          where id = ${id}`
        return Either.right({ propuesta, tasaId: done.id })
      })
    )
  }).pipe(Effect.orDie)

/** The API's view of a rate. */
export const view = (tasa: TasaBcv) => ({
  ves_por_usd: Money.rateToNumber(tasa.rate),
  actualizada_en: tasa.actualizadaEn.toISOString()
})
