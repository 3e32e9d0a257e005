/**
 * Settlements (`/liquidaciones`) and customers (`/clientes`) iterate by their `starting_after`
 * cursor too, over the real server's pages.
 */
import { describe, expect, inject, it } from "vitest"
import { Switch } from "../src/index.js"
import { baseUrl, newLiveMerchant } from "./support.js"

/** A client of `key` that records the query of every GET of `path`. */
const recording = (key: string, path: string) => {
  const requests: Array<URL> = []
  const sw = new Switch({
    key,
    baseUrl: baseUrl(),
    fetch: (input, init) => {
      const url = new URL(input)
      if (init.method === "GET" && url.pathname === path) requests.push(url)
      return fetch(input, init)
    }
  })
  return { sw, requests }
}

describe("cursor pagination of settlements and customers", () => {
  it("for await walks the settlements page after page, each after the last id", async () => {
    const m = await newLiveMerchant("liqc")
    const patched = await fetch(`${baseUrl()}/admin/v1/comercios/${m.codigo}`, {
      method: "PATCH",
      headers: { "x-admin-token": inject("adminToken"), "content-type": "application/json" },
      body: JSON.stringify({ liquidacion_inmediata: true })
    })
    expect(patched.status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const link = await m.sw.links.create({ monto: 10 + i, concepto: `liquidacion ${i}` })
      await m.sw.links.simulate(link.id, "pagado")
    }
    const { sw, requests } = recording(m.key, "/switch/v1/liquidaciones")
    const ids: Array<string> = []
    for await (const liquidacion of sw.liquidaciones.list({ limit: 2 })) ids.push(liquidacion.id)
    expect(ids).toHaveLength(5)
    expect(new Set(ids).size).toBe(5)
    expect(requests.map((u) => u.searchParams.get("starting_after"))).toEqual([null, ids[1], ids[3]])
  })

  it("the customers' list works with the cursor on (one page: no cursor sent)", async () => {
    const m = await newLiveMerchant("clic")
    const { sw, requests } = recording(m.key, "/switch/v1/clientes")
    expect(await sw.clientes.list({ limit: 2 }).toArray()).toEqual([])
    expect(requests.map((u) => u.searchParams.get("starting_after"))).toEqual([null])
  })
})
