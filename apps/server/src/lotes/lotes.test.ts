import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import * as Keys from "../http/Keys.js"

let server: TestServer
let db: Pg.Client
let key: string
let codigo: string

beforeAll(async () => {
  server = await startServer()
  ;({ key, codigo } = await registerMerchant(server.url))
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db.end()
  await server.close()
})

const createLote = (body: unknown, k = key) => call(server.url, "POST", "/switch/v1/lotes", { key: k, body })
const getLote = (id: string, k = key) => call(server.url, "GET", `/switch/v1/lotes/${id}`, { key: k })
const linkCount = async (k = key) => {
  const { rows } = await db.query(
    "select count(*)::int as n from links where comercio_id = (select comercio_id from llaves where hash = $1)",
    [Keys.hash(k.split(":")[1] ?? "")]
  )
  return rows[0].n as number
}
const items = (n: number, prefix = "Item") =>
  Array.from({ length: n }, (_, i) => ({ monto: 10 + i, concepto: `${prefix} ${i}` }))

/** A live key for an existing merchant, written straight into the database (as the admin API would). */
const liveKeyFor = async (merchantCodigo: string) => {
  const apiKey = Keys.generate("live")
  await db.query(
    `insert into llaves (id, comercio_id, label, mode, hash, ultimos4)
     select $1, id, 'live', 'live', $2, $3 from comercios where codigo = $4`,
    [randomUUID(), Keys.hash(apiKey), Keys.ultimos4(apiKey), merchantCodigo]
  )
  return `${merchantCodigo}:${apiKey}`
}

const emptyCounts = {
  pendiente: 0,
  cobrando: 0,
  procesando: 0,
  revision: 0,
  pagado: 0,
  expirado: 0,
  cancelado: 0
}

