import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as LinkRequest from "./LinkRequest.js"
import * as Validation from "./Validation.js"

const now = new Date("2026-11-20T12:00:00Z")
const decode = (body: unknown) => LinkRequest.decodeLinkCreate(body, now)
const errorsOf = (result: Either.Either<unknown, { fieldErrors: Record<string, ReadonlyArray<string>> }>) =>
  Either.match(result, { onLeft: (e) => e.fieldErrors, onRight: () => ({}) })

describe("link-create body", () => {
  it("accepts the minimal body with VES and a 24 h expiry by default", () => {
    const result = Either.getOrThrow(decode({ monto: 150.5, concepto: "Pedido 1" }))
    expect(result.body.monto).toBe(15050)
    expect(result.body.moneda).toBe("VES")
    expect(result.expiresAt.toISOString()).toBe("2026-11-21T12:00:00.000Z")
  })

  it("treats null optional fields as absent", () => {
    const result = decode({ monto: 1, concepto: "x", success_url: null, metadata: null, expira_horas: null })
    expect(Either.isRight(result)).toBe(true)
  })

  it("refuses a missing monto, a long concepto and unknown fields, all at once", () => {
    expect(errorsOf(decode({ concepto: "x".repeat(141), test: true }))).toEqual({
      monto: ["es obligatorio"],
      concepto: ["admite como máximo 140 caracteres"],
      test: ["campo no permitido"]
    })
  })

  it("refuses mode and currencies other than VES", () => {
    expect(errorsOf(decode({ monto: 1, concepto: "x", moneda: "USD" }))).toEqual({
      moneda: ["solo se admite VES"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", mode: "live" }))).toEqual({
      mode: ["campo no permitido"]
    })
  })

  it("bounds expira_horas to 1..720 integers", () => {
    expect(Either.isRight(decode({ monto: 1, concepto: "x", expira_horas: 1 }))).toBe(true)
    expect(Either.isRight(decode({ monto: 1, concepto: "x", expira_horas: 720 }))).toBe(true)
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_horas: 0 }))).toEqual({
      expira_horas: ["debe estar entre 1 y 720"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_horas: 721 }))).toHaveProperty("expira_horas")
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_horas: 1.5 }))).toHaveProperty("expira_horas")
  })

  it("counts characters as people do: 140 emoji fit in concepto, 141 do not", () => {
    expect(Either.isRight(decode({ monto: 1, concepto: "🎂".repeat(140) }))).toBe(true)
    expect(errorsOf(decode({ monto: 1, concepto: "🎂".repeat(141) }))).toHaveProperty("concepto")
    expect(Either.isRight(decode({ monto: 1, concepto: "x", metadata: { nota: "🎂".repeat(200) } }))).toBe(
      true
    )
    expect(
      errorsOf(decode({ monto: 1, concepto: "x", metadata: { nota: "🎂".repeat(201) } }))
    ).toHaveProperty("metadata.nota")
  })

  it("ignores expira_horas, even out of range, when expira_en is sent", () => {
    for (const expira_horas of [0, 9999, "x"]) {
      const result = Either.getOrThrow(
        decode({ monto: 1, concepto: "x", expira_horas, expira_en: "2026-11-20T13:30:00Z" })
      )
      expect(result.expiresAt.toISOString()).toBe("2026-11-20T13:30:00.000Z")
    }
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_horas: 0, expira_en: null }))).toHaveProperty(
      "expira_horas"
    )
  })

  it("lets a future expira_en win over expira_horas and refuses a past one", () => {
    const result = Either.getOrThrow(
      decode({ monto: 1, concepto: "x", expira_horas: 5, expira_en: "2026-11-20T13:30:00Z" })
    )
    expect(result.expiresAt.toISOString()).toBe("2026-11-20T13:30:00.000Z")
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_en: "2026-11-20T11:59:59Z" }))).toEqual({
      expira_en: ["debe ser una fecha futura"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_en: "mañana" }))).toEqual({
      expira_en: ["debe ser una fecha ISO 8601"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", expira_en: "2026-02-30T10:00:00Z" }))).toHaveProperty(
      "expira_en"
    )
  })

  it("reads an expira_en without offset as Caracas time", () => {
    const result = Either.getOrThrow(decode({ monto: 1, concepto: "x", expira_en: "2026-11-20T18:00:00" }))
    expect(result.expiresAt.toISOString()).toBe("2026-11-20T22:00:00.000Z")
  })

  it("wants https urls up to 400 characters", () => {
    expect(Either.isRight(decode({ monto: 1, concepto: "x", success_url: "https://tienda.com/ok" }))).toBe(
      true
    )
    expect(errorsOf(decode({ monto: 1, concepto: "x", success_url: "http://tienda.com/ok" }))).toEqual({
      success_url: ["debe comenzar con https://"]
    })
    const long = `https://tienda.com/${"a".repeat(400 - 19 + 1)}`
    expect(errorsOf(decode({ monto: 1, concepto: "x", failure_url: long }))).toEqual({
      failure_url: ["admite como máximo 400 caracteres"]
    })
  })

  it("limits metadata to 20 keys, names of 40 and values of 200 characters", () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, "v"]))
    expect(Either.isRight(decode({ monto: 1, concepto: "x", metadata: twenty }))).toBe(true)
    expect(errorsOf(decode({ monto: 1, concepto: "x", metadata: { ...twenty, k20: "v" } }))).toEqual({
      metadata: ["admite como máximo 20 claves"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", metadata: { ["k".repeat(41)]: "v" } }))).toHaveProperty(
      `metadata.${"k".repeat(41)}`
    )
    expect(errorsOf(decode({ monto: 1, concepto: "x", metadata: { a: "v".repeat(201) } }))).toEqual({
      "metadata.a": ["el valor admite como máximo 200 caracteres"]
    })
    expect(errorsOf(decode({ monto: 1, concepto: "x", metadata: { a: { b: 1 } } }))).toHaveProperty(
      "metadata.a"
    )
  })

  it("limits idempotency_key to 64 characters", () => {
    expect(Either.isRight(decode({ monto: 1, concepto: "x", idempotency_key: "k".repeat(64) }))).toBe(true)
    expect(errorsOf(decode({ monto: 1, concepto: "x", idempotency_key: "k".repeat(65) }))).toHaveProperty(
      "idempotency_key"
    )
  })

  it.prop(
    "any amount with more than two decimals is refused",
    [fc.integer({ min: 1, max: 10_000_000 })],
    ([n]) => {
      const value = n / 1000
      const result = decode({ monto: value, concepto: "x" })
      expect(Either.isRight(result)).toBe(n % 10 === 0)
    }
  )
})

