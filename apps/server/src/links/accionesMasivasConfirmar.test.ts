/**
 * A bulk action confirmed by its count (`confirmar_total`, the number the owner typed): a count
 * that is not, or no longer, what the filters choose is `400 validation` naming
 * `confirmar_total`, and nothing is done; the right count runs the action. Without the field the
 * action runs as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bulkMerchant } from "../../test/bulkFixture.js"
import { call, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const newLink = (key: string) =>
  call(server.url, "POST", "/switch/v1/links", { key, body: { monto: 12, concepto: "confirmar masiva" } })

describe("bulk actions confirmed by their count", () => {
  it("a wrong or stale count is refused and does nothing; the count of the moment runs it", async () => {
    const { key, headers } = await bulkMerchant(server)
    for (let i = 0; i < 3; i++) expect((await newLink(key)).status).toBe(201)
    const total = await call(server.url, "GET", "/switch/v1/links/total?q=confirmar", { headers })
    expect(total.body).toEqual({ total: 3 })
    const crear = (confirmar_total: number) =>
      call(server.url, "POST", "/switch/v1/acciones-masivas", {
        headers,
        body: { accion: "cancelar", filtros: { q: "confirmar" }, confirmar_total }
      })
    const wrong = await crear(4)
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ error: "validation", parametro: "confirmar_total" })
    expect(wrong.body.detail).toContain("ahora 3 links, no 4")
    // A link made after the count was read: the typed 3 is stale.
    expect((await newLink(key)).status).toBe(201)
    expect((await crear(3)).body.parametro).toBe("confirmar_total")
    const listed = await call(server.url, "GET", "/switch/v1/links?q=confirmar", { key })
    expect(listed.body.map((l: { estado: string }) => l.estado)).toEqual(Array(4).fill("pendiente"))
    const made = await crear(4)
    expect(made.status).toBe(202)
    expect(made.body).toMatchObject({ accion: "cancelar", total: 4 })
  })
})
