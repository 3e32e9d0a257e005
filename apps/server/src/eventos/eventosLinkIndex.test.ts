/**
 * Migration 0022's index of events by link (`eventos_link`): it exists, and on a seeded table
 * (a merchant with 30,000 events over 10,000 links, beside another merchant's 120,000) the
 * queries that read a link's events by `data->>'link_id'` (the link's history, a bulk resend's
 * last notices) use it. The other merchant's events are there because the table is shared: with
 * one merchant alone, the planner could fairly read all 30,000 rows for a 500-link part (it did,
 * now and then, depending on what ANALYZE sampled).
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client
let comercio: string
const links = Array.from({ length: 10_000 }, () => randomUUID())

beforeAll(async () => {
  server = await startServer()
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  const { codigo } = await registerMerchant(server.url)
  comercio = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
  const other = await registerMerchant(server.url)
  await db.query(
    `insert into eventos (id, comercio_id, mode, evento, data, created_at)
     select gen_random_uuid(), c.id, case when n % 2 = 0 then 'test' else 'live' end, 'link.pagado',
       jsonb_build_object('link_id', gen_random_uuid()::text), now() - make_interval(secs => n)
     from generate_series(0, 119999) n, comercios c where c.codigo = $1`,
    [other.codigo]
  )
  await db.query(
    `insert into eventos (id, comercio_id, mode, evento, data, created_at)
     select gen_random_uuid(), $1, case when n % 2 = 0 then 'test' else 'live' end, 'link.pagado',
       jsonb_build_object('link_id', ($2::text[])[1 + n % 10000]), now() - make_interval(secs => n)
     from generate_series(0, 29999) n`,
    [comercio, links]
  )
  await db.query("analyze eventos")
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const plan = async (text: string, values: Array<unknown>) =>
  (await db.query(`explain ${text}`, values)).rows.map((r) => r["QUERY PLAN"]).join("\n")

describe("events by link (migration 0022)", () => {
  it("the expression index exists, merchant and mode first", async () => {
    const index = await db.query(
      "select indexdef from pg_indexes where tablename = 'eventos' and indexname = 'eventos_link'"
    )
    expect(index.rows).toHaveLength(1)
    expect(index.rows[0].indexdef).toMatch(
      /\(comercio_id, mode, \(\(data ->> 'link_id'::text\)\), created_at DESC\)/
    )
  })

  it("a link's history reads its events through it", async () => {
    const text = `select id, evento, created_at from eventos
      where comercio_id = $1 and mode = $2 and created_at >= $3 and data->>'link_id' = $4 order by seq`
    expect(await plan(text, [comercio, "test", new Date(Date.now() - 86_400_000), links[42]])).toContain(
      "eventos_link"
    )
  })

  it("a bulk resend's last notice per link reads through it", async () => {
    const text = `select distinct on (data->>'link_id') data->>'link_id' as link_id, id from eventos
      where comercio_id = $1 and mode = $2 and data->>'link_id' = any($3::text[])
      order by data->>'link_id', created_at desc, id desc`
    expect(await plan(text, [comercio, "live", links.slice(0, 500)])).toContain("eventos_link")
  })
})
