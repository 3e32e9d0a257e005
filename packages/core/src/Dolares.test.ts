/**
 * Links priced in dollars from the portal (issue 33): `Money.usdToVes` converts the dollar price
 * at the BCV rate, exactly (integers only) and rounded half-up to the bolivar cent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Money from "./Money.js"

const rateArb = fc.bigInt({ min: 1n, max: 100_000n * 100_000_000n }).map((scaled) => {
  const text = `${scaled / 100_000_000n}.${(scaled % 100_000_000n).toString().padStart(8, "0")}`
  return Either.getOrThrow(Money.rate(text))
})
const usdArb = fc.integer({ min: 1, max: 10_000_000 }).map((n) => Money.Cents(n))

describe("dollar prices in bolivars", () => {
  it("US$ 10 at Bs 36,5012 is Bs 365,01; half a cent rounds up", () => {
    const r = Either.getOrThrow(Money.rate("36.5012"))
    expect(Money.usdToVes(Money.Cents(1_000), r)).toBe(36_501)
    expect(Money.usdToVes(Money.Cents(1), Either.getOrThrow(Money.rate("36.505")))).toBe(37)
    expect(Money.usdToVes(Money.Cents(1), Either.getOrThrow(Money.rate("36.50499999")))).toBe(37)
    expect(Money.usdToVes(Money.Cents(1), Either.getOrThrow(Money.rate("36.49999999")))).toBe(36)
  })

  it("the bolivars are within half a cent of the exact product, and half a cent rounds up", () => {
    fc.assert(
      fc.property(usdArb, rateArb, (usd, r) => {
        const ves = Money.usdToVes(usd, r)
        // Exact product in units of 1e-8 bolivar cents.
        const exact = BigInt(usd) * r.scaled
        const diff = BigInt(ves) * 100_000_000n - exact
        expect(diff <= 50_000_000n && diff > -50_000_000n).toBe(true)
        expect(Number.isSafeInteger(ves)).toBe(true)
      })
    )
  })

  it("a higher price or a higher rate never gives fewer bolivars", () => {
    fc.assert(
      fc.property(usdArb, usdArb, rateArb, (a, b, r) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(Money.usdToVes(lo, r)).toBeLessThanOrEqual(Money.usdToVes(hi, r))
      })
    )
  })
})
