import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option } from "effect"
import * as Caps from "./Caps.js"
import * as Money from "./Money.js"

const bs = (n: number) => Money.Cents(n)
const rate = (value: string): Money.Rate => Either.getOrThrow(Money.rate(value))
const ves = (cents: number): Money.Limit => ({ cents: bs(cents), moneda: "VES" })
const usd = (cents: number): Money.Limit => ({ cents: bs(cents), moneda: "USD" })

/** 36.50 Bs per dollar: US$ 300 is Bs 10.950,00 and US$ 1,000 is Bs 36.500,00. */
const tasa = rate("36.50")

const arbCents = (max: number) => fc.integer({ min: 0, max }).map(bs)
const arbRate = fc
  .bigInt({ min: 1_000_000n, max: 100_000_000_000n })
  .map((scaled): Money.Rate => ({ _tag: "Rate", scaled }))
const arbLimit = fc.record({
  cents: fc.integer({ min: 1, max: 5_000_000 }).map(bs),
  moneda: fc.constantFrom<Money.Currency>("VES", "USD")
})
const arbOptionalLimit = fc.option(arbLimit, { nil: undefined, freq: 3 })

describe("Caps: per-charge limits", () => {
  const limits: Caps.ChargeLimits = {
    montoMin: ves(1_000),
    montoMax: ves(500_000),
    maxDiario: ves(1_000_000)
  }

  it("a charge below the minimum is refused with MONTO_INVALIDO", () => {
    expect(Caps.checkCharge({ monto: bs(999), usadoHoy: bs(0), limits, tasa })).toEqual({
      _tag: "Rechazado",
      motivo_rechazo: "MONTO_INVALIDO",
      limite: "monto_min",
      limiteVes: 1_000,
      usadoHoy: 0
    })
  })

  it("a charge above the per-charge maximum is refused with EXCEDE_LIMITE", () => {
    const result = Caps.checkCharge({ monto: bs(500_001), usadoHoy: bs(0), limits, tasa })
    expect(result).toMatchObject({ _tag: "Rechazado", motivo_rechazo: "EXCEDE_LIMITE", limite: "monto_max" })
  })

  it("a charge that would pass the per-day maximum is refused with EXCEDE_LIMITE", () => {
    const result = Caps.checkCharge({ monto: bs(400_000), usadoHoy: bs(600_001), limits, tasa })
    expect(result).toMatchObject({ _tag: "Rechazado", motivo_rechazo: "EXCEDE_LIMITE", limite: "max_diario" })
  })

  it("charges exactly at the minimum, the maximum or the day's maximum are allowed", () => {
    expect(Caps.checkCharge({ monto: bs(1_000), usadoHoy: bs(0), limits, tasa })._tag).toBe("Permitido")
    expect(Caps.checkCharge({ monto: bs(500_000), usadoHoy: bs(0), limits, tasa })._tag).toBe("Permitido")
    expect(Caps.checkCharge({ monto: bs(400_000), usadoHoy: bs(600_000), limits, tasa })._tag).toBe(
      "Permitido"
    )
  })

  it("with no limits set every charge is allowed", () => {
    expect(Caps.checkCharge({ monto: bs(Money.MAX_CENTS), usadoHoy: bs(0), limits: {}, tasa })._tag).toBe(
      "Permitido"
    )
    const cleared = { montoMin: null, montoMax: null, maxDiario: null }
    expect(
      Caps.checkCharge({ monto: bs(1), usadoHoy: bs(Money.MAX_CENTS), limits: cleared, tasa })._tag
    ).toBe("Permitido")
  })

  it("dollar limits are converted at the rate of the operation", () => {
    // US$ 10 minimum: Bs 365,00 at 36.50, Bs 400,00 at 40.
    const dollarMin = { montoMin: usd(1_000) }
    expect(Caps.checkCharge({ monto: bs(38_000), usadoHoy: bs(0), limits: dollarMin, tasa })._tag).toBe(
      "Permitido"
    )
    expect(
      Caps.checkCharge({ monto: bs(38_000), usadoHoy: bs(0), limits: dollarMin, tasa: rate("40") })
    ).toMatchObject({ _tag: "Rechazado", motivo_rechazo: "MONTO_INVALIDO", limiteVes: 40_000 })
  })

  it("the minimum is checked first when a misconfigured minimum is above the maximum", () => {
    const wrong = { montoMin: ves(10_000), montoMax: ves(5_000) }
    expect(Caps.checkCharge({ monto: bs(7_000), usadoHoy: bs(0), limits: wrong, tasa })).toMatchObject({
      motivo_rechazo: "MONTO_INVALIDO"
    })
  })

  it.prop(
    "a charge is allowed exactly when it respects every limit set",
    [
      arbCents(10_000_000),
      arbCents(10_000_000),
      arbOptionalLimit,
      arbOptionalLimit,
      arbOptionalLimit,
      arbRate
    ],
    ([monto, usadoHoy, montoMin, montoMax, maxDiario, r]) => {
      const limits = { montoMin, montoMax, maxDiario }
      const result = Caps.checkCharge({ monto, usadoHoy, limits, tasa: r })
      const inVes = (l: Money.Limit | undefined) => (l === undefined ? undefined : Money.limitInVes(l, r))
      const min = inVes(montoMin)
      const max = inVes(montoMax)
      const day = inVes(maxDiario)
      const ok =
        (min === undefined || monto >= min) &&
        (max === undefined || monto <= max) &&
        (day === undefined || usadoHoy + monto <= day)
      expect(result._tag === "Permitido").toBe(ok)
      if (result._tag === "Rechazado") {
        expect(result.motivo_rechazo).toBe(result.limite === "monto_min" ? "MONTO_INVALIDO" : "EXCEDE_LIMITE")
      }
    }
  )
})

