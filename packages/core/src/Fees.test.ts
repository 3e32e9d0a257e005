import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Fees from "./Fees.js"
import * as Money from "./Money.js"

const c = (n: number) => Money.Cents(n)
const bp = (n: number) => Money.BasisPoints(n)

const leftOf = <A, E>(e: Either.Either<A, E>): E =>
  Either.match(e, {
    onLeft: (err) => err,
    onRight: (value) => {
      throw new Error(`expected a failure, got ${String(value)}`)
    }
  })

const amountArb = fc.integer({ min: 1, max: 1_000_000_000_00 }).map(c)
const tipArb = fc.integer({ min: 0, max: 10_000_000 }).map(c)
const pctArb = fc.integer({ min: 0, max: 10_000 }).map(bp)

describe("Fees: commission", () => {
  it("the general commission is 1 % and an agreed commission is kept", () => {
    expect(Fees.DEFAULT_COMMISSION_PCT).toBe(100)
    expect(Fees.commissionPctFor(null)).toBe(100)
    expect(Fees.commissionPctFor(undefined)).toBe(100)
    expect(Fees.commissionPctFor(bp(250))).toBe(250)
    expect(Fees.commissionPctFor(bp(0))).toBe(0)
  })

  it("1 % of Bs 100 is Bs 1", () => {
    expect(Fees.commission(c(10_000), bp(100))).toBe(100)
  })

  it("commission rounds half-up to the cent", () => {
    expect(Fees.commission(c(15_050), bp(100))).toBe(151) // 150.5 cents
    expect(Fees.commission(c(50), bp(100))).toBe(1) // 0.5 cent
    expect(Fees.commission(c(49), bp(100))).toBe(0) // 0.49 cent
    expect(Fees.commission(c(12_345), bp(250))).toBe(309) // 308.625 cents
  })
})

describe("Fees: IGTF", () => {
  it("IGTF is 3 % as data, 0 % on bolivar collections", () => {
    expect(Fees.IGTF_PCT).toBe(300)
    expect(Fees.igtfPct("VES")).toBe(0)
    expect(Fees.igtfPct("USD")).toBe(300)
    expect(Fees.igtf(c(1_000_000), "VES")).toBe(0)
  })

  it("IGTF on foreign currency is 3 % rounded half-up", () => {
    expect(Fees.igtf(c(10_000), "USD")).toBe(300)
    expect(Fees.igtf(c(50), "USD")).toBe(2) // 1.5 cents
    expect(Fees.igtf(c(16), "EUR")).toBe(0) // 0.48 cent
  })
})

