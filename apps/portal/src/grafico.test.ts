import { describe, expect, it } from "vitest"
import { barras, etiquetaDia, tope } from "./grafico.js"

describe("the home chart's bars", () => {
  it("labels a day with its Spanish weekday and number", () => {
    expect(etiquetaDia("2026-11-25")).toBe("mié 25")
    expect(etiquetaDia("2026-11-22")).toBe("dom 22")
  })
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 7, 11, 150, 201, 999, 1001, 4_999, 123_456].map(tope)).toEqual([
      10, 10, 20, 200, 500, 1_000, 2_000, 5_000, 200_000
    ])
  })
  it("scales each day to the axis, keeps a day with little visible and an empty day flat", () => {
    const semana = [
      { dia: "2026-11-24", cobrado: 100, pagos: 1 },
      { dia: "2026-11-25", cobrado: 0.5, pagos: 1 },
      { dia: "2026-11-26", cobrado: 0, pagos: 0 },
      { dia: "2026-11-27", cobrado: 50, pagos: 2 }
    ]
    const bars = barras(semana, 400, 100)
    expect(bars.map((b) => b.alto)).toEqual([100, 2, 0, 50])
    expect(bars.map((b) => b.y)).toEqual([0, 98, 100, 50])
    expect(bars.map((b) => b.x)).toEqual([20, 120, 220, 320])
    expect(bars[0]?.ancho).toBe(60)
  })
})
