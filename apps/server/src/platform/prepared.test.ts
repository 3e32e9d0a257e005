/**
 * Named prepared statements (platform/Prepared.ts) on a real database: repeated statements are
 * prepared once per connection, the registry stays bounded, a statement whose table changed
 * under it fails once and then runs again, and turning the feature off names nothing.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase } from "../../test/harness.js"
import { PLANNED_EACH_TIME, registry } from "./Prepared.js"
import { PgLive } from "./Sql.js"

let databaseUrl: string
const runtimes: Array<ManagedRuntime.ManagedRuntime<PgClient.PgClient, unknown>> = []

/** One connection, so every statement of a test meets the same session. */
const client = (prepared: boolean) => {
  const runtime = ManagedRuntime.make(PgLive(databaseUrl, { maxConnections: 1, prepared }).pipe(Layer.orDie))
  runtimes.push(runtime)
  return <A>(f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
    runtime.runPromise(Effect.flatMap(PgClient.PgClient, f))
}

const preparedHere = (sql: PgClient.PgClient) =>
  sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`

beforeAll(async () => {
  databaseUrl = await freshDatabase()
})
afterAll(() => Promise.all(runtimes.map((r) => r.dispose())))

describe("statement registry", () => {
  it("names a text from its second run on, always with the same name", () => {
    const names = registry({ after: 2, max: 10, maxLength: 100 })
    expect(names.nameOf("select $1")).toBeUndefined()
    const name = names.nameOf("select $1")
    expect(name).toBeDefined()
    expect(names.nameOf("select $1")).toBe(name)
    expect(names.nameOf("select $1, $2")).toBeUndefined()
  })

  it("stops naming at its limit and never names long texts", () => {
    const names = registry({ after: 1, max: 3, maxLength: 20 })
    const given = Array.from({ length: 10 }, (_, i) => names.nameOf(`select ${i}, $1`))
    expect(given.filter((n) => n !== undefined)).toHaveLength(3)
    expect(new Set(given.filter((n) => n !== undefined)).size).toBe(3)
    expect(names.size()).toBe(3)
    const other = registry({ after: 1, max: 3, maxLength: 20 })
    expect(other.nameOf(`select $1 ${"x".repeat(30)}`)).toBeUndefined()
  })

  it("never names a statement marked to be planned each time", () => {
    const names = registry({ after: 1, max: 10, maxLength: 100 })
    for (let i = 0; i < 5; i++) expect(names.nameOf(`${PLANNED_EACH_TIME} select $1`)).toBeUndefined()
    expect(names.size()).toBe(0)
  })
})

describe("prepared statements on a real database", () => {
  it("prepares a repeated parameterised statement once and reuses it", async () => {
    const run = client(true)
    const result = await run((sql) =>
      Effect.gen(function* () {
        const answers: Array<number> = []
        for (let i = 0; i < 5; i++) {
          const rows = yield* sql<{ n: number }>`select ${i}::int + 1 as n`
          answers.push(rows[0]?.n ?? -1)
        }
        return { answers, prepared: yield* preparedHere(sql) }
      })
    )
    expect(result.answers).toEqual([1, 2, 3, 4, 5])
    expect(result.prepared).toHaveLength(1)
    expect(result.prepared[0]?.statement).toContain("+ 1 as n")
  })

  it("a statement whose table gained a column fails once (in a transaction), then runs prepared again", async () => {
    const run = client(true)
    await run((sql) =>
      sql`create table prepared_probe (a int)`.pipe(
        Effect.zipRight(sql`insert into prepared_probe values (1)`)
      )
    )
    const select = (sql: PgClient.PgClient) =>
      sql<Record<string, unknown>>`select * from prepared_probe where a = ${1}`
    await run((sql) => Effect.all([select(sql), select(sql), select(sql)]))
    await run((sql) => sql`alter table prepared_probe add column b int default 7`)
    // Inside a transaction, where the stale statement cannot even be deallocated.
    const stale = await run((sql) => Effect.either(sql.withTransaction(select(sql))))
    expect(stale._tag).toBe("Left")
    const again = await run((sql) =>
      Effect.all([sql.withTransaction(select(sql)), select(sql), preparedHere(sql)])
    )
    expect(again[0]).toEqual([{ a: 1, b: 7 }])
    expect(again[1]).toEqual([{ a: 1, b: 7 }])
    expect(again[2].some((s) => s.statement.includes("from prepared_probe"))).toBe(true)
  })

  it("names nothing when turned off (a pooler in transaction mode)", async () => {
    const run = client(false)
    const prepared = await run((sql) =>
      Effect.zipRight(
        Effect.all([sql`select ${1}::int`, sql`select ${2}::int`, sql`select ${3}::int`]),
        preparedHere(sql)
      )
    )
    expect(prepared).toEqual([])
  })
})
