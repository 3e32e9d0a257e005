import { describe, expect, it } from "vitest"
import { EMPTY, enUso, fromSearch, PAGE_SIZE, toFiltros, toListParams, toSearch } from "./liqFilters.js"

describe("settlement filters in the address", () => {
  it("round-trip through the query string", () => {
    const filters = {
      estado: "RECHAZADA",
      desde: "2026-11-01",
      hasta: "2026-11-25",
      min: "100",
      max: "1.500,50",
      orden: "monto_desc",
      pagina: 2
    } as const
    expect(toSearch(filters)).toBe(
      "?estado=RECHAZADA&desde=2026-11-01&hasta=2026-11-25&min=100&max=1.500%2C50&orden=monto_desc&pagina=2"
    )
    expect(fromSearch(toSearch(filters))).toEqual(filters)
    expect(toSearch(EMPTY)).toBe("")
    expect(fromSearch("")).toEqual(EMPTY)
  })

  it("leave out what is unknown or malformed", () => {
    expect(fromSearch("?estado=PAGADA&desde=ayer&hasta=2026-1-1&orden=al_azar&pagina=-3")).toEqual(EMPTY)
    expect(fromSearch("?pagina=1.5").pagina).toBe(1)
  })

  it("become the API's filters: hasta through the end of its Caracas day, amounts as the API reads them", () => {
    const filters = {
      ...EMPTY,
      estado: "LIQUIDADA",
      hasta: "2026-11-25",
      min: "1.234,5",
      max: "mucho",
      pagina: 3
    }
    expect(toFiltros(filters)).toEqual({
      estado: "LIQUIDADA",
      hasta: "2026-11-25T23:59:59.999",
      min: "1234.50"
    })
    expect(toListParams(filters)).toEqual({
      estado: "LIQUIDADA",
      hasta: "2026-11-25T23:59:59.999",
      min: "1234.50",
      limit: PAGE_SIZE + 1,
      offset: 2 * PAGE_SIZE
    })
  })

  it("send orden to the list only, and only when not the default; the total takes the filters alone", () => {
    expect(toListParams({ ...EMPTY, orden: "antiguo" })).toMatchObject({ orden: "antiguo" })
    expect(toListParams(EMPTY)).not.toHaveProperty("orden")
    expect(toFiltros({ ...EMPTY, orden: "monto_asc" })).toEqual({})
  })

  it("count the filters in use for the phone's fold, the default order and the page aside", () => {
    expect(enUso(EMPTY)).toBe(0)
    expect(enUso({ ...EMPTY, pagina: 4, min: "  " })).toBe(0)
    expect(enUso({ ...EMPTY, estado: "PENDIENTE", desde: "2026-11-01", orden: "monto_asc" })).toBe(3)
  })
})