describe("Caps: receive caps", () => {
  const base = { usadoHoy: bs(0), usadoTotal: bs(0), caps: {}, revisado: true, tasa }

  it("a reviewed merchant with no caps set is never stopped", () => {
    const result = Caps.checkReceiveCap({
      ...base,
      monto: bs(Money.MAX_CENTS),
      usadoTotal: bs(Money.MAX_CENTS)
    })
    expect(result).toEqual({ _tag: "Permitido" })
  })

  it("refuses with tope_diario_excedido when today's collections plus the charge pass the daily cap", () => {
    const result = Caps.checkReceiveCap({
      ...base,
      monto: bs(200_000),
      usadoHoy: bs(900_000),
      caps: { topeDiario: ves(1_000_000) }
    })
    expect(result).toEqual({
      _tag: "Rechazado",
      refusal: {
        error: "tope_diario_excedido",
        motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
        tope: 1_000_000,
        usado: 900_000
      }
    })
  })

  it("refuses with tope_acumulado_excedido when all collections plus the charge pass the total cap", () => {
    const result = Caps.checkReceiveCap({
      ...base,
      monto: bs(100),
      usadoTotal: bs(5_000_000),
      caps: { topeAcumulado: ves(5_000_000) }
    })
    expect(result).toMatchObject({
      _tag: "Rechazado",
      refusal: { error: "tope_acumulado_excedido", tope: 5_000_000, usado: 5_000_000 }
    })
  })

  it("reaching a cap exactly is allowed; one cent more is refused", () => {
    const caps = { topeDiario: ves(1_000_000) }
    expect(Caps.checkReceiveCap({ ...base, caps, monto: bs(100_000), usadoHoy: bs(900_000) })._tag).toBe(
      "Permitido"
    )
    expect(Caps.checkReceiveCap({ ...base, caps, monto: bs(100_001), usadoHoy: bs(900_000) })._tag).toBe(
      "Rechazado"
    )
  })

  it("a single charge larger than the cap is refused even on a fresh day", () => {
    const result = Caps.checkReceiveCap({
      ...base,
      monto: bs(1_000_001),
      caps: { topeDiario: ves(1_000_000) }
    })
    expect(result).toMatchObject({ _tag: "Rechazado", refusal: { error: "tope_diario_excedido", usado: 0 } })
  })

  it("a dollar cap reports topes_moneda USD, tope_usd as set and tasa_bcv, with tope = tope_usd x tasa_bcv", () => {
    const tasaBcv = rate("36.5012")
    const result = Caps.checkReceiveCap({
      ...base,
      tasa: tasaBcv,
      monto: bs(10_000),
      usadoHoy: bs(1_820_000),
      caps: { topeDiario: usd(50_000) }
    })
    // US$ 500,00 x 36.5012 = Bs 18.250,60.
    expect(result).toEqual({
      _tag: "Rechazado",
      refusal: {
        error: "tope_diario_excedido",
        motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
        tope: 1_825_060,
        usado: 1_820_000,
        topes_moneda: "USD",
        tope_usd: 50_000,
        tasa_bcv: tasaBcv
      }
    })
  })

  it("a bolivar cap carries no dollar fields", () => {
    const result = Caps.checkReceiveCap({ ...base, monto: bs(2), caps: { topeAcumulado: ves(1) } })
    expect(result._tag === "Rechazado" && Object.keys(result.refusal).sort()).toEqual([
      "error",
      "motivo",
      "tope",
      "usado"
    ])
  })

  it("the same dollar cap allows more bolivars when the rate rises", () => {
    const input = { ...base, monto: bs(1_100_000), caps: { topeDiario: usd(30_000) } }
    // US$ 300 is Bs 10.950,00 at 36.50 and Bs 12.000,00 at 40.
    expect(Caps.checkReceiveCap({ ...input, tasa })._tag).toBe("Rechazado")
    expect(Caps.checkReceiveCap({ ...input, tasa: rate("40") })._tag).toBe("Permitido")
  })

  it("when both caps would be passed the total cap is reported, since waiting a day would not help", () => {
    const result = Caps.checkReceiveCap({
      ...base,
      monto: bs(500),
      usadoHoy: bs(1_000),
      usadoTotal: bs(10_000),
      caps: { topeDiario: ves(1_000), topeAcumulado: ves(10_000) }
    })
    expect(result).toMatchObject({
      refusal: { error: "tope_acumulado_excedido", tope: 10_000, usado: 10_000 }
    })
  })
})

