/**
 * `GET /links` for a merchant with many links (migration 0017): the `starting_after` cursor
 * walks the same list `offset` does, and each filter is answered from an index: the plan
 * Postgres makes for the list's own statement, on a merchant seeded with 30,000 links.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { PgLive } from "../platform/Sql.js"

const NO_FILTERS: LinksRepo.LinkQuery = {
  estados: null,
  desde: null,
  hasta: null,
  palabras: [],
  min: null,
  max: null,
  conPropina: null,
  reembolso: null,
  origen: null,
  limit: 50,
  offset: 0,
  startingAfter: null
}

const SEEDED = 100_000

describe("GET /links for a big merchant", () => {
  let server: TestServer
  let db: Pg.Client
  let key: string
  let otherKey: string
  let owner: LinksRepo.Owner
  let runtime: ManagedRuntime.ManagedRuntime<PgClient.PgClient, unknown>
  beforeAll(async () => {
    server = await startServer({ settings: { apiPorMinuto: 100_000 } })
    key = (await registerMerchant(server.url)).key
    otherKey = (await registerMerchant(server.url)).key
    db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    const codigo = key.split(":")[0]
    const { rows } = await db.query("select id from comercios where codigo = $1", [codigo])
    // Links made over a year: a tenth cancelled, a tenth paid, a few in review; a word in a few.
    await db.query(
      `insert into links (id, comercio_id, mode, estado, monto, concepto, busqueda, created_at, paid_at, expires_at)
       select gen_random_uuid(), $1, 'test',
         case when i % 2003 = 0 then 'revision' when i % 10 = 0 then 'cancelado' when i % 5 = 0 then 'pagado'
           else 'pendiente' end,
         100 + i, 'Pedido ' || i || case when i % 997 = 0 then ' zapatos' else '' end,
         'pedido ' || i || case when i % 997 = 0 then ' zapatos' else '' end,
         now() - (i || ' minutes')::interval * 17,
         case when i % 5 = 0 and i % 10 <> 0 then now() - (i || ' minutes')::interval * 17 + interval '1 minute' end,
         now() + interval '30 days'
       from generate_series(1, ${SEEDED}) i`,
      [rows[0].id]
    )
    await db.query("analyze links")
    owner = { comercioId: rows[0].id, mode: "test" }
    runtime = ManagedRuntime.make(PgLive(server.databaseUrl))
  }, 120_000)
  afterAll(async () => {
    await runtime.dispose()
    await db.end()
    await server.close()
  })

  /**
   * The plan Postgres makes for the list's own statement (platform/LinksRepo.ts) with these
   * filters, planned with its values as the server runs it: every node, flattened.
   */
  const planOf = async (filters: Partial<LinksRepo.LinkQuery>) => {
    const [text, params] = await runtime.runPromise(
      Effect.map(PgClient.PgClient, (sql) =>
        LinksRepo.listStatement(sql, owner, { ...NO_FILTERS, ...filters }, new Date(), "id").compile()
      )
    )
    const { rows } = await db.query(`explain (format json) ${text}`, params as Array<unknown>)
    const nodes: Array<{ "Node Type": string; "Index Name"?: string; "Relation Name"?: string }> = []
    const walk = (node: (typeof nodes)[number] & { Plans?: Array<never> }) => {
      nodes.push(node)
      for (const child of node.Plans ?? []) walk(child)
    }
    walk(rows[0]["QUERY PLAN"][0].Plan)
    const found = {
      seqScans: nodes.filter((n) => n["Node Type"] === "Seq Scan").length,
      indexes: nodes.flatMap((n) => (n["Index Name"] === undefined ? [] : [n["Index Name"]]))
    }
    return found
  }

  it("starting_after walks the list page by page, as offset does", async () => {
    const byOffset = await call(server.url, "GET", "/switch/v1/links?limit=200&offset=200", { key })
    const first = await call(server.url, "GET", "/switch/v1/links?limit=200", { key })
    const last = first.body.data?.at?.(-1) ?? first.body.at(-1)
    const next = await call(server.url, "GET", `/switch/v1/links?limit=200&starting_after=${last.id}`, {
      key
    })
    expect(next.status).toBe(200)
    const ids = (r: typeof next) =>
      (Array.isArray(r.body) ? r.body : r.body.data).map((l: { id: string }) => l.id)
    expect(ids(next)).toEqual(ids(byOffset))
    expect(ids(next)).toHaveLength(200)
  })

  it("a cursor that is not one of the caller's links gives an empty page; a malformed one a 400", async () => {
    const first = await call(server.url, "GET", "/switch/v1/links?limit=1", { key })
    const id = (Array.isArray(first.body) ? first.body : first.body.data)[0].id
    const foreign = await call(server.url, "GET", `/switch/v1/links?starting_after=${id}`, { key: otherKey })
    expect(foreign.status).toBe(200)
    expect(Array.isArray(foreign.body) ? foreign.body : foreign.body.data).toEqual([])
    const unknown = await call(server.url, "GET", `/switch/v1/links?starting_after=${randomUUID()}`, { key })
    expect(Array.isArray(unknown.body) ? unknown.body : unknown.body.data).toEqual([])
    const bad = await call(server.url, "GET", "/switch/v1/links?starting_after=abc", { key })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "validation", parametro: "starting_after" })
  })

  it("each filter is read from an index, never by scanning the merchant's links", async () => {
    const readBy = async (filters: Partial<LinksRepo.LinkQuery>, index: string) => {
      const plan = await planOf(filters)
      expect(plan.seqScans, JSON.stringify(filters)).toBe(0)
      expect(plan.indexes, JSON.stringify(filters)).toContain(index)
    }
    await readBy({}, "links_newest")
    await readBy({ startingAfter: await idAt(60_000) }, "links_newest")
    // A rare state is read through the state's index; a common one may walk the newest first.
    await readBy({ estados: ["revision"] }, "links_by_estado")
    expect((await planOf({ estados: ["cancelado"] })).seqScans).toBe(0)
    expect((await planOf({ estados: ["expirado"] })).seqScans).toBe(0)
    await readBy({ desde: new Date(Date.now() - 3 * 3600_000) }, "links_by_fecha")
    // A word no link has is looked up in the trigram index; a rarer or commoner one may walk the
    // newest first (the planner's guess at a word's share comes from a sample), never the table.
    await readBy({ palabras: ["inexistente"] }, "links_busqueda")
    // A narrow amount range reads its links by amount (migration 0024); a wide one may walk.
    await readBy({ min: 50_000, max: 50_100 }, "links_by_monto")
    expect((await planOf({ min: 100, max: 10_000_000 })).seqScans).toBe(0)
    expect((await planOf({ palabras: ["zapatos"] })).seqScans).toBe(0)
    // And through the API, the same filters answer what they should.
    const review = await call(server.url, "GET", "/switch/v1/links?estado=revision", { key })
    expect(rows(review)).toHaveLength(Math.floor(SEEDED / 2003))
    const words = await call(server.url, "GET", "/switch/v1/links?q=zapatos&limit=200", { key })
    expect(rows(words)).toHaveLength(Math.floor(SEEDED / 997))
    const amounts = await call(server.url, "GET", "/switch/v1/links?min=500&max=501&limit=200", { key })
    expect(rows(amounts)).toHaveLength(101)
  })

  it("a page is chosen on the ordering keys, then only its links are read whole; the answers stay the plain order's", async () => {
    // The trigram or ordering index finds the page's keys; the table's rows are read by id.
    const words = await planOf({ palabras: ["zapatos"] })
    expect(words.seqScans).toBe(0)
    expect(words.indexes).toContain("links_pkey")
    const ids = (reply: { body: unknown }) => rows(reply).map((l) => (l as { id: string }).id)
    const codigo = key.split(":")[0]
    const plain = async (where: string, limit: number, offset: number) =>
      (
        await db.query(
          `select id from links where comercio_id = (select id from comercios where codigo = $1)
             and mode = 'test' and ${where} order by created_at desc, id desc limit $2 offset $3`,
          [codigo, limit, offset]
        )
      ).rows.map((r) => r.id as string)
    const cases: ReadonlyArray<readonly [string, string, number, number]> = [
      ["q=zapatos&limit=200&offset=20", "busqueda like '%zapatos%'", 200, 20],
      // A word that can begin an id also finds the links whose id it begins (LinksRepo's idRange).
      [
        "q=pedido%2012&limit=30&offset=5",
        "busqueda like '%pedido%' and (busqueda like '%12%' or id::text like '12%')",
        30,
        5
      ],
      ["estado=cancelado&limit=20&offset=4000", "estado = 'cancelado'", 20, 4_000],
      ["limit=200&offset=99900", "true", 200, 99_900],
      ["min=150&max=900&q=zapatos", "monto between 15000 and 90000 and busqueda like '%zapatos%'", 50, 0]
    ]
    for (const [query, where, limit, offset] of cases) {
      const reply = await call(server.url, "GET", `/switch/v1/links?${query}`, { key })
      expect(reply.status, query).toBe(200)
      const expected = await plain(where, limit, offset)
      expect(expected.length, query).toBeGreaterThan(0)
      expect(ids(reply), query).toEqual(expected)
    }
  })

  const rows = (reply: { body: unknown }) =>
    (Array.isArray(reply.body) ? reply.body : (reply.body as { data: Array<unknown> }).data) as Array<unknown>

  /** The id of the merchant's `n`-th newest link. */
  const idAt = async (n: number) => {
    const { rows } = await db.query(
      "select id from links where comercio_id = (select comercio_id from links group by 1 order by count(*) desc limit 1) order by created_at desc, id desc offset $1 limit 1",
      [n]
    )
    return rows[0].id as string
  }
})
