import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Money from "./Money.js"
import * as Reembolso from "./Reembolso.js"

const c = (n: number) => Money.Cents(n)
const paid = (monto: number): Reembolso.Anterior => ({
  tipo: "devolucion",
  monto: c(monto),
  situacion: "pagado"
})

describe("Reembolso: partial refunds of a paid link", () => {
  it("several partial refunds up to the total, then reintegro_ya_pagado", () => {
    expect(Reembolso.decidir(c(10_000), [], c(4_000))).toEqual(Either.right(4_000))
    expect(Reembolso.decidir(c(10_000), [paid(4_000)], c(6_000))).toEqual(Either.right(6_000))
    const over = Reembolso.decidir(c(10_000), [paid(4_000)], c(6_001))
    expect(Either.isLeft(over) && over.left).toMatchObject({
      error: "monto_excede_disponible",
      disponible: 6_000
    })
    const done = Reembolso.decidir(c(10_000), [paid(4_000), paid(6_000)], c(1))
    expect(Either.isLeft(done) && done.left.error).toBe("reintegro_ya_pagado")
  })

  it("a running, an unclear or a paid reversal forbids a new one; a plain rejection does not count", () => {
    const with_ = (situacion: Reembolso.Situacion, tipo: "devolucion" | "reverso" = "devolucion") =>
      Reembolso.decidir(c(10_000), [{ tipo, monto: c(100), situacion }], c(100))
    expect(Either.getLeft(with_("en_curso")).pipe((o) => o._tag === "Some" && o.value.error)).toBe(
      "reintegro_en_curso"
    )
    expect(Either.getLeft(with_("ambiguo")).pipe((o) => o._tag === "Some" && o.value.error)).toBe(
      "reintegro_intento_ambiguo"
    )
    expect(Either.getLeft(with_("pagado", "reverso")).pipe((o) => o._tag === "Some" && o.value.error)).toBe(
      "reintegro_ya_pagado"
    )
    expect(with_("rechazado")).toEqual(Either.right(100))
    expect(
      Reembolso.disponible(c(10_000), [{ tipo: "devolucion", monto: c(9_000), situacion: "rechazado" }])
    ).toBe(10_000)
  })

  it("a bank state reads as its situation: technical rejections and unknowns are unclear", () => {
    expect(Reembolso.situacion("DESCONOCIDA", "enviando", null)).toBe("en_curso")
    expect(Reembolso.situacion("LIQUIDADA", "enviada", null)).toBe("pagado")
    expect(Reembolso.situacion("DESCONOCIDA", "enviada", null)).toBe("ambiguo")
    expect(Reembolso.situacion("ERROR", "enviada", null)).toBe("ambiguo")
    expect(Reembolso.situacion("PENDIENTE", "enviada", null)).toBe("ambiguo")
    expect(Reembolso.situacion("RECHAZADA", "enviada", "RECHAZO_TECNICO")).toBe("ambiguo")
    expect(Reembolso.situacion("RECHAZADA", "enviada", "SALDO_INSUFICIENTE")).toBe("rechazado")
  })

  it("whatever is asked, in any order, what is paid back never exceeds what was paid", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_00 }),
        fc.array(
          fc.record({
            monto: fc.integer({ min: -5, max: 10_000_000_00 }),
            resultado: fc.constantFrom<Reembolso.Situacion>("pagado", "rechazado", "pagado", "ambiguo")
          }),
          { maxLength: 30 }
        ),
        (total, asks) => {
          const anteriores: Array<Reembolso.Anterior> = []
          for (const ask of asks) {
            const decided = Reembolso.decidir(c(total), anteriores, c(ask.monto))
            if (Either.isRight(decided)) {
              expect(decided.right).toBe(ask.monto)
              expect(decided.right).toBeGreaterThan(0)
              anteriores.push({ tipo: "devolucion", monto: decided.right, situacion: ask.resultado })
            }
            const back = Reembolso.devuelto(anteriores)
            expect(back).toBeLessThanOrEqual(total)
            expect(Reembolso.disponible(c(total), anteriores)).toBe(total - back)
            expect(Number.isInteger(back)).toBe(true)
          }
        }
      )
    )
  })
})

describe("Reembolso.estadoDe: a paid link's refund state", () => {
  it.prop(
    "none back is no state, all back is reembolsado, part back is reembolsado_parcial; it agrees with disponible",
    [
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.array(fc.integer({ min: 1, max: 5_000_000 }), { maxLength: 6 })
    ],
    ([pagado, montos]) => {
      // Only what core lets through: each refund up to what is left.
      const anteriores: Array<Reembolso.Anterior> = []
      for (const monto of montos) {
        const decided = Reembolso.decidir(c(pagado), anteriores, c(monto))
        if (Either.isRight(decided)) anteriores.push(paid(decided.right))
      }
      const devuelto = Reembolso.devuelto(anteriores)
      const estado = Reembolso.estadoDe(c(pagado), devuelto)
      const left = Reembolso.disponible(c(pagado), anteriores)
      if (anteriores.length === 0) expect(estado).toBeNull()
      else if (left === 0) expect(estado).toBe("reembolsado")
      else expect(estado).toBe("reembolsado_parcial")
      expect(devuelto + left).toBe(pagado)
    }
  )

  it("a refund past what was paid (a reversal on top) still reads as reembolsado", () => {
    expect(Reembolso.estadoDe(c(100), c(150))).toBe("reembolsado")
    expect(Reembolso.estadoDe(c(100), c(0))).toBeNull()
    expect(Reembolso.estadoDe(c(100), c(99))).toBe("reembolsado_parcial")
  })
})
