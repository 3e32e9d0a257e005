import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Operation from "./Operation.js"

describe("direct-API operation states", () => {
  it("ACEPTADA to LIQUIDADA emits transaccion.aprobada and transaccion.liquidada together, with estado LIQUIDADA", () => {
    const result = Either.getOrThrow(Operation.move("ACEPTADA", "LIQUIDADA", "cobro"))
    expect(result.notices).toEqual([
      { evento: "transaccion.aprobada", estado: "LIQUIDADA", operacion: "cobro" },
      { evento: "transaccion.liquidada", estado: "LIQUIDADA", operacion: "cobro" }
    ])
  })

  it("a repeated observation of LIQUIDADA emits nothing more", () => {
    expect(Operation.move("LIQUIDADA", "LIQUIDADA", "cobro")).toEqual(
      Either.right({ estado: "LIQUIDADA", notices: [] })
    )
  })

  it("an ACEPTADA collection sends no notice yet", () => {
    expect(Operation.initialNotices("ACEPTADA", "cobro")).toEqual([])
    expect(Operation.initialNotices("LIQUIDADA", "pago").map((n) => n.evento)).toEqual([
      "transaccion.aprobada",
      "transaccion.liquidada"
    ])
  })

  it("a rejection emits transaccion.rechazada carrying operacion", () => {
    expect(Either.getOrThrow(Operation.move("PENDIENTE", "RECHAZADA", "pago")).notices).toEqual([
      { evento: "transaccion.rechazada", estado: "RECHAZADA", operacion: "pago" }
    ])
  })

  it("an unknown outcome is settled by the bank's answer", () => {
    expect(Either.isRight(Operation.move("DESCONOCIDA", "LIQUIDADA", "pago"))).toBe(true)
    expect(Either.isRight(Operation.move("DESCONOCIDA", "RECHAZADA", "pago"))).toBe(true)
  })

  const states = fc.constantFrom(...Operation.OperationStates)
  const operaciones = fc.constantFrom(...Operation.Operaciones)

  it.prop(
    "a final operation never leaves its state",
    [fc.constantFrom<Operation.OperationState>("LIQUIDADA", "RECHAZADA"), states, operaciones],
    ([from, to, op]) => {
      const result = Operation.move(from, to, op)
      if (to === from) expect(Either.getOrThrow(result).notices).toEqual([])
      else expect(Either.isLeft(result)).toBe(true)
    }
  )

  it.prop(
    "along any path of moves, aprobada and liquidada are each emitted at most once",
    [fc.array(states, { maxLength: 12 }), operaciones],
    ([path, op]) => {
      let estado: Operation.OperationState = "ACEPTADA"
      const sent: Array<string> = []
      for (const next of path) {
        Either.match(Operation.move(estado, next, op), {
          onLeft: () => undefined,
          onRight: (r) => {
            estado = r.estado
            sent.push(...r.notices.map((n) => n.evento))
          }
        })
      }
      expect(sent.filter((e) => e === "transaccion.aprobada").length).toBeLessThanOrEqual(1)
      expect(sent.filter((e) => e === "transaccion.liquidada").length).toBeLessThanOrEqual(1)
      expect(sent.filter((e) => e === "transaccion.rechazada").length).toBeLessThanOrEqual(1)
    }
  )
})
