import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import type { Instrument } from "./Instrument.js"
import * as Money from "./Money.js"
import * as Split from "./Split.js"

const c = (n: number) => Money.Cents(n)
const bp = (n: number) => Money.BasisPoints(n)

const rightOf = <A, E>(e: Either.Either<A, E>): A =>
  Either.getOrThrowWith(e, (err) => new Error(`expected success, got ${JSON.stringify(err)}`))
const leftOf = <A, E>(e: Either.Either<A, E>): E =>
  Either.match(e, {
    onLeft: (err) => err,
    onRight: (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`)
    }
  })

const ana: Instrument = {
  tipo: "cuenta",
  valor: "01020123450123456789",
  banco: "0102",
  identificacion: "V12345678",
  nombre: "Ana Pérez"
}
const beto: Instrument = {
  tipo: "telefono",
  valor: "04141234567",
  banco: "0105",
  identificacion: "V87654321",
  tipo_doc: "V",
  nombre: "Beto Ruiz"
}

const pct = (n: number): Split.Share => ({ _tag: "Porcentaje", bp: bp(n) })
const fijo = (n: number): Split.Share => ({ _tag: "Fijo", cents: c(n) })

describe("Split.decode", () => {
  it("reads percentages as basis points and fixed amounts as cents", () => {
    const entries = rightOf(
      Split.decode([
        { cuenta: ana, porcentaje: 33.33 },
        { cuenta: beto, monto: 150.5 }
      ])
    )
    expect(entries).toEqual([
      { cuenta: ana, share: { _tag: "Porcentaje", bp: 3333 } },
      { cuenta: beto, share: { _tag: "Fijo", cents: 15050 } }
    ])
  })

  it("accepts exactly 5 beneficiaries and 100 % in total", () => {
    const five = Array.from({ length: 5 }, () => ({ cuenta: ana, porcentaje: 20 }))
    expect(rightOf(Split.decode(five))).toHaveLength(5)
  })

  it("more than 5 beneficiaries is split_max_beneficiarios", () => {
    const six = Array.from({ length: 6 }, () => ({ cuenta: ana, porcentaje: 10 }))
    expect(leftOf(Split.decode(six))).toMatchObject({ _tag: "MaxBeneficiarios" })
  })

  it("an empty split is split_invalido", () => {
    expect(leftOf(Split.decode([]))).toEqual({
      _tag: "Invalido",
      detail: "split: debe tener al menos un beneficiario"
    })
  })

  it("a split that is not an array is split_invalido", () => {
    expect(leftOf(Split.decode({ cuenta: ana, porcentaje: 10 }))._tag).toBe("Invalido")
    expect(leftOf(Split.decode(null))._tag).toBe("Invalido")
  })

  it("both porcentaje and monto is split_invalido naming the index", () => {
    const err = leftOf(
      Split.decode([
        { cuenta: ana, porcentaje: 10 },
        { cuenta: beto, porcentaje: 10, monto: 5 }
      ])
    )
    expect(err).toEqual({
      _tag: "Invalido",
      detail: "split[1]: indique porcentaje o monto, no ambos"
    })
  })

  it("neither porcentaje nor monto is split_invalido naming the index", () => {
    expect(leftOf(Split.decode([{ cuenta: ana }])).detail).toBe("split[0]: indique porcentaje o monto")
  })

  it("missing account data is split_invalido naming the field", () => {
    expect(leftOf(Split.decode([{ porcentaje: 10 }])).detail).toBe("split[0].cuenta: es obligatorio")
    const { banco: _banco, ...sinBanco } = ana
    const err = leftOf(Split.decode([{ cuenta: sinBanco, porcentaje: 10 }]))
    expect(err._tag).toBe("Invalido")
    expect(err.detail).toBe("split[0].cuenta.banco: es obligatorio")
  })

  it("an invalid Instrument is split_invalido with the Instrument's messages", () => {
    const err = leftOf(Split.decode([{ cuenta: { ...ana, banco: "12", extra: 1 }, monto: 10 }]))
    expect(err._tag).toBe("Invalido")
    expect(err.detail).toContain("split[0].cuenta.banco: debe tener exactamente 4 dígitos")
    expect(err.detail).toContain("split[0].cuenta.extra: campo no permitido")
  })

  it("an unknown field in an entry is split_invalido", () => {
    expect(leftOf(Split.decode([{ cuenta: ana, porcentaje: 10, nota: "x" }]))).toEqual({
      _tag: "Invalido",
      detail: "split[0].nota: campo no permitido"
    })
  })

  it("every entry's problems are listed, each with its index", () => {
    const err = leftOf(
      Split.decode([{ cuenta: ana }, { cuenta: beto, porcentaje: 10 }, { cuenta: beto, monto: 0 }])
    )
    expect(err.detail).toBe("split[0]: indique porcentaje o monto; split[2].monto: debe ser mayor que 0")
  })

  it("a percentage must be greater than 0, up to 100, with at most 2 decimals", () => {
    const detail = (porcentaje: unknown) => leftOf(Split.decode([{ cuenta: ana, porcentaje }])).detail
    expect(detail(0)).toBe("split[0].porcentaje: debe ser mayor que 0")
    expect(detail(-5)).toBe("split[0].porcentaje: no puede ser negativo")
    expect(detail(100.01)).toBe("split[0].porcentaje: no puede ser mayor que 100")
    expect(detail(10.001)).toBe("split[0].porcentaje: admite como máximo 2 decimales")
    expect(detail("10")).toBe("split[0].porcentaje: debe ser un número")
    expect(rightOf(Split.decode([{ cuenta: ana, porcentaje: 100 }]))[0]?.share).toEqual(pct(10_000))
    expect(rightOf(Split.decode([{ cuenta: ana, porcentaje: 0.01 }]))[0]?.share).toEqual(pct(1))
  })

  it("a fixed amount must be greater than 0 with at most 2 decimals", () => {
    const detail = (monto: unknown) => leftOf(Split.decode([{ cuenta: ana, monto }])).detail
    expect(detail(0)).toBe("split[0].monto: debe ser mayor que 0")
    expect(detail(1.005)).toBe("split[0].monto: admite como máximo 2 decimales")
    expect(detail(null)).toBe("split[0].monto: debe ser un número")
    expect(rightOf(Split.decode([{ cuenta: ana, monto: 0.01 }]))[0]?.share).toEqual(fijo(1))
  })

  it("percentages summing over 100 are refused as PorcentajesExceden", () => {
    expect(
      leftOf(
        Split.decode([
          { cuenta: ana, porcentaje: 60 },
          { cuenta: beto, porcentaje: 40.01 }
        ])
      )
    ).toEqual({
      _tag: "PorcentajesExceden",
      detail: "los porcentajes suman 100.01 %, más de 100 %"
    })
  })
})

describe("Split.checkAtCreation", () => {
  const merchant: Split.MerchantSplitFacts = {
    splitHabilitado: true,
    liquidacionInmediata: true,
    approvedAccounts: [ana, beto]
  }
  const entries: ReadonlyArray<Split.SplitEntry> = [
    { cuenta: ana, share: pct(5_000) },
    { cuenta: beto, share: fijo(2_000) }
  ]
  const base = { entries, merchant, amount: c(10_000), commissionPct: bp(100) }

  it("accepts a split of approved accounts that fits the net", () => {
    // Net of Bs 100 at 1 % is Bs 99: 49,50 + 20 = 69,50.
    expect(Split.checkAtCreation(base)).toEqual(Either.right(entries))
  })

  it("a merchant without the pilot gets split_no_disponible before any other check", () => {
    const err = leftOf(
      Split.checkAtCreation({
        ...base,
        merchant: { splitHabilitado: false, liquidacionInmediata: false, approvedAccounts: [] }
      })
    )
    expect(err).toMatchObject({ _tag: "NoDisponible" })
  })

  it("a merchant without immediate settlement gets split_requiere_liquidacion_inmediata (422)", () => {
    const err = leftOf(
      Split.checkAtCreation({
        ...base,
        merchant: { ...merchant, liquidacionInmediata: false, approvedAccounts: [] }
      })
    )
    expect(err).toMatchObject({ _tag: "RequiereLiquidacionInmediata" })
  })

  it("an account not approved is split_cuenta_no_preaprobada naming its index", () => {
    const err = leftOf(Split.checkAtCreation({ ...base, merchant: { ...merchant, approvedAccounts: [ana] } }))
    expect(err).toEqual({
      _tag: "CuentaNoPreaprobada",
      detail: "split[1]: la cuenta no está entre las cuentas aprobadas del comercio"
    })
  })

  it("approval must match type, bank, number and holder id", () => {
    const approved = [ana]
    expect(Split.isApproved(ana, approved)).toBe(true)
    expect(Split.isApproved({ ...ana, tipo: "telefono" }, approved)).toBe(false)
    expect(Split.isApproved({ ...ana, banco: "0105" }, approved)).toBe(false)
    expect(Split.isApproved({ ...ana, valor: "01020123450123456780" }, approved)).toBe(false)
    expect(Split.isApproved({ ...ana, identificacion: "V12345679" }, approved)).toBe(false)
  })

  it("approval ignores the holder's name spelling and separators in ids and numbers", () => {
    const approved = [ana]
    expect(Split.isApproved({ ...ana, nombre: "ANA PEREZ" }, approved)).toBe(true)
    expect(Split.isApproved({ ...ana, identificacion: "v-12.345.678" }, approved)).toBe(true)
    expect(Split.isApproved({ ...beto, valor: "0414-123.45.67" }, [beto])).toBe(true)
  })

  it("a split exceeding the net of the charge without tip is split_excede_neto (422)", () => {
    // Net of Bs 100 at 1 % is Bs 99: a fixed Bs 99,01 does not fit, Bs 99 does.
    const over = leftOf(Split.checkAtCreation({ ...base, entries: [{ cuenta: ana, share: fijo(9_901) }] }))
    expect(over).toMatchObject({ _tag: "ExcedeNetoDelCobro" })
    expect(over.detail).toBe("el reparto (Bs 99,01) excede el neto del cobro (Bs 99,00)")
    expect(
      Either.isRight(Split.checkAtCreation({ ...base, entries: [{ cuenta: ana, share: fijo(9_900) }] }))
    ).toBe(true)
  })

  it("fixed amounts plus percentage shares together must fit the net", () => {
    // 50 % of Bs 99 is 49,50; plus Bs 49,51 fixed is Bs 99,01.
    const err = leftOf(
      Split.checkAtCreation({
        ...base,
        entries: [
          { cuenta: ana, share: pct(5_000) },
          { cuenta: beto, share: fijo(4_951) }
        ]
      })
    )
    expect(err._tag).toBe("ExcedeNetoDelCobro")
  })
})

describe("Split.allocate", () => {
  it("percentages round down and the leftover cent stays with the merchant", () => {
    // 33.33 % of 100 cents is 33.33 → 33, three times: merchant keeps 1.
    expect(
      Split.allocate(c(100), [{ share: pct(3_333) }, { share: pct(3_333) }, { share: pct(3_333) }])
    ).toEqual({
      _tag: "Repartible",
      shares: [
        { index: 0, monto: 33, estado: "pendiente" },
        { index: 1, monto: 33, estado: "pendiente" },
        { index: 2, monto: 33, estado: "pendiente" }
      ],
      montoComercio: 1
    })
  })

  it("fixed amounts are paid as given", () => {
    expect(Split.allocate(c(9_900), [{ share: fijo(2_000) }, { share: pct(5_000) }])).toEqual({
      _tag: "Repartible",
      shares: [
        { index: 0, monto: 2_000, estado: "pendiente" },
        { index: 1, monto: 4_950, estado: "pendiente" }
      ],
      montoComercio: 2_950
    })
  })

  it("a share under one cent is sin_monto and not paid", () => {
    // 0.5 % of 99 cents is 0.495 cent.
    const result = Split.allocate(c(99), [{ share: pct(50) }, { share: pct(5_000) }])
    expect(result).toEqual({
      _tag: "Repartible",
      shares: [
        { index: 0, monto: 0, estado: "sin_monto" },
        { index: 1, monto: 49, estado: "pendiente" }
      ],
      montoComercio: 50
    })
  })

  it("when the split takes all the net the merchant keeps 0", () => {
    const result = Split.allocate(c(9_900), [{ share: pct(6_000) }, { share: pct(4_000) }])
    expect(result).toMatchObject({ _tag: "Repartible", montoComercio: 0 })
  })

  it("when the shares exceed the net nobody is paid", () => {
    expect(Split.allocate(c(9_900), [{ share: fijo(5_000) }, { share: fijo(5_000) }])).toEqual({
      _tag: "NoCubre",
      requerido: 10_000,
      neto: 9_900
    })
  })

  const netArb = fc.integer({ min: 0, max: 1_000_000_000_00 }).map(c)
  // Fixed amounts drawn around the net so that both outcomes (covered or not) come up often.
  const netAndEntriesArb = netArb.chain((net) =>
    fc.tuple(
      fc.constant(net),
      fc.array(
        fc
          .oneof(
            fc.integer({ min: 1, max: 10_000 }).map(pct),
            fc.integer({ min: 1, max: Math.max(1, Math.ceil(net / 2)) }).map(fijo)
          )
          .map((share) => ({ share })),
        { minLength: 1, maxLength: 5 }
      )
    )
  )
  // Percentage-only splits whose percentages sum to at most 100.
  const percentOnlyArb = fc
    .array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 5 })
    .filter((bps) => bps.reduce((a, b) => a + b, 0) <= 10_000)
    .map((bps) => bps.map((n) => ({ share: pct(n) })))

  it.prop(
    "the shares plus the merchant's part equal the net, none negative, none over the net",
    [netAndEntriesArb],
    ([[net, entries]]) => {
      const result = Split.allocate(net, entries)
      const exact = entries.reduce((sum, e) => sum + Split.shareOf(net, e.share), 0)
      if (result._tag === "NoCubre") {
        expect(exact).toBeGreaterThan(net)
        return
      }
      const paid = result.shares.reduce((sum, s) => sum + s.monto, 0)
      expect(paid + result.montoComercio).toBe(net)
      expect(result.montoComercio).toBeGreaterThanOrEqual(0)
      for (const share of result.shares) {
        expect(share.monto).toBeGreaterThanOrEqual(0)
        expect(share.monto).toBeLessThanOrEqual(net)
        expect(share.estado).toBe(share.monto === 0 ? "sin_monto" : "pendiente")
      }
    }
  )

  it.prop(
    "percentage-only splits summing to 100 or less always cover the net",
    [netArb, percentOnlyArb],
    ([net, e]) => {
      const result = Split.allocate(net, e)
      expect(result._tag).toBe("Repartible")
    }
  )

  it.prop(
    "rounding down never gives a beneficiary more than its exact share, and less by under a cent",
    [netArb, fc.integer({ min: 1, max: 10_000 })],
    ([net, n]) => {
      const result = Split.allocate(net, [{ share: pct(n) }])
      if (result._tag !== "Repartible") throw new Error("a single percentage always covers the net")
      const monto = BigInt(result.shares[0]?.monto ?? -1)
      const exactTimes10000 = BigInt(net) * BigInt(n)
      expect(monto * 10_000n).toBeLessThanOrEqual(exactTimes10000)
      expect(exactTimes10000 - monto * 10_000n).toBeLessThan(10_000n)
    }
  )
})

describe("Split: reparto view", () => {
  it("a beneficiary is masked to bank, type, last 4 and name", () => {
    const view = Split.maskBeneficiary(
      { cuenta: ana, share: pct(3_333) },
      { monto: c(3_300), estado: "pagado", referencia_bancaria: "000123", liquidacion_txn_id: "txn_1" }
    )
    expect(view).toEqual({
      banco: "0102",
      tipo: "cuenta",
      ultimos4: "6789",
      nombre: "Ana Pérez",
      porcentaje: 3_333,
      monto_fijo: null,
      monto: 3_300,
      estado: "pagado",
      referencia_bancaria: "000123",
      liquidacion_txn_id: "txn_1"
    })
    expect(JSON.stringify(view)).not.toContain(ana.valor)
    expect(JSON.stringify(view)).not.toContain(ana.identificacion)
  })

  it("a fixed-amount beneficiary shows monto_fijo and no percentage; payment facts default to null", () => {
    const view = Split.maskBeneficiary(
      { cuenta: beto, share: fijo(2_000) },
      { monto: c(2_000), estado: "pendiente" }
    )
    expect(view).toMatchObject({
      ultimos4: "4567",
      porcentaje: null,
      monto_fijo: 2_000,
      referencia_bancaria: null,
      liquidacion_txn_id: null
    })
  })

  it("every part paid or without amount makes the reparto repartido", () => {
    expect(Split.repartoEstado(["pagado", "pagado"])).toBe("repartido")
    expect(Split.repartoEstado(["pagado", "sin_monto"])).toBe("repartido")
  })

  it("any part in review puts the reparto in review", () => {
    expect(Split.repartoEstado(["pagado", "en_revision", "descartado"])).toBe("en_revision")
    expect(Split.repartoEstado(["pendiente", "en_revision"])).toBe("en_revision")
  })

  it("finished with some part closed unpaid is cerrado", () => {
    expect(Split.repartoEstado(["pagado", "descartado"])).toBe("cerrado")
    expect(Split.repartoEstado(["descartado", "sin_monto"])).toBe("cerrado")
  })

  it("a part still to pay keeps the reparto pendiente", () => {
    expect(Split.repartoEstado(["pendiente", "pagado"])).toBe("pendiente")
    expect(Split.repartoEstado(["pendiente", "descartado"])).toBe("pendiente")
  })

  it("the reparto counts only paid parts as monto_repartido", () => {
    const paid = Split.maskBeneficiary(
      { cuenta: ana, share: pct(5_000) },
      { monto: c(4_950), estado: "pagado" }
    )
    const review = Split.maskBeneficiary(
      { cuenta: beto, share: fijo(2_000) },
      { monto: c(2_000), estado: "en_revision" }
    )
    expect(Split.reparto({ montoComercio: c(2_950), beneficiarios: [paid, review] })).toEqual({
      estado: "en_revision",
      moneda: "VES",
      monto_comercio: 2_950,
      monto_repartido: 4_950,
      beneficiarios: [paid, review]
    })
  })
})

describe("Split.repartoJson", () => {
  it("shows cents as bolivars and basis points as percentages; anything not an object as it is", () => {
    const part = Split.maskBeneficiary(
      { cuenta: ana, share: pct(3_333) },
      { monto: c(3_300), estado: "pagado", referencia_bancaria: "SIMULADO", liquidacion_txn_id: "t1" }
    )
    const fixed = Split.maskBeneficiary(
      { cuenta: beto, share: fijo(150_50) },
      { monto: c(150_50), estado: "pagado" }
    )
    expect(
      Split.repartoJson(Split.reparto({ montoComercio: c(1_234_56), beneficiarios: [part, fixed] }))
    ).toEqual({
      estado: "repartido",
      moneda: "VES",
      monto_comercio: 1234.56,
      monto_repartido: 183.5,
      beneficiarios: [
        { ...part, porcentaje: 33.33, monto_fijo: null, monto: 33 },
        { ...fixed, porcentaje: null, monto_fijo: 150.5, monto: 150.5 }
      ]
    })
    expect(Split.repartoJson(null)).toBeNull()
    expect(Split.repartoJson("x")).toBe("x")
  })
})

describe("Split.simulateSettlement (test mode)", () => {
  const entryArb = fc
    .tuple(
      fc.constantFrom(ana, beto),
      fc.oneof(fc.integer({ min: 1, max: 10_000 }).map(pct), fc.integer({ min: 1, max: 50_000 }).map(fijo))
    )
    .map(([cuenta, share]): Split.SplitEntry => ({ cuenta, share }))
  const counter = () => {
    let n = 0
    return () => `txn-${++n}`
  }

  it.prop(
    "without a split the merchant is settled the whole net",
    [fc.integer({ min: 0, max: 10 ** 9 })],
    ([n]) => {
      expect(Split.simulateSettlement(c(n), null, counter())).toEqual({
        _tag: "Liquidacion",
        montoComercio: n,
        pagos: [],
        reparto: null
      })
    }
  )

  it.prop(
    "agrees with allocate: the paid parts and the merchant's part add up to the net, each part paid under its own id",
    [fc.integer({ min: 0, max: 200_000 }), fc.array(entryArb, { minLength: 1, maxLength: 5 })],
    ([n, split]) => {
      const neto = c(n)
      const plan = Split.simulateSettlement(neto, split, counter())
      const allocated = Split.allocate(neto, split)
      if (allocated._tag === "NoCubre") {
        expect(plan._tag).toBe("EnRevision")
        if (plan._tag !== "EnRevision") return
        expect(plan.reparto.estado).toBe("en_revision")
        expect(plan.reparto.monto_repartido).toBe(0)
        expect(plan.reparto.beneficiarios.every((b) => b.estado === "en_revision")).toBe(true)
        expect(plan.reparto.beneficiarios.map((b) => b.monto)).toEqual(
          split.map((entry) => Split.shareOf(neto, entry.share))
        )
        return
      }
      expect(plan._tag).toBe(allocated.montoComercio === 0 ? "SoloReparto" : "Liquidacion")
      if (plan._tag === "EnRevision") return
      const paid = allocated.shares.filter((s) => s.estado === "pendiente")
      expect(plan.pagos).toEqual(paid.map((s, i) => ({ txnId: `txn-${i + 1}`, monto: s.monto })))
      expect(plan.pagos.reduce((sum, p) => sum + p.monto, 0) + allocated.montoComercio).toBe(n)
      if (plan._tag === "Liquidacion") expect(plan.montoComercio).toBe(allocated.montoComercio)
      expect(plan.reparto?.estado).toBe("repartido")
      expect(plan.reparto?.monto_comercio).toBe(allocated.montoComercio)
      for (const [index, b] of (plan.reparto?.beneficiarios ?? []).entries()) {
        const share = allocated.shares[index]
        expect(b.monto).toBe(share?.monto)
        expect(b.estado).toBe(share?.estado === "sin_monto" ? "sin_monto" : "pagado")
        expect(b.referencia_bancaria).toBe(b.estado === "pagado" ? "SIMULADO" : null)
        expect(b.liquidacion_txn_id === null).toBe(b.estado !== "pagado")
      }
    }
  )

  it("a split that takes the whole net leaves only its parts: SoloReparto", () => {
    const plan = Split.simulateSettlement(c(9_900), [{ cuenta: ana, share: pct(10_000) }], counter())
    expect(plan).toMatchObject({ _tag: "SoloReparto", pagos: [{ txnId: "txn-1", monto: 9_900 }] })
  })
})

describe("Split: controls and the daily cap per beneficiary", () => {
  const controles = (over: Partial<Split.Controles> = {}): Split.Controles => ({
    bloqueadas: new Set(),
    topeDiario: c(10_000),
    usadoHoy: new Map(),
    ...over
  })

  it("an account removed from the approved list fails the re-check before any other control", () => {
    expect(Split.checkPart({ cuenta: ana, monto: c(100), approved: [beto], controles: controles() })).toEqual(
      { _tag: "NoAprobada" }
    )
    expect(
      Split.checkPart({ cuenta: ana, monto: c(100), approved: [ana], controles: controles() })
    ).toBeNull()
  })

  it("a blocked account fails; the cap counts what was paid today plus this part", () => {
    const clave = Split.cuentaClave(ana)
    expect(
      Split.checkPart({
        cuenta: ana,
        monto: c(1),
        approved: [ana],
        controles: controles({ bloqueadas: new Set([clave]) })
      })
    ).toEqual({ _tag: "Bloqueada" })
    const usado = controles({ usadoHoy: new Map([[clave, 9_000]]) })
    expect(Split.checkPart({ cuenta: ana, monto: c(1_000), approved: [ana], controles: usado })).toBeNull()
    expect(
      Split.checkPart({ cuenta: ana, monto: c(1_001), approved: [ana], controles: usado })
    ).toMatchObject({
      _tag: "TopeDiario",
      usado: 9_000,
      monto: 1_001
    })
  })

  it("at creation a blocked account or a share past the cap is split_beneficiario_bloqueado naming the index", () => {
    const refused = leftOf(
      Split.checkControlsAtCreation({
        entries: [
          { cuenta: beto, share: pct(1_000) },
          { cuenta: ana, share: fijo(6_000) },
          { cuenta: ana, share: fijo(5_000) }
        ],
        amount: c(100_000),
        commissionPct: bp(100),
        controles: controles()
      })
    )
    expect(refused._tag).toBe("BeneficiarioBloqueado")
    // Two parts of one account add up: 6_000 + 5_000 passes 10_000.
    expect(refused.detail).toContain("split[1]")
    expect(refused.detail).toContain("split[2]")
    expect(refused.detail).not.toContain("split[0]")
  })

  it("the default cap applies when operators set none", () => {
    expect(Split.topeDiario(null)).toBe(Split.TOPE_BENEFICIARIO_DIARIO_DEFECTO)
    expect(Split.topeDiario(123)).toBe(123)
  })
})

describe("Split.planLive", () => {
  const entryArb = fc
    .tuple(
      fc.constantFrom(ana, beto),
      fc.oneof(fc.integer({ min: 1, max: 10_000 }).map(pct), fc.integer({ min: 1, max: 50_000 }).map(fijo))
    )
    .map(([cuenta, share]): Split.SplitEntry => ({ cuenta, share }))

  it.prop(
    "the parts plus the merchant's part always equal the net: no cent lost or made; a part under a cent is sin_monto",
    [fc.integer({ min: 0, max: 10_000_000 }), fc.array(entryArb, { minLength: 1, maxLength: 5 })],
    ([n, split]) => {
      const plan = Split.planLive(c(n), split, { liquidacionInmediata: true })
      if (plan._tag === "EnRevision") {
        expect(plan.motivo).toBe("no_cubre")
        expect(Split.allocate(c(n), split)._tag).toBe("NoCubre")
        expect(plan.reparto.beneficiarios.every((b) => b.estado === "en_revision")).toBe(true)
        return
      }
      const parts = plan.reparto.beneficiarios.reduce((sum, b) => sum + b.monto, 0)
      expect(parts + plan.reparto.monto_comercio).toBe(n)
      for (const b of plan.reparto.beneficiarios) {
        expect(Number.isInteger(b.monto)).toBe(true)
        expect(b.estado).toBe(b.monto === 0 ? "sin_monto" : "pendiente")
      }
      expect(plan.reparto.monto_repartido).toBe(0)
    }
  )

  it("3 ways: a percentage rounded down, a fixed amount, a share under a cent; the leftover cent to the merchant", () => {
    // Net 99.99: 33.33 % is 33.3266… → 33.32; 0.01 % is 0.0099… → sin_monto.
    const plan = Split.planLive(
      c(9_999),
      [
        { cuenta: ana, share: pct(3_333) },
        { cuenta: beto, share: fijo(2_500) },
        { cuenta: ana, share: pct(1) }
      ],
      { liquidacionInmediata: true }
    )
    expect(plan._tag).toBe("Repartir")
    expect(plan.reparto.beneficiarios.map((b) => [b.monto, b.estado])).toEqual([
      [3_332, "pendiente"],
      [2_500, "pendiente"],
      [0, "sin_monto"]
    ])
    expect(plan.reparto.monto_comercio).toBe(9_999 - 3_332 - 2_500)
    expect(plan.reparto.estado).toBe("pendiente")
  })

  it("immediate settlement turned off sends every part with an amount to review instead of paying nobody", () => {
    const plan = Split.planLive(
      c(1_000),
      [
        { cuenta: ana, share: pct(5_000) },
        { cuenta: beto, share: pct(1) }
      ],
      { liquidacionInmediata: false }
    )
    expect(plan).toMatchObject({ _tag: "EnRevision", motivo: "sin_liquidacion_inmediata" })
    expect(plan.reparto.estado).toBe("en_revision")
    expect(plan.reparto.beneficiarios.map((b) => b.estado)).toEqual(["en_revision", "sin_monto"])
  })

  it("a bank answer: settled with a reference is paid, accepted is asked again, anything unclear is review", () => {
    const a = (estado: any, referencia_banco: string | null = null) =>
      Split.afterCredit({ estado, referencia_banco })
    expect(a("LIQUIDADA", "REF1")).toBe("pagado")
    expect(a("LIQUIDADA")).toBe("en_revision")
    expect(a("ACEPTADA")).toBe("en_curso")
    expect(a("PENDIENTE")).toBe("en_curso")
    expect(a("RECHAZADA")).toBe("en_revision")
    expect(a("ERROR")).toBe("en_revision")
    expect(a("DESCONOCIDA")).toBe("en_revision")
  })

  it("withPart recomputes the state and what was paid", () => {
    const plan = Split.planLive(c(1_000), [{ cuenta: ana, share: pct(5_000) }], {
      liquidacionInmediata: true
    })
    const paid = Split.withPart(plan.reparto, 0, { estado: "pagado", referencia_bancaria: "R1" })
    expect(paid).toMatchObject({ estado: "repartido", monto_repartido: 500, monto_comercio: 500 })
    expect(Split.terminado(paid)).toBe(true)
    expect(Split.terminado(Split.withPart(plan.reparto, 0, { estado: "en_revision" }))).toBe(false)
    expect(Split.terminado(Split.withPart(plan.reparto, 0, { estado: "descartado" }))).toBe(true)
  })
})

describe("Split.maskedSplitJson", () => {
  it.prop(
    "no account number or holder id of a split reaches the merchant's view, only bank, type, last 4 and name",
    [
      fc.array(fc.tuple(fc.constantFrom(ana, beto), fc.integer({ min: 1, max: 100 })), {
        minLength: 1,
        maxLength: 5
      })
    ],
    ([raw]) => {
      const stored = raw.map(([cuenta, n]) => ({ cuenta, porcentaje: n }))
      const shown = Split.maskedSplitJson(stored) as Array<any>
      const text = JSON.stringify(shown)
      for (const [cuenta] of raw) {
        expect(text).not.toContain(cuenta.valor)
        expect(text).not.toContain(cuenta.identificacion)
      }
      shown.forEach((entry, i) => {
        const cuenta = raw[i]?.[0]
        expect(entry).toEqual({
          cuenta: {
            banco: cuenta?.banco,
            tipo: cuenta?.tipo,
            ultimos4: cuenta?.valor.slice(-4),
            nombre: cuenta?.nombre
          },
          porcentaje: raw[i]?.[1]
        })
      })
    }
  )
})