describe("POST /lotes", () => {
  it("creates every item link with its own key and answers the batch with items and summary", async () => {
    const reply = await createLote({
      nombre: "Cobros de marzo",
      expira_horas: 48,
      items: [
        {
          monto: 100.5,
          concepto: "Mensualidad Ana",
          referencia_externa: "ORD-1",
          cliente: { nombre: "Ana", telefono: "04141234567" },
          idempotency_key: "mar-ana"
        },
        { monto: 20, concepto: "Mensualidad Luis" }
      ]
    })
    expect(reply.status).toBe(201)
    const lote = reply.body
    const resumen = {
      por_estado: { ...emptyCounts, pendiente: 2 },
      monto_total: 120.5,
      monto_pagado: 0,
      pagados: 0,
      abiertos: 2,
      completo: false
    }
    expect(lote).toMatchObject({ nombre: "Cobros de marzo", idempotency_key: null, mode: "test", resumen })
    expect(lote).toMatchObject(resumen)
    expect(Date.parse(lote.expires_at) - Date.parse(lote.created_at)).toBe(48 * 3600 * 1000)
    expect(lote.items).toHaveLength(2)
    const [ana, luis] = lote.items
    expect(ana).toMatchObject({
      estado: "pendiente",
      monto: 100.5,
      concepto: "Mensualidad Ana",
      referencia_externa: "ORD-1",
      cliente: { nombre: "Ana", telefono: "04141234567" },
      idempotency_key: "mar-ana"
    })
    expect(ana.url).toBe(`${server.settings.baseUrl}/l/${ana.link_id}`)
    expect(ana.wa_deeplink).toContain(encodeURIComponent(ana.url))
    expect(luis).toMatchObject({
      referencia_externa: null,
      cliente: null,
      idempotency_key: `lote:${lote.id}:1`
    })

    // Item links are ordinary links, visible in GET /links with their batch.
    const link = await call(server.url, "GET", `/switch/v1/links/${ana.link_id}`, { key })
    expect(link.status).toBe(200)
    expect(link.body).toMatchObject({
      lote_id: lote.id,
      referencia_externa: "ORD-1",
      origen: "api",
      estado: "pendiente",
      expires_at: lote.expires_at
    })
    const listed = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body
    expect(listed.filter((l: { lote_id?: string }) => l.lote_id === lote.id)).toHaveLength(2)
  })

  it("refuses 501 items with 400 validation and creates nothing", async () => {
    const before = await linkCount()
    const reply = await createLote({ items: items(501) })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe("validation")
    expect(reply.body.detail.fieldErrors.items).toBeDefined()
    expect(await linkCount()).toBe(before)
  })

  it("is all-or-nothing: an invalid item is 400 naming it; nothing created", async () => {
    const before = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body.length
    const bad = items(5)
    bad[3] = { monto: -1, concepto: "x" }
    const reply = await createLote({ items: bad })
    expect(reply.status).toBe(400)
    expect(Object.keys(reply.body.detail.fieldErrors)).toEqual(["items.3.monto"])
    const after = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body.length
    expect(after).toBe(before)
  })

  it("answers 409 item_duplicado when an item key was used before (by a link or a batch) and creates nothing", async () => {
    const plain = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 5, concepto: "Suelto", idempotency_key: "usada-por-link" }
    })
    expect(plain.status).toBe(201)
    const lotesBefore = (await call(server.url, "GET", "/switch/v1/lotes?limit=200", { key })).body.length
    const before = await linkCount()
    const reply = await createLote({
      items: [
        { monto: 1, concepto: "nuevo", idempotency_key: "nueva-1" },
        { monto: 1, concepto: "repetido", idempotency_key: "usada-por-link" }
      ]
    })
    expect(reply.status).toBe(409)
    expect(reply.body.error).toBe("item_duplicado")
    expect(reply.body.detail).toContain("items.1")
    expect(reply.body.detail).toContain("usada-por-link")
    expect(await linkCount()).toBe(before)
    expect((await call(server.url, "GET", "/switch/v1/lotes?limit=200", { key })).body).toHaveLength(
      lotesBefore
    )

    // The refused batch left nothing behind: its other key is still free.
    const first = await createLote({ items: [{ monto: 1, concepto: "x", idempotency_key: "nueva-1" }] })
    expect(first.status).toBe(201)
    const again = await createLote({ items: [{ monto: 1, concepto: "x", idempotency_key: "nueva-1" }] })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("item_duplicado")
  })

  it("answers 409 item_duplicado when two items of one batch share a key, and creates nothing", async () => {
    const lotesBefore = (await call(server.url, "GET", "/switch/v1/lotes?limit=200", { key })).body.length
    const before = await linkCount()
    const reply = await createLote({
      idempotency_key: "lote-con-repetidas",
      items: [
        { monto: 1, concepto: "uno", idempotency_key: "misma" },
        { monto: 2, concepto: "dos", idempotency_key: "otra" },
        { monto: 3, concepto: "tres", idempotency_key: "misma" }
      ]
    })
    expect(reply.status).toBe(409)
    expect(reply.body.error).toBe("item_duplicado")
    expect(reply.body.detail).toContain('items.2 ("misma")')
    expect(await linkCount()).toBe(before)
    expect((await call(server.url, "GET", "/switch/v1/lotes?limit=200", { key })).body).toHaveLength(
      lotesBefore
    )
    // Neither the batch key nor the item keys were taken.
    const fixed = await createLote({
      idempotency_key: "lote-con-repetidas",
      items: [
        { monto: 1, concepto: "uno", idempotency_key: "misma" },
        { monto: 2, concepto: "dos", idempotency_key: "otra" }
      ]
    })
    expect(fixed.status).toBe(201)
  })

  it("returns the same batch for a repeated batch key, also under concurrency", async () => {
    const body = { idempotency_key: "lote-abril", items: items(3, "Abril") }
    const replies = await Promise.all(Array.from({ length: 8 }, () => createLote(body)))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 200)).toHaveLength(7)
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1)
    const replay = replies.find((r) => r.status === 200)?.body
    expect(replay.idempotent_replay).toBe(true)
    expect(replay.items.map((i: { link_id: string }) => i.link_id)).toEqual(
      replies.find((r) => r.status === 201)?.body.items.map((i: { link_id: string }) => i.link_id)
    )
    const { rows } = await db.query("select count(*)::int as n from links where lote_id = $1", [replay.id])
    expect(rows[0].n).toBe(3)
  })

  it("answers 409 idempotency_key_en_uso for a batch key used in the other mode", async () => {
    const live = await liveKeyFor(codigo)
    const testBatch = await createLote({ idempotency_key: "lote-modo", items: items(1) })
    expect(testBatch.status).toBe(201)
    const reply = await createLote({ idempotency_key: "lote-modo", items: items(1, "Live") }, live)
    expect(reply.status).toBe(409)
    expect(reply.body.error).toBe("idempotency_key_en_uso")
    // The test batch is invisible to the live key.
    expect((await getLote(testBatch.body.id, live)).status).toBe(404)
    expect((await call(server.url, "GET", "/switch/v1/lotes", { key: live })).body).toEqual([])
  })

  it("answers 403 comercio_suspendido for a suspended merchant and creates nothing", async () => {
    const other = await registerMerchant(server.url)
    await db.query("update comercios set estado = 'suspendido' where codigo = $1", [other.codigo])
    const reply = await createLote({ items: items(2) }, other.key)
    expect(reply.status).toBe(403)
    expect(reply.body.error).toBe("comercio_suspendido")
    expect(await linkCount(other.key)).toBe(0)
  })

  it("creates a 500-item batch with every item in order", async () => {
    // How long it takes is the bench's part 3 (tests/bench), not an assertion here.
    const reply = await createLote({ items: items(500, "Masivo") })
    expect(reply.status).toBe(201)
    expect(reply.body.items).toHaveLength(500)
    expect(reply.body.items[499]).toMatchObject({ concepto: "Masivo 499", monto: 509 })
    expect(reply.body.resumen.por_estado.pendiente).toBe(500)
    expect(reply.body.monto_total).toBe(Array.from({ length: 500 }, (_, i) => 10 + i).reduce((a, b) => a + b))
    const got = await getLote(reply.body.id)
    expect(got.body.items.map((i: { concepto: string }) => i.concepto)).toEqual(
      items(500, "Masivo").map((i) => i.concepto)
    )
  })
})