describe("link-create body without the schema (plainLinkCreate)", () => {
  const bySchema = Validation.decode(LinkRequest.LinkCreate)
  // Near the limits more often than at random: lengths of 1, 64, 65, 140 and 141 code points,
  // in one- and two-unit characters, and NULs.
  const edges = fc
    .tuple(fc.constantFrom(0, 1, 63, 64, 65, 139, 140, 141), fc.constantFrom("x", "😀", "a\u0000", " "))
    .map(([n, unit]) => unit.repeat(n))
  const texts = fc.oneof(edges, fc.string({ maxLength: 150 }), fc.string({ unit: "binary", maxLength: 150 }))
  const amounts = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 100_000_000 }).map((n) => n / 100), weight: 3 },
    fc.double({ noNaN: false }),
    fc.integer({ min: -10, max: 1_000_000 }).map((n) => n / 1000),
    fc.constantFrom(0, -0, 0.005, 1e15, Number.MAX_SAFE_INTEGER, "1", null)
  )
  const bodies = fc.record(
    {
      monto: amounts,
      concepto: fc.oneof({ arbitrary: texts, weight: 4 }, fc.integer(), fc.constant(null)),
      idempotency_key: fc.oneof({ arbitrary: texts, weight: 4 }, fc.constant(null), fc.integer()),
      moneda: fc.constantFrom("VES", "USD"),
      extra: fc.anything()
    },
    { requiredKeys: ["monto", "concepto"] }
  )

  it.prop(
    "whatever it reads, the schema reads the same",
    [bodies],
    ([body]) => {
      const plain = LinkRequest.plainLinkCreate(body)
      if (plain === undefined) return
      const decoded = bySchema(body)
      expect(Either.isRight(decoded)).toBe(true)
      expect(Either.getOrThrow(decoded)).toEqual(plain)
    },
    { fastCheck: { numRuns: 3000 } }
  )

  it("reads the common bodies itself, and leaves every other to the schema", () => {
    expect(LinkRequest.plainLinkCreate({ monto: 150.5, concepto: "Pedido 1" })).toEqual({
      monto: 15050,
      concepto: "Pedido 1",
      moneda: "VES"
    })
    expect(LinkRequest.plainLinkCreate({ monto: 1, concepto: "x", idempotency_key: "k-1" })).toMatchObject({
      idempotency_key: "k-1"
    })
    for (const other of [
      { monto: 1, concepto: "x", moneda: "VES" },
      { monto: 1, concepto: "x", idempotency_key: null },
      { monto: 1, concepto: "x", expira_horas: 2 },
      { monto: 0, concepto: "x" },
      { monto: 1.001, concepto: "x" },
      { monto: "1", concepto: "x" },
      { monto: 1, concepto: "" },
      { monto: 1, concepto: "a\u0000" },
      Object.assign(Object.create({ monto: 1 }), { concepto: "x" }),
      [1, "x"],
      null
    ])
      expect(LinkRequest.plainLinkCreate(other)).toBeUndefined()
  })
})

