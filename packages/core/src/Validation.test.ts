import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as Validation from "./Validation.js"

describe("Validation", () => {
  const decode = Validation.decode(
    Schema.Struct({ nombre: Schema.String, extra: Schema.optional(Schema.Unknown) })
  )

  it("refuses a NUL character anywhere in the body, naming the field", () => {
    expect(decode({ nombre: "a\u0000b" })).toEqual(
      Either.left({ fieldErrors: { nombre: ["contiene un carácter no permitido"] } })
    )
    expect(decode({ nombre: "a", extra: { "k\u0000": 1 } })).toEqual(
      Either.left({ fieldErrors: { "extra.k\u0000": ["contiene un carácter no permitido"] } })
    )
    expect(Either.isRight(decode({ nombre: "ñandú 💸" }))).toBe(true)
  })

  it("reads null as absent and refuses unknown fields", () => {
    expect(decode({ nombre: "x", extra: null })).toEqual(Either.right({ nombre: "x" }))
    expect(decode({ nombre: "x", otro: 1 })).toEqual(
      Either.left({ fieldErrors: { otro: ["campo no permitido"] } })
    )
  })
})
