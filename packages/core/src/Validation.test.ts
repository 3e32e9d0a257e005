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

  it("a field named like an object method is a field error of that name, never a thrown TypeError", () => {
    const names = ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"]
    for (const name of names) {
      const body = JSON.parse(`{"nombre":"x","${name}":1}`)
      const result = decode(body)
      expect(Either.isLeft(result), name).toBe(true)
      if (Either.isLeft(result)) {
        expect(Object.hasOwn(result.left.fieldErrors, name), name).toBe(true)
        expect(result.left.fieldErrors[name], name).toEqual(["campo no permitido"])
      }
    }
  })

  it("a __proto__ key stays a key when nulls are dropped: the copy's prototype never changes", () => {
    const copy = Validation.dropNulls(JSON.parse('{"__proto__":{"polluted":true},"a":null}')) as object
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.keys(copy)).toEqual(["__proto__"])
  })

  it("nesting tens of thousands of levels deep is walked without overflowing the stack", () => {
    const depth = 50_000
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}"\\u0000"${"}".repeat(depth)}`)
    const nul = decode({ nombre: "x", extra: deep })
    expect(Either.isLeft(nul)).toBe(true)
    if (Either.isLeft(nul)) expect(Object.keys(nul.left.fieldErrors)[0]?.split(".")).toHaveLength(depth + 1)
    const arrays = JSON.parse(`${"[".repeat(depth)}null${"]".repeat(depth)}`)
    expect(Either.isRight(decode({ nombre: "x", extra: arrays }))).toBe(true)
    let inner: unknown = Validation.dropNulls(arrays)
    for (let i = 0; i < depth; i++) inner = (inner as Array<unknown>)[0]
    expect(inner).toBeNull()
  })
})
