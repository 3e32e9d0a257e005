import { describe, expect, it } from "vitest"
import { metadataDe } from "./screens/MetadataRows.js"
import { caracasAIso, vencimiento } from "./vencimiento.js"

describe("vencimiento", () => {
  const now = new Date("2026-11-25T12:00:00Z")
  it("reads a Caracas wall-clock time as UTC-4", () => {
    expect(caracasAIso("2026-11-25T20:30")).toBe("2026-11-26T00:30:00.000Z")
    expect(caracasAIso("25/11/2026 8:30")).toBeUndefined()
  })
  it("gives hours, or an exact future date within 30 days", () => {
    expect(vencimiento("24", "", now)).toEqual({ expira_horas: 24 })
    expect(vencimiento("exacta", "2026-11-26T10:00", now)).toEqual({ expira_en: "2026-11-26T14:00:00.000Z" })
    expect(vencimiento("exacta", "2026-11-25T07:00", now)).toBe("La fecha de vencimiento debe ser futura.")
    expect(vencimiento("exacta", "2027-01-30T10:00", now)).toBe("Un link puede durar como máximo 30 días.")
    expect(vencimiento("exacta", "", now)).toBe("Escribe la fecha y la hora en que vence.")
  })
})

describe("metadataDe", () => {
  it("keeps rows with a key, trims keys, refuses a repeated one", () => {
    expect(
      metadataDe([
        { clave: " pedido ", valor: "A-1" },
        { clave: "", valor: "sin clave" },
        { clave: "canal", valor: "" }
      ])
    ).toEqual({ pedido: "A-1", canal: "" })
    expect(
      metadataDe([
        { clave: "a", valor: "1" },
        { clave: "a", valor: "2" }
      ])
    ).toBe("La clave «a» está repetida.")
  })
})