describe("Fees: tips", () => {
  it("a tip of 0 means none and is always accepted, even without tips enabled", () => {
    expect(Fees.validateTip({ charge: c(10_000), tip: c(0), maxPct: null })).toEqual(Either.right(0))
    expect(Fees.validateTip({ charge: c(10_000), tip: c(0), maxPct: bp(0) })).toEqual(Either.right(0))
  })

  it("a merchant without tips enabled refuses any tip", () => {
    for (const maxPct of [null, undefined, bp(0)]) {
      const err = leftOf(Fees.validateTip({ charge: c(10_000), tip: c(1), maxPct }))
      expect(err.error).toBe("propina_no_permitida")
      expect(err.maximo).toBe(0)
    }
  })

  it("a tip up to the merchant's percentage of the charge is accepted, one cent more is not", () => {
    // 10 % of Bs 100 is Bs 10.
    expect(Fees.validateTip({ charge: c(10_000), tip: c(1_000), maxPct: bp(1_000) })).toEqual(
      Either.right(1_000)
    )
    const err = leftOf(Fees.validateTip({ charge: c(10_000), tip: c(1_001), maxPct: bp(1_000) }))
    expect(err.error).toBe("propina_excede_maximo")
    expect(err.maximo).toBe(1_000)
    expect(err.mensaje).toBe("la propina no puede superar Bs 10,00")
  })

  it("the percentage cap rounds down to the cent", () => {
    // 15 % of Bs 9,99 is 149.85 cents: the cap is 149.
    expect(Fees.tipCap({ charge: c(999), maxPct: bp(1_500) })).toBe(149)
    expect(Fees.validateTip({ charge: c(999), tip: c(149), maxPct: bp(1_500) })).toEqual(Either.right(149))
    expect(leftOf(Fees.validateTip({ charge: c(999), tip: c(150), maxPct: bp(1_500) })).error).toBe(
      "propina_excede_maximo"
    )
  })

  it("the merchant's cap never goes over 100 % of the charge", () => {
    expect(Fees.tipCap({ charge: c(10_000), maxPct: bp(10_000) })).toBe(10_000)
    expect(Fees.tipCap({ charge: c(10_000), maxPct: bp(25_000) })).toBe(10_000)
    expect(leftOf(Fees.validateTip({ charge: c(10_000), tip: c(10_001), maxPct: bp(25_000) })).error).toBe(
      "propina_excede_maximo"
    )
  })

  it("a tip is never more than Bs 100.000 whatever the percentage", () => {
    const charge = c(100_000_000) // Bs 1.000.000
    expect(Fees.tipCap({ charge, maxPct: bp(10_000) })).toBe(10_000_000)
    expect(Fees.validateTip({ charge, tip: c(10_000_000), maxPct: bp(10_000) })).toEqual(
      Either.right(10_000_000)
    )
    const err = leftOf(Fees.validateTip({ charge, tip: c(10_000_001), maxPct: bp(10_000) }))
    expect(err.error).toBe("propina_excede_maximo")
    expect(err.mensaje).toBe("la propina no puede superar Bs 100.000,00")
  })

  it("a negative tip is refused", () => {
    expect(leftOf(Fees.validateTip({ charge: c(10_000), tip: c(-1), maxPct: bp(1_000) })).error).toBe(
      "propina_negativa"
    )
  })

  it.prop("an accepted tip is within both caps", [amountArb, tipArb, pctArb], ([charge, tip, maxPct]) => {
    Either.match(Fees.validateTip({ charge, tip, maxPct }), {
      onLeft: (err) => expect(tip).toBeGreaterThan(err.maximo),
      onRight: (accepted) => {
        expect(accepted).toBe(tip)
        expect(accepted).toBeLessThanOrEqual(10_000_000)
        // tip / charge <= maxPct / 10000, in integers.
        expect(BigInt(accepted) * 10_000n).toBeLessThanOrEqual(BigInt(charge) * BigInt(maxPct))
      }
    })
  })
})

describe("Fees: total", () => {
  it("the payer is debited the amount plus the tip: Bs 100 with a Bs 10 tip is Bs 110", () => {
    expect(Fees.total(c(10_000), c(1_000))).toBe(11_000)
  })

  it.prop("the total is the net's gross", [amountArb, tipArb, pctArb], ([amount, tip, commissionPct]) => {
    expect(Fees.total(amount, tip)).toBe(Fees.net({ amount, tip, commissionPct }).bruto)
  })

  it("a total past the largest amount is refused, never a float or an overflow", () => {
    expect(() => Fees.total(c(Money.MAX_CENTS), c(1))).toThrow()
  })
})

describe("Fees: net", () => {
  it("the net of a Bs 100 charge with a Bs 10 tip at 1 % is Bs 108,90", () => {
    expect(Fees.net({ amount: c(10_000), tip: c(1_000), commissionPct: bp(100) })).toEqual({
      bruto: 11_000,
      comision: 110,
      neto: 10_890
    })
  })

  it("the commission is computed on amount plus tip, not on the amount alone", () => {
    // 1 % of Bs 0,50 rounds to 1 cent; of Bs 0,40 alone it would round to 0.
    expect(Fees.net({ amount: c(40), tip: c(10), commissionPct: bp(100) }).comision).toBe(1)
  })

  it("the net is never negative, even with a commission configured above 100 %", () => {
    expect(Fees.net({ amount: c(100), tip: c(0), commissionPct: bp(20_000) })).toEqual({
      bruto: 100,
      comision: 100,
      neto: 0
    })
  })

  it.prop(
    "net = amount + tip - commission and the commission never exceeds amount + tip",
    [amountArb, tipArb, pctArb],
    ([amount, tip, commissionPct]) => {
      const result = Fees.net({ amount, tip, commissionPct })
      expect(result.bruto).toBe(amount + tip)
      expect(result.comision).toBe(Fees.commission(result.bruto, commissionPct))
      expect(result.neto).toBe(amount + tip - result.comision)
      expect(result.comision).toBeLessThanOrEqual(amount + tip)
      expect(result.comision).toBeGreaterThanOrEqual(0)
      expect(result.neto).toBeGreaterThanOrEqual(0)
    }
  )
})