describe("batch body", () => {
  const item = (i: number) => ({ monto: 10 + i, concepto: `Pedido ${i}`, referencia_externa: `ORD-${i}` })
  const decodeLote = (body: unknown) => LinkRequest.decodeLoteCreate(body, now)

  it("accepts 1 to 500 items", () => {
    expect(Either.isRight(decodeLote({ items: [item(1)] }))).toBe(true)
    expect(Either.isRight(decodeLote({ items: Array.from({ length: 500 }, (_, i) => item(i)) }))).toBe(true)
    expect(errorsOf(decodeLote({ items: [] }))).toEqual({ items: ["debe tener al menos 1 elemento"] })
    expect(errorsOf(decodeLote({ items: Array.from({ length: 501 }, (_, i) => item(i)) }))).toEqual({
      items: ["admite como máximo 500 elementos"]
    })
  })

  it("reports an invalid item by its index, so nothing is created", () => {
    expect(errorsOf(decodeLote({ items: [item(1), { monto: -1, concepto: "x" }] }))).toEqual({
      "items.1.monto": ["debe ser mayor que 0"]
    })
    expect(errorsOf(decodeLote({ items: [{ ...item(1), cliente: { nombre: "n".repeat(121) } }] }))).toEqual({
      "items.0.cliente.nombre": ["admite como máximo 120 caracteres"]
    })
  })

  it("finds the items whose key repeats an earlier item's", () => {
    const keyed = (k: string | undefined) => ({
      monto: 1,
      concepto: "x",
      ...(k === undefined ? {} : { idempotency_key: k })
    })
    expect(
      LinkRequest.repeatedItemKeys([
        keyed("k1"),
        keyed(undefined),
        keyed("k1"),
        keyed("k2"),
        keyed(undefined),
        keyed("k1")
      ])
    ).toEqual([
      { index: 2, key: "k1" },
      { index: 5, key: "k1" }
    ])
    expect(
      LinkRequest.repeatedItemKeys([keyed("a"), keyed("A"), keyed(undefined), keyed(undefined)])
    ).toEqual([])
  })
})
