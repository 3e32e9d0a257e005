/**
 * The merchant's request log, `GET /switch/v1/logs`: every authenticated request of the key's
 * merchant and mode, newest first, paged by `starting_after`; nothing secret in it; 7 days kept.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
type Who = "A_test" | "A_live" | "B_test"
const keys = {} as Record<Who, string>
const comercios = {} as Record<"A" | "B", string>

beforeAll(async () => {
  server = await startServer({ settings: { housekeepingSeconds: 1 } })
  for (const name of ["A", "B"] as const) {
    const merchant = await registerMerchant(server.url)
    comercios[name] = merchant.codigo
    keys[`${name}_test` as Who] = merchant.key
    if (name === "A") keys.A_live = await approveMerchant(server, merchant.codigo)
  }
})
afterAll(() => server.close())

type Entry = {
  id: string
  created_at: string
  method: string
  path: string
  status: number
  duration_ms: number
  request_id: string
}

const logsOf = async (key: string, query = "limit=200"): Promise<Array<Entry>> => {
  const reply = await call(server.url, "GET", `/switch/v1/logs?${query}`, { key })
  expect(reply.status).toBe(200)
  return reply.body
}

describe("the request log", () => {
  it("records each authenticated request, the link lane's included: method, path without query, status, duration, request id, newest first", async () => {
    const created = await call(server.url, "POST", "/switch/v1/links", {
      key: keys.A_test,
      body: { monto: 12.5, concepto: "Camisa" }
    })
    expect(created.status).toBe(201)
    const listed = await call(server.url, "GET", "/switch/v1/links?estado=pagado&q=Camisa", {
      key: keys.A_test
    })
    expect(listed.status).toBe(200)
    const missing = await call(server.url, "GET", "/switch/v1/links/no-existe", { key: keys.A_test })
    expect(missing.status).toBe(404)

    const entries = await logsOf(keys.A_test)
    const ids = [created, listed, missing].map((r) => r.headers.get("x-request-id"))
    const mine = ids.map((id) => entries.find((e) => e.request_id === id))
    expect(mine[0]).toMatchObject({ method: "POST", path: "/switch/v1/links", status: 201 })
    expect(mine[1]).toMatchObject({ method: "GET", path: "/switch/v1/links", status: 200 })
    expect(mine[2]).toMatchObject({ method: "GET", path: "/switch/v1/links/no-existe", status: 404 })
    for (const entry of mine) {
      expect(entry?.duration_ms).toBeGreaterThanOrEqual(0)
      expect(Number.isNaN(Date.parse(entry?.created_at ?? ""))).toBe(false)
      expect(Object.keys(entry ?? {}).sort()).toEqual(
        ["created_at", "duration_ms", "id", "method", "path", "request_id", "status"].sort()
      )
    }
    // Newest first.
    const at = (e: Entry | undefined) => entries.indexOf(e as Entry)
    expect(at(mine[2])).toBeLessThan(at(mine[1]))
    expect(at(mine[1])).toBeLessThan(at(mine[0]))
  })

  it("holds no key, body, query or payer data", async () => {
    const secretConcept = "concepto-que-no-debe-aparecer"
    await call(server.url, "POST", "/switch/v1/links", {
      key: keys.A_test,
      body: { monto: 20, concepto: secretConcept, metadata: { cedula: "V12345678", telefono: "04141234567" } }
    })
    await call(server.url, "GET", "/switch/v1/transacciones?q=04141234567&api_key=sk_test_x", {
      key: keys.A_test
    })
    const text = JSON.stringify(await logsOf(keys.A_test))
    const [, apiKey] = keys.A_test.split(":")
    expect(text).not.toContain(apiKey)
    expect(text).not.toContain("sk_test_")
    expect(text).not.toContain(secretConcept)
    expect(text).not.toContain("V12345678")
    expect(text).not.toContain("04141234567")
    expect(text).not.toContain("?")
  })

  it("shows only the key's merchant and mode", async () => {
    const own = {} as Record<Who, string>
    for (const w of ["A_test", "A_live", "B_test"] as const) {
      const reply = await call(server.url, "GET", "/switch/v1/llaves", { key: keys[w] })
      expect(reply.status).toBe(200)
      own[w] = reply.headers.get("x-request-id") ?? ""
    }
    for (const w of ["A_test", "A_live", "B_test"] as const) {
      const seen = new Set((await logsOf(keys[w])).map((e) => e.request_id))
      for (const other of ["A_test", "A_live", "B_test"] as const) {
        expect(seen.has(own[other])).toBe(other === w)
      }
    }
  })

  it("does not record reading the log itself, so a tail does not fill it", async () => {
    const read = await call(server.url, "GET", "/switch/v1/logs", { key: keys.A_test })
    expect(read.status).toBe(200)
    expect((await logsOf(keys.A_test)).some((e) => e.path === "/switch/v1/logs")).toBe(false)
  })

  it("does not record requests without a valid key", async () => {
    const refused = await call(server.url, "GET", "/switch/v1/links", { key: `${comercios.A}:sk_test_falsa` })
    expect(refused.status).toBe(401)
    const id = refused.headers.get("x-request-id")
    for (const key of [keys.A_test, keys.A_live, keys.B_test]) {
      expect((await logsOf(key)).some((e) => e.request_id === id)).toBe(false)
    }
  })

  it("pages newest first with limit and starting_after; another merchant's cursor is refused", async () => {
    for (let i = 0; i < 5; i++) await call(server.url, "GET", "/switch/v1/config", { key: keys.B_test })
    const all = await logsOf(keys.B_test)
    expect(all.length).toBeGreaterThanOrEqual(6)
    const first = await logsOf(keys.B_test, "limit=2")
    expect(first.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id))
    const second = await logsOf(keys.B_test, `limit=3&starting_after=${first[1]?.id}`)
    expect(second.map((e) => e.id)).toEqual(all.slice(2, 5).map((e) => e.id))

    const foreign = await call(server.url, "GET", `/switch/v1/logs?starting_after=${first[0]?.id}`, {
      key: keys.A_test
    })
    expect(foreign.status).toBe(400)
    expect(foreign.body).toMatchObject({ error: "validation", parametro: "starting_after" })
    const badLimit = await call(server.url, "GET", "/switch/v1/logs?limit=0", { key: keys.B_test })
    expect(badLimit.status).toBe(400)
    expect(badLimit.body).toMatchObject({ error: "validation", parametro: "limit" })
  })

  it("names each entry by a UUIDv7 carrying its time; pages hold across entries of one millisecond and older ids", async () => {
    await call(server.url, "GET", "/switch/v1/config", { key: keys.A_test })
    const [newest] = await logsOf(keys.A_test, "limit=1")
    expect(newest?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const carried = Number.parseInt(`${newest?.id.slice(0, 8)}${newest?.id.slice(9, 13)}`, 16)
    expect(new Date(carried).toISOString()).toBe(newest?.created_at)

    // Entries written before migration 0069 have random (v4) ids, and any number of entries may
    // share a millisecond: paged one by one, each is seen exactly once, in order.
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    try {
      await db.query(
        `insert into solicitudes_api (id, comercio_id, mode, method, path, status, duration_ms, request_id, created_at)
         select gen_random_uuid(), c.id, 'test', 'GET', '/switch/v1/viejo', 200, 1, gen_random_uuid()::text,
           now() - interval '1 hour' - (g % 2) * interval '1 millisecond'
         from comercios c, generate_series(1, 6) g where c.codigo = $1`,
        [comercios.A]
      )
    } finally {
      await db.end()
    }
    const all = (await logsOf(keys.A_test)).map((e) => e.id)
    const paged: Array<string> = []
    let query = "limit=1"
    for (;;) {
      const page = await logsOf(keys.A_test, query)
      if (page.length === 0) break
      paged.push(page[0]!.id)
      query = `limit=1&starting_after=${page[0]!.id}`
    }
    expect(paged).toEqual(all)
    expect(paged.length).toBeGreaterThanOrEqual(7)
  })

  it("keeps entries 7 days: housekeeping deletes older ones", async () => {
    for (let i = 0; i < 2; i++) await call(server.url, "GET", "/switch/v1/config", { key: keys.A_live })
    const entries = await logsOf(keys.A_live)
    expect(entries.length).toBeGreaterThanOrEqual(2)
    const target = entries[entries.length - 1]
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    try {
      await db.query("update solicitudes_api set created_at = now() - interval '8 days' where id = $1", [
        target?.id
      ])
      await db.query(
        "update solicitudes_api set created_at = now() - interval '6 days' where id <> $1 and comercio_id = (select comercio_id from solicitudes_api where id = $1) and mode = 'live'",
        [target?.id]
      )
      const deadline = Date.now() + 10_000
      for (;;) {
        const left = await db.query("select count(*)::int as n from solicitudes_api where id = $1", [
          target?.id
        ])
        if (left.rows[0].n === 0) break
        if (Date.now() > deadline) throw new Error("the 8-day-old entry is still there")
        await new Promise((r) => setTimeout(r, 200))
      }
      const kept = await db.query(
        "select count(*)::int as n from solicitudes_api where created_at < now() - interval '5 days'"
      )
      expect(kept.rows[0].n).toBeGreaterThan(0)
    } finally {
      await db.end()
    }
  })
})
