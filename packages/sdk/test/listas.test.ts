/**
 * The lists' totals and orders through the SDK against the real server: `links.total` and
 * `transacciones.total` count what the filters choose; a list in another order than newest first
 * iterates its pages by offset (the server's cursor follows only the default order), so `for
 * await` walks every row once, in that order.
 */
import { describe, expect, it } from "vitest"
import { newMerchant } from "./support.js"

describe("totals and orders", () => {
  it("counts links and transactions, and iterates a list sorted by amount across pages", async () => {
    const m = await newMerchant("lst")
    const amounts = [30, 10, 50, 20, 40]
    for (const monto of amounts) {
      const link = await m.sw.links.create({ monto, concepto: `orden ${monto}` })
      if (monto >= 30) await m.sw.links.simulate(link.id, "pagado")
    }
    expect(await m.sw.links.total()).toEqual({ total: 5 })
    expect(await m.sw.links.total({ min: 25, q: "orden" })).toEqual({ total: 3 })
    expect(await m.sw.transacciones.total()).toEqual({ total: 3 })
    expect(await m.sw.transacciones.total({ min: "45" })).toEqual({ total: 1 })

    const links: Array<number> = []
    for await (const link of m.sw.links.list({ orden: "monto_desc", limit: 2 })) links.push(link.monto)
    expect(links).toEqual([50, 40, 30, 20, 10])
    const txns: Array<number> = []
    for await (const t of m.sw.transacciones.list({ orden: "monto_asc", limit: 2 })) txns.push(t.monto)
    expect(txns).toEqual([30, 40, 50])
  })
})
