import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Instrument, valorIssue } from "./Instrument.js"
import { mobilePrefixes } from "./Venezuela.js"

const decode = Schema.decodeUnknownEither(Instrument)
const base = { banco: "0102", identificacion: "V12345678", nombre: "Ana" }
const issuePaths = (input: unknown) =>
  Either.match(decode(input), {
    onLeft: (error) => [...error.message.matchAll(/\["(\w+)"\]/g)].map((m) => m[1]),
    onRight: () => []
  })

describe("Instrument valor", () => {
  it.prop(
    "any 20 digits is an account, written with or without separators",
    [fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 20, maxLength: 20 })],
    ([digits]) => {
      const plain = digits.join("")
      const written = `${plain.slice(0, 4)}-${plain.slice(4, 8)} ${plain.slice(8, 10)}.${plain.slice(10)}`
      expect(valorIssue({ tipo: "cuenta", valor: plain })).toBeUndefined()
      expect(valorIssue({ tipo: "cuenta", valor: written })).toBeUndefined()
      expect(Either.isRight(decode({ ...base, tipo: "cuenta", valor: plain }))).toBe(true)
    }
  )

  it.prop(
    "an account of any other length, or with letters, is refused at valor",
    [fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.replace(/[\s.-]/g, "").length !== 20)],
    ([valor]) => {
      expect(valorIssue({ tipo: "cuenta", valor })).toBe("debe ser un número de cuenta de 20 dígitos")
      expect(issuePaths({ ...base, tipo: "cuenta", valor })).toContain("valor")
    }
  )

  it.prop(
    "a mobile number is a phone in its usual written forms",
    [fc.constantFrom(...mobilePrefixes), fc.integer({ min: 0, max: 9_999_999 })],
    ([prefix, n]) => {
      const local = `${prefix}${String(n).padStart(7, "0")}`
      for (const valor of [
        local,
        `58${local.slice(1)}`,
        `+58${local.slice(1)}`,
        `${prefix}-${local.slice(4)}`
      ])
        expect(valorIssue({ tipo: "telefono", valor })).toBeUndefined()
    }
  )

  it("a landline, a short number or an account is not a phone", () => {
    for (const valor of ["02125551234", "12", "0414123456", "01020000000000000001", "telefono"]) {
      expect(valorIssue({ tipo: "telefono", valor })).toMatch(/teléfono móvil/)
      expect(issuePaths({ ...base, tipo: "telefono", valor })).toEqual(["valor"])
    }
  })
})