describe("GET and cancel", () => {
  it("cancels only pendiente items, reports the counts, and the summary follows", async () => {
    const created = (await createLote({ items: items(4, "Cancelar") })).body
    const [paid, expired] = created.items
    const sim = await call(server.url, "POST", `/switch/v1/links/${paid.link_id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(sim.status).toBe(200)
    // Past its expiry but not yet swept: it reads as expirado and cannot be cancelled.
    await db.query("update links set expires_at = now() - interval '1 minute' where id = $1", [
      expired.link_id
    ])

    const before = (await getLote(created.id)).body
    expect(before.por_estado).toEqual({ ...emptyCounts, pagado: 1, expirado: 1, pendiente: 2 })
    expect(before).toMatchObject({
      pagados: 1,
      abiertos: 2,
      completo: false,
      monto_pagado: 10,
      monto_total: 46
    })

    const reply = await call(server.url, "POST", `/switch/v1/lotes/${created.id}/cancelar`, { key })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ cancelados: 2, no_cancelables: 2 })
    expect(reply.body.lote.por_estado).toEqual({ ...emptyCounts, pagado: 1, expirado: 1, cancelado: 2 })
    expect(reply.body.lote).toMatchObject({ abiertos: 0, completo: true, pagados: 1 })
    expect(reply.body.lote.items.map((i: { estado: string }) => i.estado)).toEqual([
      "pagado",
      "expirado",
      "cancelado",
      "cancelado"
    ])
    const link = await call(server.url, "GET", `/switch/v1/links/${paid.link_id}`, { key })
    expect(link.body.estado).toBe("pagado")

    const again = await call(server.url, "POST", `/switch/v1/lotes/${created.id}/cancelar`, { key })
    expect(again.body).toMatchObject({ cancelados: 0, no_cancelables: 4 })
  })

  it("lists batches newest first with their summary and no items; bad paging is 400 with parametro", async () => {
    const other = await registerMerchant(server.url)
    const first = (await createLote({ nombre: "uno", items: items(2) }, other.key)).body
    const second = (await createLote({ nombre: "dos", items: items(3) }, other.key)).body
    await call(server.url, "POST", `/switch/v1/links/${second.items[0].link_id}/simular`, {
      key: other.key,
      body: { resultado: "pagado" }
    })
    const list = await call(server.url, "GET", "/switch/v1/lotes", { key: other.key })
    expect(list.status).toBe(200)
    expect(list.body.map((l: { id: string }) => l.id)).toEqual([second.id, first.id])
    expect(list.body[0].items).toBeUndefined()
    expect(list.body[0]).toMatchObject({
      nombre: "dos",
      pagados: 1,
      abiertos: 2,
      monto_total: 33,
      monto_pagado: 10,
      completo: false,
      resumen: { por_estado: { ...emptyCounts, pendiente: 2, pagado: 1 } }
    })
    expect(list.body[1]).toMatchObject({ por_estado: { ...emptyCounts, pendiente: 2 }, monto_total: 21 })

    const paged = await call(server.url, "GET", "/switch/v1/lotes?limit=1&offset=1", { key: other.key })
    expect(paged.body.map((l: { id: string }) => l.id)).toEqual([first.id])
    for (const query of ["limit=0", "limit=201", "limit=abc", "offset=-1"]) {
      const bad = await call(server.url, "GET", `/switch/v1/lotes?${query}`, { key: other.key })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ error: "validation", parametro: query.split("=")[0] })
    }
  })

  it("answers 404 for another merchant's, an unknown or a malformed batch id", async () => {
    const created = (await createLote({ items: items(1) })).body
    expect((await getLote(created.id)).status).toBe(200)
    const other = await registerMerchant(server.url)
    for (const id of [created.id, randomUUID(), "no-es-uuid"]) {
      const got = await getLote(id, other.key)
      expect(got.status).toBe(404)
      expect(got.body).toEqual({ error: "not_found" })
      const cancel = await call(server.url, "POST", `/switch/v1/lotes/${id}/cancelar`, { key: other.key })
      expect(cancel.status).toBe(404)
    }
    expect((await getLote(created.id)).body.items[0].estado).toBe("pendiente")
  })
})
