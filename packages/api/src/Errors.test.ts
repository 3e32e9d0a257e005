import { HttpApiSchema } from "@effect/platform"
import type { Split } from "@switch/core"
import { describe, expect, it } from "vitest"
import { BadRequest, ErrorClasses, splitRefusal, UnprocessableEntity } from "./Errors.js"

describe("splitRefusal", () => {
  const cases: ReadonlyArray<readonly [Split.SplitRefusal["_tag"], number, string]> = [
    ["Invalido", 400, "split_invalido"],
    ["MaxBeneficiarios", 400, "split_max_beneficiarios"],
    ["PorcentajesExceden", 400, "split_excede_neto"],
    ["NoDisponible", 400, "split_no_disponible"],
    ["CuentaNoPreaprobada", 400, "split_cuenta_no_preaprobada"],
    ["RequiereLiquidacionInmediata", 422, "split_requiere_liquidacion_inmediata"],
    ["ExcedeNetoDelCobro", 422, "split_excede_neto"]
  ]

  it.each(cases)("%s is %i %s, with core's detail", (tag, status, code) => {
    const error = splitRefusal({ _tag: tag, detail: "el detalle" })
    expect(error).toBeInstanceOf(status === 422 ? UnprocessableEntity : BadRequest)
    expect(HttpApiSchema.getStatusError(error.constructor as typeof BadRequest)).toBe(status)
    expect({ ...error }).toEqual({ error: code, detail: "el detalle" })
  })
})

describe("ErrorClasses", () => {
  it("holds each class once, every one with an error status of its own", () => {
    expect(new Set(ErrorClasses).size).toBe(ErrorClasses.length)
    for (const c of ErrorClasses) expect(HttpApiSchema.getStatusError(c)).toBeGreaterThanOrEqual(400)
  })
})