describe("Caps: auto-approved new accounts", () => {
  const fresh = { usadoHoy: bs(0), usadoTotal: bs(0), caps: {}, revisado: false, tasa }

  it("until reviewed, a merchant collects at most US$ 300 per day", () => {
    // US$ 300 at 36.50 = Bs 10.950,00.
    expect(Caps.checkReceiveCap({ ...fresh, monto: bs(1_095_000) })._tag).toBe("Permitido")
    expect(Caps.checkReceiveCap({ ...fresh, monto: bs(1_095_001) })).toEqual({
      _tag: "Rechazado",
      refusal: {
        error: "tope_diario_excedido",
        motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
        tope: 1_095_000,
        usado: 0,
        topes_moneda: "USD",
        tope_usd: 30_000,
        tasa_bcv: tasa
      }
    })
  })

  it("until reviewed, a merchant collects at most US$ 1,000 in total", () => {
    // US$ 1,000 at 36.50 = Bs 36.500,00.
    const result = Caps.checkReceiveCap({ ...fresh, monto: bs(100_000), usadoTotal: bs(3_600_000) })
    expect(result).toMatchObject({
      _tag: "Rechazado",
      refusal: { error: "tope_acumulado_excedido", tope: 3_650_000, usado: 3_600_000, tope_usd: 100_000 }
    })
  })

  it("once reviewed, the new-account caps no longer apply", () => {
    expect(Caps.checkReceiveCap({ ...fresh, revisado: true, monto: bs(5_000_000) })._tag).toBe("Permitido")
  })

  it("a configured cap looser than the new-account cap does not loosen it", () => {
    const result = Caps.checkReceiveCap({
      ...fresh,
      monto: bs(2_000_000),
      caps: { topeDiario: ves(5_000_000) }
    })
    expect(result).toMatchObject({
      refusal: { error: "tope_diario_excedido", tope: 1_095_000, tope_usd: 30_000 }
    })
  })

  it("a configured cap stricter than the new-account cap is the one applied and reported", () => {
    const result = Caps.checkReceiveCap({ ...fresh, monto: bs(600_000), caps: { topeDiario: ves(500_000) } })
    expect(result).toEqual({
      _tag: "Rechazado",
      refusal: {
        error: "tope_diario_excedido",
        motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
        tope: 500_000,
        usado: 0
      }
    })
  })

  it("lists the caps in force with where each comes from", () => {
    expect(Caps.effectiveReceiveCaps({ topeDiario: ves(500_000) }, false, tasa)).toEqual({
      diario: { limit: ves(500_000), ves: 500_000, origen: "configurado" },
      acumulado: { limit: Caps.NUEVA_CUENTA_TOPE_ACUMULADO, ves: 3_650_000, origen: "cuenta_nueva" }
    })
    expect(Caps.effectiveReceiveCaps({ topeDiario: null }, true, tasa)).toEqual({})
  })
})

