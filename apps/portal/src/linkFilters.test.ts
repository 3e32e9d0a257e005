import { describe, expect, it } from "vitest"
import { EMPTY, fromSearch, PAGE_SIZE, presetDias, toListParams, toSearch } from "./linkFilters.js"

describe("link filters in the address", () => {
  it("round-trip through the query string", () => {
    const filters = {
      estado: "pagado",
      q: "torta",
      desde: "2026-11-01",
      hasta: "2026-11-25",
      origen: "panel",
      min: "1.000",
      max: "2.500,50",
      orden: "monto_desc",
      pagina: 3
    } as const
    expect(toSearch(filters)).toBe(
      "?estado=pagado&q=torta&desde=2026-11-01&hasta=2026-11-25&origen=panel&min=1.000&max=2.500%2C50&orden=monto_desc&pagina=3"
    )
    expect(fromSearch(toSearch(filters))).toEqual(filters)
    expect(toSearch(EMPTY)).toBe("")
  })
  it("leave out what is malformed", () => {
    expect(fromSearch("?estado=robado&desde=ayer&pagina=-2&origen=x&orden=al_azar")).toEqual(EMPTY)
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
  it("send typed amounts as numbers, leave out what is not an amount, and the order unless newest first", () => {
    expect(toListParams({ ...EMPTY, min: "1.234,56", max: "abc", orden: "monto_asc" })).toEqual({
      min: 1234.56,
      orden: "monto_asc",
      limit: PAGE_SIZE + 1,
      offset: 0
    })
  })
})

describe("date presets, in Caracas days", () => {
  // 2026-11-03 02:30 UTC is still 2 November in Caracas (UTC-4).
  const now = new Date("2026-11-03T02:30:00Z")
  it("today, the last 7 days and this month", () => {
    expect(presetDias("hoy", now)).toEqual({ desde: "2026-11-02", hasta: "2026-11-02" })
    expect(presetDias("7dias", now)).toEqual({ desde: "2026-10-27", hasta: "2026-11-02" })
    expect(presetDias("mes", now)).toEqual({ desde: "2026-11-01", hasta: "2026-11-02" })
  })
})
