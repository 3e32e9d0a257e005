import { describe, expect, it } from "vitest"
import { EMPTY, fromSearch, PAGE_SIZE, toListParams, toSearch } from "./linkFilters.js"

describe("link filters in the address", () => {
  it("round-trip through the query string", () => {
    const filters = {
      estado: "pagado",
      q: "torta",
      desde: "2026-11-01",
      hasta: "2026-11-25",
      origen: "panel",
      pagina: 3
    } as const
    expect(toSearch(filters)).toBe(
      "?estado=pagado&q=torta&desde=2026-11-01&hasta=2026-11-25&origen=panel&pagina=3"
    )
    expect(fromSearch(toSearch(filters))).toEqual(filters)
    expect(toSearch(EMPTY)).toBe("")
  })
  it("leave out what is malformed", () => {
    expect(fromSearch("?estado=robado&desde=ayer&pagina=-2&origen=x")).toEqual(EMPTY)
  })
  it("ask the API for one page and one more row, to know whether a next page exists", () => {
    expect(toListParams({ ...EMPTY, estado: "pendiente", pagina: 2, hasta: "2026-11-25" })).toEqual({
      estado: "pendiente",
      hasta: "2026-11-25T23:59:59",
      limit: PAGE_SIZE + 1,
      offset: PAGE_SIZE
    })
  })
  it("take a refund state in the state filter and ask the API for it as reembolso, never as estado", () => {
    for (const estado of ["reembolsado", "reembolsado_parcial"] as const) {
      const filters = fromSearch(`?estado=${estado}`)
      expect(filters.estado).toBe(estado)
      expect(toSearch(filters)).toBe(`?estado=${estado}`)
      expect(toListParams(filters)).toEqual({ reembolso: estado, limit: PAGE_SIZE + 1, offset: 0 })
    }
  })
})
