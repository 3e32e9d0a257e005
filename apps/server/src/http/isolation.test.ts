/**
 * Tenant and mode isolation: two merchants by two modes over every route that takes an
 * object. Another merchant's object, or one of the other mode, is always 404 and unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
type Who = "A_test" | "A_live" | "B_test" | "B_live"
const keys = {} as Record<Who, string>
const links = {} as Record<Who, string>
const lotes = {} as Record<Who, string>
const who: ReadonlyArray<Who> = ["A_test", "A_live", "B_test", "B_live"]

beforeAll(async () => {
  server = await startServer()
  for (const name of ["A", "B"] as const) {
    const merchant = await registerMerchant(server.url)
    keys[`${name}_test`] = merchant.key
    keys[`${name}_live`] = await approveMerchant(server, merchant.codigo)
  }
  for (const w of who) {
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: keys[w],
      body: { monto: 10, concepto: `Link de ${w}` }
    })
    expect(link.status).toBe(201)
    links[w] = link.body.id
    const lote = await call(server.url, "POST", "/switch/v1/lotes", {
      key: keys[w],
      body: { items: [{ monto: 5, concepto: `Lote de ${w}` }] }
    })
    expect(lote.status).toBe(201)
    lotes[w] = lote.body.id
  }
})
afterAll(() => server.close())

const others = (w: Who) => who.filter((o) => o !== w)

describe("isolation matrix", () => {
  it("every key sees its own link and batch with the right mode", async () => {
    for (const w of who) {
      const link = await call(server.url, "GET", `/switch/v1/links/${links[w]}`, { key: keys[w] })
      expect(link.status).toBe(200)
      expect(link.body.mode).toBe(w.endsWith("live") ? "live" : "test")
      expect((await call(server.url, "GET", `/switch/v1/lotes/${lotes[w]}`, { key: keys[w] })).status).toBe(
        200
      )
    }
  })

  it("another merchant's or the other mode's link is 404 on get, cancel and simulate, and stays pendiente", async () => {
    for (const w of who) {
      for (const o of others(w)) {
        const key = keys[w]
        const id = links[o]
        expect((await call(server.url, "GET", `/switch/v1/links/${id}`, { key })).status).toBe(404)
        const cancel = await call(server.url, "POST", `/switch/v1/links/${id}/cancelar`, { key })
        expect(cancel.status).toBe(404)
        expect(cancel.body).toEqual({ error: "not_found" })
        const sim = await call(server.url, "POST", `/switch/v1/links/${id}/simular`, {
          key,
          body: { resultado: "pagado" }
        })
        expect(sim.status).toBe(404)
      }
    }
    for (const w of who) {
      const own = await call(server.url, "GET", `/switch/v1/links/${links[w]}`, { key: keys[w] })
      expect(own.body.estado).toBe("pendiente")
    }
  })

  it("another merchant's or the other mode's batch is 404 on get and cancel", async () => {
    for (const w of who) {
      for (const o of others(w)) {
        expect((await call(server.url, "GET", `/switch/v1/lotes/${lotes[o]}`, { key: keys[w] })).status).toBe(
          404
        )
        expect(
          (await call(server.url, "POST", `/switch/v1/lotes/${lotes[o]}/cancelar`, { key: keys[w] })).status
        ).toBe(404)
      }
    }
  })

  it("lists show only the key's own merchant and mode", async () => {
    for (const w of who) {
      const list = await call(server.url, "GET", "/switch/v1/links", { key: keys[w] })
      const ids = list.body.map((l: { id: string }) => l.id)
      expect(ids).toContain(links[w])
      for (const o of others(w)) expect(ids).not.toContain(links[o])
      const batches = await call(server.url, "GET", "/switch/v1/lotes", { key: keys[w] })
      expect(batches.body.map((l: { id: string }) => l.id)).toEqual([lotes[w]])
      const otherMode = w.endsWith("live") ? "test" : "live"
      expect(
        (await call(server.url, "GET", `/switch/v1/links?mode=${otherMode}`, { key: keys[w] })).body
      ).toEqual([])
      const keysList = await call(server.url, "GET", "/switch/v1/llaves", { key: keys[w] })
      expect(
        keysList.body.every((k: { mode: string }) => k.mode === (w.endsWith("live") ? "live" : "test"))
      ).toBe(true)
    }
  })

  it("an idempotency key used in one mode is 409 idempotency_key_en_uso in the other, and free for another merchant", async () => {
    const body = { monto: 3, concepto: "Idem", idempotency_key: "compartida" }
    expect((await call(server.url, "POST", "/switch/v1/links", { key: keys.A_test, body })).status).toBe(201)
    const other = await call(server.url, "POST", "/switch/v1/links", { key: keys.A_live, body })
    expect(other.status).toBe(409)
    expect(other.body.error).toBe("idempotency_key_en_uso")
    expect((await call(server.url, "POST", "/switch/v1/links", { key: keys.B_test, body })).status).toBe(201)
  })

  it("a paid link's transaction is listed only for its merchant and mode; simulate on a live link is 403", async () => {
    const sim = await call(server.url, "POST", `/switch/v1/links/${links.A_test}/simular`, {
      key: keys.A_test,
      body: { resultado: "pagado" }
    })
    expect(sim.status).toBe(200)
    const live = await call(server.url, "POST", `/switch/v1/links/${links.A_live}/simular`, {
      key: keys.A_live,
      body: { resultado: "pagado" }
    })
    expect(live.status).toBe(403)
    expect(live.body.error).toBe("solo_modo_prueba")
    for (const w of who) {
      const txns = await call(server.url, "GET", "/switch/v1/transacciones", { key: keys[w] })
      expect(txns.status).toBe(200)
      expect(txns.body.some((t: { link_id: string }) => t.link_id === links.A_test)).toBe(w === "A_test")
    }
  })
})