describe("Caps: laws", () => {
  const arbInput = fc.record({
    monto: fc.integer({ min: 1, max: 10_000_000 }).map(bs),
    usadoHoy: arbCents(10_000_000),
    extraTotal: arbCents(10_000_000),
    topeDiario: arbOptionalLimit,
    topeAcumulado: arbOptionalLimit,
    revisado: fc.boolean(),
    tasa: arbRate
  })

  it.prop("a cap check never allows used + amount past any cap in force", [arbInput], ([i]) => {
    const usadoTotal = bs(i.usadoHoy + i.extraTotal)
    const caps = { topeDiario: i.topeDiario, topeAcumulado: i.topeAcumulado }
    const result = Caps.checkReceiveCap({ ...i, usadoTotal, caps })
    const daily = [i.topeDiario, i.revisado ? undefined : Caps.NUEVA_CUENTA_TOPE_DIARIO]
    const total = [i.topeAcumulado, i.revisado ? undefined : Caps.NUEVA_CUENTA_TOPE_ACUMULADO]
    const within = (limits: Array<Money.Limit | undefined>, used: number) =>
      limits.every((l) => l === undefined || used + i.monto <= Money.limitInVes(l, i.tasa))
    expect(result._tag === "Permitido").toBe(within(daily, i.usadoHoy) && within(total, usadoTotal))
  })

  it.prop("a refusal reports a cap that used + amount really passes", [arbInput], ([i]) => {
    const usadoTotal = bs(i.usadoHoy + i.extraTotal)
    const result = Caps.checkReceiveCap({
      ...i,
      usadoTotal,
      caps: { topeDiario: i.topeDiario, topeAcumulado: i.topeAcumulado }
    })
    if (result._tag === "Permitido") return
    const r = result.refusal
    expect(r.usado).toBe(r.error === "tope_diario_excedido" ? i.usadoHoy : usadoTotal)
    expect(r.usado + i.monto).toBeGreaterThan(r.tope)
    expect(r.motivo).toBe(Caps.MOTIVO_TOPE[r.error])
  })

  it.prop("with a dollar cap, tope is tope_usd converted at tasa_bcv", [arbInput], ([i]) => {
    const result = Caps.checkReceiveCap({
      ...i,
      usadoTotal: bs(i.usadoHoy + i.extraTotal),
      caps: { topeDiario: i.topeDiario, topeAcumulado: i.topeAcumulado }
    })
    if (result._tag === "Permitido") return
    const r = result.refusal
    if (r.tope_usd === undefined || r.tasa_bcv === undefined) {
      expect(r.topes_moneda).toBeUndefined()
      return
    }
    expect(r.topes_moneda).toBe("USD")
    expect(r.tope).toBe(Money.usdToVes(r.tope_usd, r.tasa_bcv))
  })

  it.prop("an unreviewed account is never allowed more than a reviewed one", [arbInput], ([i]) => {
    const input = {
      ...i,
      usadoTotal: bs(i.usadoHoy + i.extraTotal),
      caps: { topeDiario: i.topeDiario, topeAcumulado: i.topeAcumulado }
    }
    const unreviewed = Caps.checkReceiveCap({ ...input, revisado: false })
    const reviewed = Caps.checkReceiveCap({ ...input, revisado: true })
    if (unreviewed._tag === "Permitido") expect(reviewed._tag).toBe("Permitido")
  })
})

describe("Caps: 409 body", () => {
  const refusal: Caps.CapRefusal = {
    error: "tope_diario_excedido",
    motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
    tope: bs(1_825_060),
    usado: bs(1_820_000),
    topes_moneda: "USD",
    tope_usd: bs(50_000),
    tasa_bcv: rate("36.5012")
  }

  it("with a merchant key the body has tope and usado in Bs and the dollar fields", () => {
    expect(Caps.refusalBody(refusal, true)).toEqual({
      error: "tope_diario_excedido",
      motivo: Caps.MOTIVO_TOPE.tope_diario_excedido,
      tope: 18250.6,
      usado: 18200,
      topes_moneda: "USD",
      tope_usd: 500,
      tasa_bcv: 36.5012
    })
  })

  it("without a merchant key the payer sees only error and motivo", () => {
    expect(Caps.refusalBody(refusal, false)).toEqual({
      error: "tope_diario_excedido",
      motivo: Caps.MOTIVO_TOPE.tope_diario_excedido
    })
  })
})

describe("Caps: dollar limits fail closed without a rate", () => {
  const arbLimits = fc.record({
    caps: fc.record({ topeDiario: arbOptionalLimit, topeAcumulado: arbOptionalLimit }),
    limits: fc.record({
      montoMin: arbOptionalLimit,
      montoMax: arbOptionalLimit,
      maxDiario: arbOptionalLimit
    }),
    revisado: fc.boolean()
  })

  it.prop("a rate is needed exactly when some limit in force is in dollars", [arbLimits], ([input]) => {
    const dollar = [
      input.caps.topeDiario,
      input.caps.topeAcumulado,
      input.limits.montoMin,
      input.limits.montoMax,
      input.limits.maxDiario
    ].some((l) => l?.moneda === "USD")
    expect(Caps.needsRate(input)).toBe(dollar || !input.revisado)
  })

  it("an account not yet reviewed always needs the rate: its new-account caps are in dollars", () => {
    expect(Caps.needsRate({ caps: {}, limits: {}, revisado: false })).toBe(true)
    expect(Caps.needsRate({ caps: { topeDiario: ves(100) }, limits: {}, revisado: true })).toBe(false)
    expect(Caps.needsRate({ caps: {}, limits: { montoMax: usd(100) }, revisado: true })).toBe(true)
  })

  it("a rate older than the allowed hours counts as missing", () => {
    const setAt = new Date("2026-11-20T12:00:00Z")
    expect(Caps.rateIsFresh(setAt, new Date("2026-11-22T12:00:00Z"), 48)).toBe(true)
    expect(Caps.rateIsFresh(setAt, new Date("2026-11-22T12:00:00.001Z"), 48)).toBe(false)
  })
})

