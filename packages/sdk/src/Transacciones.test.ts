/** The transactions resource's filters on the wire, and the export's address. */
import { describe, expect, it } from "vitest"
import { Switch } from "./Switch.js"

describe("sw.transacciones", () => {
  it("sends the list's filters with the page, leaving out those not given", async () => {
    const urls: Array<string> = []
    const sw = new Switch({
      key: "demo:sk_test_abc",
      baseUrl: "http://api.test/",
      fetch: async (url: string) => {
        urls.push(url)
        return new Response("[]", { status: 200, headers: { "content-type": "application/json" } })
      }
    })
    await sw.transacciones.list({ estado: "LIQUIDADA", desde: "2026-11-01", limit: 20, offset: 40 })
    expect(urls).toEqual([
      "http://api.test/switch/v1/transacciones?estado=LIQUIDADA&desde=2026-11-01&limit=20&offset=40"
    ])
  })
  it("gives the export's address with its filters", () => {
    const sw = new Switch({ key: "demo:sk_test_abc", baseUrl: "http://api.test" })
    expect(sw.transacciones.exportarUrl()).toBe("http://api.test/switch/v1/transacciones/exportar")
    expect(sw.transacciones.exportarUrl({ operacion: "cobro", hasta: "2026-11-25T23:59:59" })).toBe(
      "http://api.test/switch/v1/transacciones/exportar?operacion=cobro&hasta=2026-11-25T23%3A59%3A59"
    )
  })
})
