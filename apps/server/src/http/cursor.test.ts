/**
 * The `starting_after` cursor of the list routes (http/Page.ts): on `GET /lotes`, `/eventos` and
 * `/transacciones` it walks the same list `offset` does, refuses what is not an id, and gives an
 * empty page for an item that is not the caller's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

describe("starting_after on the list routes", () => {
  let server: TestServer
  let key: string
  let other: string
  beforeAll(async () => {
    server = await startServer({ settings: { apiPorMinuto: 10_000 } })
    key = (await registerMerchant(server.url)).key
    other = (await registerMerchant(server.url)).key
    for (let i = 0; i < 5; i++) {
      const lote = await call(server.url, "POST", "/switch/v1/lotes", {
        key,
        body: { items: [{ monto: 10 + i, concepto: `lote ${i}` }] }
      })
      expect(lote.status).toBe(201)
      const link = await call(server.url, "POST", "/switch/v1/links", {
        key,
        body: { monto: 20 + i, concepto: `l${i}` }
      })
      await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
        key,
        body: { resultado: "pagado" }
      })
    }
  })
  afterAll(() => server.close())

  for (const path of ["/switch/v1/lotes", "/switch/v1/eventos", "/switch/v1/transacciones"]) {
    it(`${path}: pages by cursor are the pages by offset`, async () => {
      const all = await call(server.url, "GET", `${path}?limit=200`, { key })
      expect(all.status).toBe(200)
      const ids = all.body.map((item: { id: string }) => item.id)
      expect(ids.length).toBeGreaterThanOrEqual(4)
      const walked: Array<string> = []
      let after: string | undefined
      for (;;) {
        const page = await call(
          server.url,
          "GET",
          `${path}?limit=2${after ? `&starting_after=${after}` : ""}`,
          { key }
        )
        expect(page.status).toBe(200)
        walked.push(...page.body.map((item: { id: string }) => item.id))
        if (page.body.length < 2) break
        after = page.body[page.body.length - 1].id
      }
      expect(walked).toEqual(ids)
      const foreign = await call(server.url, "GET", `${path}?starting_after=${ids[0]}`, { key: other })
      expect(foreign).toMatchObject({ status: 200, body: [] })
      const bad = await call(server.url, "GET", `${path}?starting_after=nope`, { key })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ error: "validation", parametro: "starting_after" })
    })
  }
})
