import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { AmountObject, PositiveAmount } from "./Amount.js"
import * as Validation from "./Validation.js"

describe("Amount", () => {
  const decodeAmount = Validation.decode(Schema.Struct({ monto: PositiveAmount }))

  it("reads monto into integer cents and writes it back as a number", () => {
    expect(decodeAmount({ monto: 150.5 })).toEqual(Either.right({ monto: 15050 }))
    expect(Schema.encodeSync(PositiveAmount)(Schema.decodeSync(PositiveAmount)(1234.56))).toBe(1234.56)
  })

  it("refuses 10.001, zero, negatives and non-numbers with fieldErrors", () => {
    expect(decodeAmount({ monto: 10.001 })).toEqual(
      Either.left({ fieldErrors: { monto: ["admite como máximo 2 decimales"] } })
    )
    expect(decodeAmount({ monto: 0 })).toEqual(
      Either.left({ fieldErrors: { monto: ["debe ser mayor que 0"] } })
    )
    expect(decodeAmount({ monto: -1 })).toEqual(
      Either.left({ fieldErrors: { monto: ["debe ser mayor que 0"] } })
    )
    expect(decodeAmount({ monto: "10" })).toEqual(
      Either.left({ fieldErrors: { monto: ["debe ser un número"] } })
    )
    expect(decodeAmount({})).toEqual(Either.left({ fieldErrors: { monto: ["es obligatorio"] } }))
  })

  it("defaults the amount object's currency to VES and wants 3 characters", () => {
    const decode = Validation.decode(AmountObject)
    expect(decode({ valor: 10 })).toEqual(Either.right({ valor: 1000, moneda: "VES" }))
    expect(decode({ valor: 10, moneda: "USD" })).toEqual(Either.right({ valor: 1000, moneda: "USD" }))
    expect(Either.isLeft(decode({ valor: 10, moneda: "BS" }))).toBe(true)
    expect(decode({ valor: 10, extra: 1 })).toEqual(
      Either.left({ fieldErrors: { extra: ["campo no permitido"] } })
    )
  })
})
