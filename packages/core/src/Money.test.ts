import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Money from "./Money.js"

const cents = (n: number) => Money.Cents(n)
const right = <A, E>(e: Either.Either<A, E>): A => Either.getOrThrowWith(e, (err) => new Error(String(err)))

describe("Money", () => {
  it("reads API numbers with up to two decimals exactly", () => {
    expect(Money.fromNumber(10.1)).toEqual(Either.right(1010))
    expect(Money.fromNumber(150.5)).toEqual(Either.right(15050))
    expect(Money.fromNumber(0.07)).toEqual(Either.right(7))
    expect(Money.fromNumber(1234.56)).toEqual(Either.right(123456))
    expect(Money.fromNumber(1e6)).toEqual(Either.right(100_000_000))
  })

  it("refuses 10.001, NaN, Infinity and exponent forms", () => {
    expect(Money.fromNumber(10.001)).toEqual(Either.left("decimales"))
    expect(Money.fromNumber(Number.NaN)).toEqual(Either.left("no_finito"))
    expect(Money.fromNumber(Number.POSITIVE_INFINITY)).toEqual(Either.left("no_finito"))
    expect(Money.fromNumber(Number.NEGATIVE_INFINITY)).toEqual(Either.left("no_finito"))
    expect(Money.fromNumber(1e-7)).toEqual(Either.left("decimales"))
    expect(Money.fromNumber(1e21)).toEqual(Either.left("fuera_de_rango"))
    expect(Money.fromNumber(1e13)).toEqual(Either.left("fuera_de_rango"))
  })

  it("refuses zero and negatives where SPEC says greater than 0", () => {
    expect(Money.fromPositiveNumber(0)).toEqual(Either.left("no_positivo"))
    expect(Money.fromPositiveNumber(-5)).toEqual(Either.left("no_positivo"))
    expect(Money.fromPositiveNumber(0.01)).toEqual(Either.right(1))
    expect(Money.fromNonNegativeNumber(0)).toEqual(Either.right(0))
    expect(Money.fromNonNegativeNumber(-0.01)).toEqual(Either.left("negativo"))
  })

  it("reads a typed amount as Venezuelans write it: dots between thousands, a comma before decimals", () => {
    expect(Money.parseVenezuelan("1.234,56")).toEqual(Either.right(123456))
    expect(Money.parseVenezuelan("1234,56")).toEqual(Either.right(123456))
    expect(Money.parseVenezuelan(" 1.234 ")).toEqual(Either.right(123400))
    expect(Money.parseVenezuelan("1.234.567,8")).toEqual(Either.right(123456780))
    expect(Money.parseVenezuelan("0,5")).toEqual(Either.right(50))
    expect(Money.parseVenezuelan("75")).toEqual(Either.right(7500))
    // A lone point before one or two digits is a decimal point.
    expect(Money.parseVenezuelan("1234.56")).toEqual(Either.right(123456))
    expect(Money.parseVenezuelan("7.5")).toEqual(Either.right(750))
    expect(Money.parseVenezuelan("1,234")).toEqual(Either.left("decimales"))
    for (const bad of ["1,234.56", "1234.567", "12.34.56", "1.234.56", "1.23,4", ",5", "5,", "-5", "abc", ""])
      expect(Money.parseVenezuelan(bad)).toEqual(Either.left("formato"))
  })

  it.prop(
    "reads back the display form without its Bs",
    [fc.integer({ min: 0, max: Money.MAX_CENTS })],
    ([n]) => {
      expect(Money.parseVenezuelan(Money.format(cents(n)).slice(3))).toEqual(Either.right(n))
    }
  )

  it("reads decimal text with a point or a comma", () => {
    expect(Money.parseDecimal("150,50")).toEqual(Either.right(15050))
    expect(Money.parseDecimal(" 150.5 ")).toEqual(Either.right(15050))
    expect(Money.parseDecimal("1.234,56")).toEqual(Either.left("formato"))
    expect(Money.parseDecimal("abc")).toEqual(Either.left("formato"))
    expect(Money.parseDecimal("1,234")).toEqual(Either.left("decimales"))
  })

  it("formats as Bs 1.234,56", () => {
    expect(Money.format(cents(123456))).toBe("Bs 1.234,56")
    expect(Money.format(cents(5))).toBe("Bs 0,05")
    expect(Money.format(cents(100_000_000))).toBe("Bs 1.000.000,00")
    expect(Money.format(cents(-15050))).toBe("-Bs 150,50")
    expect(Money.toNumber(cents(123456))).toBe(1234.56)
    expect(Money.toDecimalString(cents(100))).toBe("1.00")
  })

  it("converts USD to VES at a BCV rate rounding half-up to the cent", () => {
    const r = right(Money.rate(36.5))
    expect(Money.usdToVes(cents(30_000), r)).toBe(1_095_000)
    // 0.01 USD at 36.555 = 0.36555 Bs -> 0.37 (half-up on the third decimal)
    expect(Money.usdToVes(cents(1), right(Money.rate("36.555")))).toBe(37)
    // 0.01 USD at 36.545 = 0.36545 -> 0.37; at 36.54 = 0.3654 -> 0.37; at 36.449 -> 0.36
    expect(Money.usdToVes(cents(1), right(Money.rate("36.449")))).toBe(36)
    expect(Money.usdToVes(cents(1), right(Money.rate("36.5")))).toBe(37)
    expect(Money.rate(0)).toEqual(Either.left("no_positivo"))
    expect(Money.rate("1.123456789")).toEqual(Either.left("decimales"))
    expect(Money.rateToNumber(right(Money.rate("36,5012")))).toBe(36.5012)
  })

  it("takes percentages in basis points, rounding as asked", () => {
    expect(Money.percentage(cents(10_000), Money.BasisPoints(100), "half_up")).toBe(100)
    expect(Money.percentage(cents(150), Money.BasisPoints(100), "half_up")).toBe(2)
    expect(Money.percentage(cents(150), Money.BasisPoints(100), "down")).toBe(1)
    expect(Money.basisPointsFromPercent(33.33)).toEqual(Either.right(3333))
    expect(Money.basisPointsFromPercent(33.333)).toEqual(Either.left("decimales"))
  })

  const amounts = fc.integer({ min: -Money.MAX_CENTS, max: Money.MAX_CENTS })

  it.prop("format and parse round-trip", [amounts], ([n]) => {
    const c = cents(n)
    expect(Money.parseFormatted(Money.format(c))).toEqual(Either.right(c))
  })

  it.prop("toNumber and fromNumber round-trip", [amounts], ([n]) => {
    const c = cents(n)
    expect(Money.fromNumber(Money.toNumber(c))).toEqual(Either.right(c === 0 ? 0 : c))
  })

  it.prop("decimal text round-trips", [amounts], ([n]) => {
    expect(Money.parseDecimal(Money.toDecimalString(cents(n)))).toEqual(Either.right(n === 0 ? 0 : n))
  })

  it.prop(
    "USD to VES never loses more than half a cent",
    [fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 1, max: 100_000_000_000 })],
    ([usd, scaledRate]) => {
      const r: Money.Rate = { _tag: "Rate", scaled: BigInt(scaledRate) }
      const exact = BigInt(usd) * r.scaled // in units of 1e-8 cents
      const got = BigInt(Money.usdToVes(cents(usd), r)) * 100_000_000n
      const diff = got > exact ? got - exact : exact - got
      expect(diff * 2n <= 100_000_000n).toBe(true)
    }
  )
})