describe("Caps: which limits apply", () => {
  const arbNullableLimit = fc.option(arbLimit, { nil: null, freq: 3 })
  const arbMerchant = fc.record({
    revisado: fc.boolean(),
    monto_min: arbNullableLimit,
    monto_max: arbNullableLimit,
    max_diario: arbNullableLimit,
    tope_diario: arbNullableLimit,
    tope_acumulado: arbNullableLimit
  })

  it.prop(
    "the merchant's own limits apply in both modes; the new-account caps on live money only",
    [arbMerchant],
    ([merchant]) => {
      const own = {
        caps: { topeDiario: merchant.tope_diario, topeAcumulado: merchant.tope_acumulado },
        limits: { montoMin: merchant.monto_min, montoMax: merchant.monto_max, maxDiario: merchant.max_diario }
      }
      expect(Caps.limitsInForce(merchant, "live")).toEqual({ ...own, revisado: merchant.revisado })
      expect(Caps.limitsInForce(merchant, "test")).toEqual({ ...own, revisado: true })
    }
  )

  it("an unreviewed merchant's test money is not held to the new-account caps", () => {
    const merchant = {
      revisado: false,
      monto_min: null,
      monto_max: null,
      max_diario: null,
      tope_diario: null,
      tope_acumulado: null
    }
    const check = (mode: "test" | "live") => {
      const inForce = Caps.limitsInForce(merchant, mode)
      return Caps.checkReceiveCap({
        monto: bs(2_000_000),
        usadoHoy: bs(0),
        usadoTotal: bs(0),
        caps: inForce.caps,
        revisado: inForce.revisado,
        tasa
      })._tag
    }
    expect(check("live")).toBe("Rechazado")
    expect(check("test")).toBe("Permitido")
  })
})

describe("Caps: the rate the limits use", () => {
  const at = new Date("2026-11-22T12:00:00Z")
  const arbInForce = fc.record({
    caps: fc.record({ topeDiario: arbOptionalLimit, topeAcumulado: arbOptionalLimit }),
    limits: fc.record({
      montoMin: arbOptionalLimit,
      montoMax: arbOptionalLimit,
      maxDiario: arbOptionalLimit
    }),
    revisado: fc.boolean()
  })
  const arbOnRecord = fc.option(
    fc.record({
      rate: arbRate,
      setAt: fc.integer({ min: 0, max: 96 }).map((h) => new Date(at.getTime() - h * 3_600_000))
    }),
    { nil: undefined }
  )

  it.prop(
    "a fresh rate on record is used; without one, dollar limits fail closed and bolivar ones convert nothing",
    [arbInForce, arbOnRecord],
    ([inForce, record]) => {
      const result = Caps.rateFor(inForce, Option.fromNullable(record), at, 48)
      if (record !== undefined && Caps.rateIsFresh(record.setAt, at, 48)) {
        expect(result).toEqual(Either.right(record.rate))
      } else if (Caps.needsRate(inForce)) {
        expect(result).toEqual(Either.left("tasa_no_disponible"))
      } else {
        expect(result).toEqual(Either.right(Caps.NO_RATE))
        expect(Money.limitInVes(ves(12_345), Caps.NO_RATE)).toBe(12_345)
      }
    }
  )
})

describe("Caps: usage", () => {
  it.prop(
    "money in flight counts today and in the total; paid money by when it was paid",
    [arbCents(10 ** 9), arbCents(10 ** 9), arbCents(10 ** 9)],
    ([pagadoHoy, antes, enCurso]) => {
      const pagado = bs(pagadoHoy + antes)
      const used = Caps.usage({ pagadoHoy, pagado, enCurso })
      expect(used).toEqual({ hoy: pagadoHoy + enCurso, total: pagadoHoy + antes + enCurso })
      expect(used.hoy).toBeLessThanOrEqual(used.total)
    }
  )
})