describe("Fees: card payment", () => {
  it("a Bs 100 charge is billed Bs 103 by card", () => {
    expect(Fees.CARD_SURCHARGE_PCT).toBe(300)
    expect(Fees.cardCharge(c(10_000))).toEqual({ recargo: 300, total: 10_300 })
  })

  it("the surcharge rounds half-up to the cent", () => {
    expect(Fees.cardCharge(c(50))).toEqual({ recargo: 2, total: 52 }) // 1.5 cents
    expect(Fees.cardCharge(c(16))).toEqual({ recargo: 0, total: 16 }) // 0.48 cent
  })

  it("the merchant's net by card ignores the surcharge, as for immediate debit", () => {
    const debit = Fees.net({ amount: c(10_000), tip: c(0), commissionPct: bp(100) })
    expect(Fees.cardCharge(debit.bruto).total).toBe(10_300)
    expect(debit.neto).toBe(9_900)
  })

  it.prop("the card total is the charge plus the surcharge", [amountArb], ([charge]) => {
    const bill = Fees.cardCharge(charge)
    expect(bill.total).toBe(charge + bill.recargo)
    expect(bill.recargo).toBe(Money.percentage(charge, Fees.CARD_SURCHARGE_PCT, "half_up"))
  })

  const live = { mode: "live", currency: "VES", hasSplit: false, total: c(10_000) } as const

  it("card payment is offered on a live VES link without split", () => {
    expect(Fees.cardAvailability(live)).toEqual({ _tag: "Disponible", recargo: 300, total: 10_300 })
    expect(Fees.cardAvailable(live)).toBe(true)
  })

  it("card payment is not offered on test links", () => {
    expect(Fees.cardAvailability({ ...live, mode: "test" })).toEqual({
      _tag: "NoDisponible",
      motivo: "modo_prueba"
    })
  })

  it("card payment is not offered outside VES", () => {
    expect(Fees.cardAvailability({ ...live, currency: "USD" })).toEqual({
      _tag: "NoDisponible",
      motivo: "moneda"
    })
  })

  it("card payment is not offered on links with split", () => {
    expect(Fees.cardAvailable({ ...live, hasSplit: true })).toBe(false)
    expect(Fees.cardAvailability({ ...live, hasSplit: true })).toEqual({
      _tag: "NoDisponible",
      motivo: "split"
    })
  })

  it("the Bs 5 card minimum counts the surcharge", () => {
    expect(Fees.CARD_MIN).toBe(500)
    // Bs 4,85 + 3 % = 4,9955 → recargo 15 cents → Bs 5,00 billed.
    expect(Fees.cardAvailability({ ...live, total: c(485) })).toEqual({
      _tag: "Disponible",
      recargo: 15,
      total: 500
    })
    // Bs 4,84 + 15 cents = Bs 4,99: below the minimum.
    expect(Fees.cardAvailability({ ...live, total: c(484) })).toEqual({
      _tag: "NoDisponible",
      motivo: "bajo_minimo"
    })
  })

  it("the pilot ceiling counts the surcharge", () => {
    expect(Fees.cardAvailable({ ...live, ceiling: c(10_300) })).toBe(true)
    expect(Fees.cardAvailability({ ...live, ceiling: c(10_299) })).toEqual({
      _tag: "NoDisponible",
      motivo: "sobre_techo"
    })
    expect(Fees.cardAvailable({ ...live, ceiling: null })).toBe(true)
  })
})
