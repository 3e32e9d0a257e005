import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { header, TOLERANCE_SECONDS, verify } from "./CardSignature.js"

const secret = "card-secret"
const now = new Date("2026-11-20T12:00:00Z")
const t = Math.floor(now.getTime() / 1000)
const body = '{"evento":"cargo.aprobado","cargo_id":"c1"}'

describe("card callback signature", () => {
  it("accepts a body signed with the secret at about now", () => {
    expect(Either.isRight(verify(secret, header(secret, t, body), body, now))).toBe(true)
    expect(Either.isRight(verify(secret, header(secret, t - TOLERANCE_SECONDS, body), body, now))).toBe(true)
  })

  it("refuses a missing header, another secret and a replay older than the tolerance", () => {
    expect(verify(secret, undefined, body, now)).toEqual(Either.left("firma_ausente"))
    expect(verify(secret, header("other", t, body), body, now)).toEqual(Either.left("firma_invalida"))
    expect(verify(secret, header(secret, t - TOLERANCE_SECONDS - 1, body), body, now)).toEqual(
      Either.left("firma_vencida")
    )
  })

  it.prop(
    "any change to the body or to the signed time is refused",
    [fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 10_000 })],
    ([extra, shift]) => {
      expect(verify(secret, header(secret, t, body), body + extra, now)).toEqual(
        Either.left("firma_invalida")
      )
      const signed = header(secret, t, body)
      const redated = signed.replace(`t=${t}`, `t=${t + shift}`)
      expect(verify(secret, redated, body, now)).toEqual(Either.left("firma_invalida"))
    }
  )

  it.prop("a garbled header fails closed", [fc.string({ maxLength: 120 })], ([garbage]) => {
    expect(Either.isLeft(verify(secret, garbage, body, now))).toBe(true)
  })
})
