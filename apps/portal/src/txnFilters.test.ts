import { describe, expect, it } from "vitest"
import { EMPTY, fromSearch, PAGE_SIZE, toFiltros, toListParams, toSearch } from "./txnFilters.js"

describe("transaction filters in the address", () => {
  it("round-trip through the query string", () => {
    const filters = {
      estado: "LIQUIDADA",
      operacion: "cobro",
      desde: "2026-11-01",
      hasta: "2026-11-25",
      q: "ref123",
      min: "100",
      max: "1.500,50",
      orden: "monto_asc",
      pagina: 2
    } as const
    expect(toSearch(filters)).toBe(
      "?estado=LIQUIDADA&operacion=cobro&desde=2026-11-01&hasta=2026-11-25&q=ref123&min=100&max=1.500%2C50&orden=monto_asc&pagina=2"
    )
    expect(fromSearch(toSearch(filters))).toEqual(filters)
    expect(toSearch(EMPTY)).toBe("")
  })
  it("leave out what is unknown or malformed", () => {
    expect(fromSearch("?estado=liquidada&operacion=robo&desde=ayer&hasta=2026-1-1&pagina=-3")).toEqual(EMPTY)
  })
  it("become the API's filters: hasta through the end of its Caracas day, one page and one row more", () => {
    const filters = { ...EMPTY, estado: "RECHAZADA", hasta: "2026-11-25", pagina: 3 }
    expect(toFiltros(filters)).toEqual({ estado: "RECHAZADA", hasta: "2026-11-25T23:59:59.999" })
    expect(toListParams(filters)).toEqual({
      estado: "RECHAZADA",
      hasta: "2026-11-25T23:59:59.999",
      limit: PAGE_SIZE + 1,
      offset: 2 * PAGE_SIZE
    })
  })
  it("send the search and typed amounts as the API reads them, leaving out what is not an amount", () => {
    expect(toFiltros({ ...EMPTY, q: " SW-AB ", min: "1.234,5", max: "mucho" })).toEqual({
      q: "SW-AB",
      min: "1234.50"
    })
  })
})
