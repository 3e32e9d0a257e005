/**
 * The transactions export runs in bounded memory: 150,000 rows (about 20 MB of CSV) stream from
 * a cursor to a client reading as it comes, and the server's heap (this process: the harness
 * runs the server in it) grows by a small part of what holding the rows would take.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

const ROWS = 150_000
/** Holding 150,000 rows as objects and their CSV lines takes well over 100 MB; a stream, a few. */
const MAX_GROWTH_BYTES = 48 * 1024 * 1024

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

describe("GET /transacciones/exportar in bounded memory", () => {
  it("streams 150,000 rows while the heap grows by a fraction of their size", async () => {
    const merchant = await registerMerchant(server.url)
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, propina, referencia_banco, created_at)
       select gen_random_uuid(), c.id, 'test', 'cobro', 'LIQUIDADA', 10000 + g, g % 3, 'REF' || g,
         now() - make_interval(secs => g)
       from comercios c, generate_series(1, $2::int) g where c.codigo = $1`,
      [merchant.codigo, ROWS]
    )
    // Warm the route (its code paths and the pool) before the baseline.
    expect(
      (await call(server.url, "GET", "/switch/v1/transacciones?limit=1", { key: merchant.key })).status
    ).toBe(200)
    const baseline = process.memoryUsage().heapUsed
    let peak = baseline
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed)
    }, 10)
    let bytes = 0
    let newlines = 0
    try {
      const response = await fetch(`${server.url}/switch/v1/transacciones/exportar`, {
        headers: { "x-switch-key": merchant.key }
      })
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        bytes += value.byteLength
        for (const byte of value) if (byte === 10) newlines++
        peak = Math.max(peak, process.memoryUsage().heapUsed)
      }
    } finally {
      clearInterval(sampler)
    }
    // Every row arrived (plus the header line), and the whole was larger than the heap's growth.
    expect(newlines).toBe(ROWS + 1)
    expect(bytes).toBeGreaterThan(MAX_GROWTH_BYTES / 3)
    expect(
      peak - baseline,
      `heap grew ${Math.round((peak - baseline) / 1048576)} MB for ${bytes} bytes`
    ).toBeLessThan(MAX_GROWTH_BYTES)
  }, 120_000)
})
