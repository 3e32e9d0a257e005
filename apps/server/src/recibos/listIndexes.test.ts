/**
 * The filters of `GET /transacciones`, `GET /eventos` and a webhook's deliveries answer from an
 * index (migration 0024), on a merchant seeded with 20,000 transactions and notices: each
 * request through the real server moves the scan count of the index its filter should use
 * (Postgres's own statistics), and answers what it should.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

const SEEDED = 20_000
const CALLS = 10

describe("list filters read by an index", () => {
  let server: TestServer
  let db: Pg.Client
  let key: string
  let comercioId: string
  beforeAll(async () => {
    server = await startServer({ settings: { apiPorMinuto: 100_000 } })
    key = (await registerMerchant(server.url)).key
    db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    const { rows } = await db.query("select id from comercios where codigo = $1", [key.split(":")[0]])
    comercioId = rows[0].id
    // A year of transactions: a refund in 997, one in 2003 in review; notices, one in 997 returned.
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, created_at)
       select gen_random_uuid(), $1, 'test',
         case when i % 997 = 0 then 'reembolso' when i % 7 = 0 then 'liquidacion' else 'cobro' end,
         case when i % 2003 = 0 then 'REVISION' else 'LIQUIDADA' end,
         100 + i, now() - make_interval(secs => i * 1577)
       from generate_series(1, ${SEEDED}) i`,
      [comercioId]
    )
    await db.query(
      `insert into eventos (id, comercio_id, mode, evento, data, created_at)
       select gen_random_uuid(), $1, 'test',
         case when i % 997 = 0 then 'link.devuelto' else 'link.pagado' end, '{}'::jsonb,
         now() - make_interval(secs => i * 1577)
       from generate_series(1, ${SEEDED}) i`,
      [comercioId]
    )
    await db.query("analyze transacciones")
    await db.query("analyze eventos")
  }, 120_000)
  afterAll(async () => {
    await db.end()
    await server.close()
  })

  /** How often Postgres has scanned the index `name` (its statistics reach readers within seconds). */
  const scans = async (name: string) =>
    Number(
      (await db.query("select idx_scan from pg_stat_user_indexes where indexrelname = $1", [name])).rows[0]
        ?.idx_scan ?? 0
    )

  /** Calls `path` CALLS times; the index `index` must have been scanned at least that often. */
  const readBy = async (path: string, index: string, keyFor = key) => {
    const before = await scans(index)
    let answer: unknown
    for (let i = 0; i < CALLS; i++) {
      const reply = await call(server.url, "GET", path, { key: keyFor })
      expect(reply.status, path).toBe(200)
      answer = reply.body
    }
    const deadline = Date.now() + 30_000
    while ((await scans(index)) - before < CALLS && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250))
    expect((await scans(index)) - before, `${path} reads ${index}`).toBeGreaterThanOrEqual(CALLS)
    return answer as Array<Record<string, unknown>>
  }

  it("GET /transacciones by estado and by operacion, a value no row has included", async () => {
    const review = await readBy(
      "/switch/v1/transacciones?estado=REVISION&limit=200",
      "transacciones_by_estado"
    )
    expect(review).toHaveLength(Math.floor(SEEDED / 2003))
    expect(review.every((t) => t.estado === "REVISION")).toBe(true)
    expect(await readBy("/switch/v1/transacciones?estado=RECHAZADA", "transacciones_by_estado")).toEqual([])
    const refunds = await readBy(
      "/switch/v1/transacciones?operacion=reembolso&limit=200",
      "transacciones_by_operacion"
    )
    expect(refunds).toHaveLength(Math.floor(SEEDED / 997))
    const times = refunds.map((t) => String(t.created_at))
    expect(times).toEqual([...times].sort().reverse())
  })

  it("GET /eventos by evento, a type no notice has included", async () => {
    const returned = await readBy("/switch/v1/eventos?evento=link.devuelto&limit=200", "eventos_by_evento")
    expect(returned).toHaveLength(Math.floor(SEEDED / 997))
    expect(returned.every((e) => e.evento === "link.devuelto")).toBe(true)
    expect(await readBy("/switch/v1/eventos?evento=link.acreditado", "eventos_by_evento")).toEqual([])
  })

  it("a webhook's deliveries for a live key, both modes, newest first", async () => {
    const webhookId = randomUUID()
    await db.query(
      `insert into webhooks (id, comercio_id, url, secret, eventos, estado)
       values ($1, $2, 'https://example.com/hook', 'secreto', '{*}', 'activo')`,
      [webhookId, comercioId]
    )
    await db.query(
      `insert into webhook_entregas (id, webhook_id, comercio_id, evento, mode, cuerpo, estado, created_at)
       select gen_random_uuid(), $1, $2, 'link.pagado', case when i % 2 = 0 then 'live' else 'test' end,
         '{}', 'entregado', now() - make_interval(secs => i)
       from generate_series(1, ${SEEDED}) i`,
      [webhookId, comercioId]
    )
    await db.query("analyze webhook_entregas")
    const liveKey = await approveMerchant(server, key.split(":")[0] ?? "")
    const deliveries = await readBy(
      `/switch/v1/webhooks/${webhookId}/deliveries`,
      "webhook_entregas_newest",
      liveKey
    )
    expect(deliveries).toHaveLength(50)
    expect(new Set(deliveries.map((d) => d.mode))).toEqual(new Set(["test", "live"]))
    const times = deliveries.map((d) => String(d.created_at))
    expect(times).toEqual([...times].sort().reverse())
  })
})
