import { describe, expect, it } from "vitest"
import { bolivares, diaCaracas, fecha, fechaHora, miles, parseBolivares } from "./format.js"

describe("bolivares", () => {
  it("writes thousands with dots and cents with a comma", () => {
    expect(bolivares(1234.56)).toBe("Bs 1.234,56")
    expect(bolivares(1234567.8)).toBe("Bs 1.234.567,80")
    expect(bolivares(0)).toBe("Bs 0,00")
    expect(bolivares(999)).toBe("Bs 999,00")
    expect(bolivares(0.1 + 0.2)).toBe("Bs 0,30")
    expect(bolivares(-5.5)).toBe("-Bs 5,50")
  })
})

describe("parseBolivares", () => {
  it("reads what a Venezuelan merchant types", () => {
    expect(parseBolivares("1.234,56")).toBe(1234.56)
    expect(parseBolivares("1234,5")).toBe(1234.5)
    expect(parseBolivares("1234.56")).toBe(1234.56)
    expect(parseBolivares("Bs 150")).toBe(150)
  })
  it("refuses what is not an amount", () => {
    expect(parseBolivares("")).toBeUndefined()
    expect(parseBolivares("12,345")).toBeUndefined()
    expect(parseBolivares("abc")).toBeUndefined()
    expect(parseBolivares("1.23.4")).toBeUndefined()
  })
})

describe("Caracas dates", () => {
  it("shows an instant in Caracas time (UTC-4), across midnight UTC", () => {
    expect(fecha("2026-11-26T02:30:00Z")).toBe("25/11/2026")
    expect(fechaHora("2026-11-26T02:30:00Z")).toBe("25/11/2026 10:30 p. m.")
    expect(fechaHora("2026-11-25T16:05:00Z")).toBe("25/11/2026 12:05 p. m.")
    expect(fechaHora("2026-11-25T04:00:00Z")).toBe("25/11/2026 12:00 a. m.")
    expect(diaCaracas("2026-01-01T03:59:59Z")).toBe("2025-12-31")
  })
})

describe("miles", () => {
  it("groups thousands with dots", () => {
    expect(miles(0)).toBe("0")
    expect(miles(999)).toBe("999")
    expect(miles(1234)).toBe("1.234")
    expect(miles(5000)).toBe("5.000")
    expect(miles(1234567)).toBe("1.234.567")
  })
})
