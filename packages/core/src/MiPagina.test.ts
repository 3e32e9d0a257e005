import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as MiPagina from "./MiPagina.js"
import * as Money from "./Money.js"
import * as RateLimit from "./RateLimit.js"

const ajustes = (min: number, max: number, conceptoPermitido = true): MiPagina.Ajustes => ({
  activa: true,
  montoMin: Money.Cents(min),
  montoMax: Money.Cents(max),
  conceptoPermitido
})

/** An amount written as a Venezuelan payer would: `1.234,56` or `1234,56`. */
const written = (cents: number, grouped: boolean) => {
  const text = Money.format(Money.Cents(cents)).replace(/^Bs /, "")
  return grouped ? text : text.replaceAll(".", "")
}

describe("MiPagina: what the payer types", () => {
  it.prop(
    "an amount is accepted exactly when it lies between the minimum and the maximum",
    [
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.integer({ min: 1, max: 20_000_000 }),
      fc.boolean()
    ],
    ([min, span, cents, grouped]) => {
      const a = ajustes(min, min + span)
      const result = MiPagina.decodeEntrada({ monto: written(cents, grouped) }, a)
      const inside = cents >= min && cents <= min + span
      expect(Either.isRight(result)).toBe(inside)
      if (Either.isRight(result)) expect(result.right.monto).toBe(cents)
      else expect(Object.keys(result.left.fieldErrors)).toEqual(["monto"])
    }
  )

  it("says the limit the amount missed, in bolívares", () => {
    const a = ajustes(1_000, 500_000)
    expect(MiPagina.decodeEntrada({ monto: "9,99" }, a)).toEqual(
      Either.left({ fieldErrors: { monto: ["El monto mínimo es Bs 10,00."] } })
    )
    expect(MiPagina.decodeEntrada({ monto: "5.000,01" }, a)).toEqual(
      Either.left({ fieldErrors: { monto: ["El monto máximo es Bs 5.000,00."] } })
    )
    expect(MiPagina.decodeEntrada({ monto: "  " }, a)).toEqual(
      Either.left({ fieldErrors: { monto: ["Escribe el monto a pagar."] } })
    )
    for (const bad of ["abc", "1,234.56", "1.2345", "-5", "12,345"])
      expect(Either.isLeft(MiPagina.decodeEntrada({ monto: bad }, a)), bad).toBe(true)
    expect(MiPagina.decodeEntrada({ monto: "1.234,5" }, a)).toEqual(
      Either.right({ monto: Money.Cents(123_450), concepto: null })
    )
  })

  it.prop(
    "a concept is kept only when allowed, clean and at most 140 characters",
    [fc.string({ maxLength: 300 }), fc.boolean()],
    ([text, allowed]) => {
      const result = MiPagina.decodeEntrada({ monto: "10", concepto: text }, ajustes(100, 100_000, allowed))
      if (!allowed) {
        expect(result).toEqual(Either.right({ monto: Money.Cents(1_000), concepto: null }))
        return
      }
      const clean = MiPagina.limpiarConcepto(text)
      if ([...clean].length > MiPagina.CONCEPTO_MAX) {
        expect(Either.isLeft(result)).toBe(true)
        return
      }
      expect(result).toEqual(
        Either.right({ monto: Money.Cents(1_000), concepto: clean === "" ? null : clean })
      )
      if (clean !== "") {
        expect(clean).not.toMatch(/\p{Cc}/u)
        expect(clean).toBe(clean.trim())
      }
    }
  )

  it.prop("the link's concept is never empty nor over 140", [fc.string({ maxLength: 300 })], ([nombre]) => {
    const concepto = MiPagina.conceptoDelLink({ monto: Money.Cents(100), concepto: null }, nombre)
    expect(concepto.startsWith("Pago a")).toBe(true)
    expect([...concepto].length).toBeLessThanOrEqual(MiPagina.CONCEPTO_MAX)
  })
})

describe("MiPagina: the owner's settings", () => {
  it.prop(
    "a minimum over the maximum is refused; otherwise both are kept in cents",
    [fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000 })],
    ([a, b]) => {
      const result = MiPagina.decodeAjustes({
        activa: true,
        monto_min: Money.toNumber(Money.Cents(a)),
        monto_max: Money.toNumber(Money.Cents(b)),
        concepto_permitido: false
      })
      if (a > b)
        expect(result).toEqual(
          Either.left({ fieldErrors: { monto_max: ["debe ser mayor o igual que monto_min"] } })
        )
      else
        expect(result).toEqual(
          Either.right({ activa: true, montoMin: a, montoMax: b, conceptoPermitido: false })
        )
    }
  )

  it("refuses zero, negatives and three decimals", () => {
    const base = { activa: true, concepto_permitido: true }
    expect(Either.isLeft(MiPagina.decodeAjustes({ ...base, monto_min: 0, monto_max: 10 }))).toBe(true)
    expect(Either.isLeft(MiPagina.decodeAjustes({ ...base, monto_min: 1, monto_max: -10 }))).toBe(true)
    expect(Either.isLeft(MiPagina.decodeAjustes({ ...base, monto_min: 1.005, monto_max: 10 }))).toBe(true)
  })
})

describe("MiPagina: creation limits", () => {
  it("a merchant's page keeps 300 links an hour, and a flood closes it for at most 5 minutes", () => {
    const { limit, windowSeconds } = MiPagina.CREAR_POR_COMERCIO
    expect(limit * (3600 / windowSeconds)).toBe(300)
    expect(windowSeconds).toBeLessThanOrEqual(300)
    // Its refusals wait for its own window, never longer.
    const now = Date.parse("2026-03-01T12:00:01Z")
    const refused = RateLimit.decide(MiPagina.CREAR_POR_COMERCIO, limit + 1, now)
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(windowSeconds)
  })
})
