import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc, Option, Redacted } from "effect"
import * as Money from "./Money.js"
import * as ReceiptCode from "./ReceiptCode.js"

const SECRET = "test-secret-do-not-use"

const input: ReceiptCode.ReceiptInput = {
  transactionId: "txn_01HZX3",
  amount: Money.Cents(150_050),
  currency: "VES",
  paidAt: new Date("2025-03-14T15:09:26.535Z")
}

const secretArb = fc.string({ minLength: 1, maxLength: 40 })
const inputArb: fc.Arbitrary<ReceiptCode.ReceiptInput> = fc.record({
  transactionId: fc.string({ minLength: 1, maxLength: 40 }),
  amount: fc.integer({ min: 1, max: Money.MAX_CENTS }).map(Money.Cents),
  currency: fc.constantFrom("VES", "USD"),
  paidAt: fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z") })
})

/** How a person might type a code: any case, look-alikes, hyphens, prefix and spaces optional. */
const typedForm = (code: string) =>
  fc
    .record({
      lower: fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
      lookAlike: fc.array(fc.constantFrom("keep", "O", "I", "L", "o", "i", "l"), {
        minLength: 14,
        maxLength: 14
      }),
      hyphens: fc.boolean(),
      prefix: fc.boolean(),
      spaces: fc.constantFrom("", " ", "  \t")
    })
    .map(({ lower, lookAlike, hyphens, prefix, spaces }) => {
      const body = code
        .slice(3)
        .split("")
        .map((char, i) => {
          const swap = lookAlike[i] ?? "keep"
          if (char === "0" && (swap === "O" || swap === "o")) return swap
          if (char === "1" && swap !== "keep" && swap !== "O" && swap !== "o") return swap
          return lower[i] === true ? char.toLowerCase() : char
        })
        .join("")
      const groups = hyphens ? body : body.replace("-", "")
      const withPrefix = prefix ? `${lower[0] === true ? "sw" : "SW"}${hyphens ? "-" : ""}${groups}` : groups
      return `${spaces}${withPrefix}${spaces}`
    })

describe("ReceiptCode", () => {
  it("has the SW prefix and two groups of 5 Crockford base32 characters", () => {
    const code = ReceiptCode.generate(SECRET, input)
    expect(code).toMatch(/^SW-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/)
    expect(ReceiptCode.isCanonical(code)).toBe(true)
  })

  it("keeps a known payment's code: the encoding never changes silently", () => {
    expect(ReceiptCode.generate(SECRET, input)).toBe(PINNED)
  })

  it("is deterministic for the same secret, input and attempt", () => {
    expect(ReceiptCode.generate(SECRET, input)).toBe(ReceiptCode.generate(SECRET, { ...input }))
    expect(ReceiptCode.generate(SECRET, input, 3)).toBe(ReceiptCode.generate(SECRET, input, 3))
  })

  it("takes the secret as text, bytes or Redacted alike", () => {
    const code = ReceiptCode.generate(SECRET, input)
    expect(ReceiptCode.generate(new TextEncoder().encode(SECRET), input)).toBe(code)
    expect(ReceiptCode.generate(Redacted.make(SECRET), input)).toBe(code)
    expect(ReceiptCode.generate(Redacted.make(new TextEncoder().encode(SECRET)), input)).toBe(code)
  })

  it("a retry after a unique-index violation gets a different code", () => {
    const codes = new Set([0, 1, 2, 3, 4].map((attempt) => ReceiptCode.generate(SECRET, input, attempt)))
    expect(codes.size).toBe(5)
    expect(ReceiptCode.generate(SECRET, input)).toBe(ReceiptCode.generate(SECRET, input, 0))
  })

  it("two equal payments at the same time with different transaction ids get different codes", () => {
    expect(ReceiptCode.generate(SECRET, input)).not.toBe(
      ReceiptCode.generate(SECRET, { ...input, transactionId: "txn_01HZX4" })
    )
  })

  it("field boundaries cannot be shifted between transaction id and currency", () => {
    const a = ReceiptCode.generate(SECRET, { ...input, transactionId: "abc", currency: "VES" })
    const b = ReceiptCode.generate(SECRET, { ...input, transactionId: "ab", currency: "cVES" })
    const c = ReceiptCode.generate(SECRET, { ...input, transactionId: "abc|", currency: "VES" })
    expect(new Set([a, b, c]).size).toBe(3)
  })

  it("uses the whole alphabet", () => {
    const seen = new Set<string>()
    for (let i = 0; i < 500; i++) {
      for (const char of ReceiptCode.generate(SECRET, { ...input, transactionId: `t${i}` }).slice(3)) {
        seen.add(char)
      }
    }
    seen.delete("-")
    expect([...seen].sort().join("")).toBe(ReceiptCode.ALPHABET)
  })

  it.prop(
    "a code changes when the transaction id changes",
    [secretArb, inputArb, fc.string()],
    ([s, i, other]) => {
      fc.pre(other !== i.transactionId)
      expect(ReceiptCode.generate(s, { ...i, transactionId: other })).not.toBe(ReceiptCode.generate(s, i))
    }
  )

  it.prop(
    "a code changes when the amount changes, even by one cent",
    [secretArb, inputArb, fc.integer({ min: 1, max: Money.MAX_CENTS })],
    ([s, i, other]) => {
      fc.pre(other !== i.amount)
      expect(ReceiptCode.generate(s, { ...i, amount: Money.Cents(other) })).not.toBe(
        ReceiptCode.generate(s, i)
      )
      const nextCent = Money.Cents(i.amount === Money.MAX_CENTS ? i.amount - 1 : i.amount + 1)
      expect(ReceiptCode.generate(s, { ...i, amount: nextCent })).not.toBe(ReceiptCode.generate(s, i))
    }
  )

  it.prop("a code changes when the currency changes", [secretArb, inputArb], ([s, i]) => {
    const other = i.currency === "VES" ? "USD" : "VES"
    expect(ReceiptCode.generate(s, { ...i, currency: other })).not.toBe(ReceiptCode.generate(s, i))
  })

  it.prop(
    "a code changes when the payment time changes, even by one millisecond",
    [secretArb, inputArb, fc.integer({ min: 1, max: 1_000_000_000 })],
    ([s, i, delta]) => {
      const later = new Date(i.paidAt.getTime() + delta)
      expect(ReceiptCode.generate(s, { ...i, paidAt: later })).not.toBe(ReceiptCode.generate(s, i))
      const nextMs = new Date(i.paidAt.getTime() + 1)
      expect(ReceiptCode.generate(s, { ...i, paidAt: nextMs })).not.toBe(ReceiptCode.generate(s, i))
    }
  )

  it.prop("a code changes when the secret changes", [secretArb, secretArb, inputArb], ([s, other, i]) => {
    fc.pre(s !== other)
    expect(ReceiptCode.generate(other, i)).not.toBe(ReceiptCode.generate(s, i))
  })

  it.prop("a generated code parses back to itself", [secretArb, inputArb], ([s, i]) => {
    const code = ReceiptCode.generate(s, i)
    expect(ReceiptCode.parse(code)).toEqual(Option.some(code))
    expect(ReceiptCode.parse(code.toLowerCase())).toEqual(Option.some(code))
    expect(ReceiptCode.parse(code.replaceAll("-", ""))).toEqual(Option.some(code))
    expect(ReceiptCode.parse(code.slice(3))).toEqual(Option.some(code))
  })

  it.prop(
    "a code typed with look-alikes, any case, spaces and optional hyphens parses back to itself",
    [
      fc.tuple(secretArb, inputArb).chain(([s, i]) => {
        const code = ReceiptCode.generate(s, i)
        return fc.tuple(fc.constant(code), typedForm(code))
      })
    ],
    ([[code, typed]]) => {
      expect(ReceiptCode.parse(typed)).toEqual(Option.some(code))
    }
  )

  it("maps O to 0 and I, L to 1", () => {
    expect(ReceiptCode.parse("sw-o1ilo-ABCDE")).toEqual(Option.some("SW-01110-ABCDE"))
    expect(ReceiptCode.parse("OOOOOIIIII")).toEqual(Option.some("SW-00000-11111"))
    expect(ReceiptCode.parse(" SW 7K3QZ 9XB2M ")).toEqual(Option.some("SW-7K3QZ-9XB2M"))
  })

  it("refuses wrong lengths, U, symbols and a different prefix", () => {
    for (const text of [
      "",
      "SW-",
      "SW-ABCDE-ABCD",
      "SW-ABCDE-ABCDEF",
      "ABCDEABCD",
      "SW-ABCDE-ABCDU",
      "SW-ABCDE-ABC$E",
      "SW-ABCDE-ÁBCDE",
      "SX-ABCDE-ABCDE",
      "SW--ABCDE-ABCDE",
      "SW-ABC-DEABCDE",
      "SW-ABCDE_ABCDE"
    ]) {
      expect(ReceiptCode.parse(text), text).toEqual(Option.none())
    }
  })

  it("isCanonical accepts only the exact printed form", () => {
    expect(ReceiptCode.isCanonical("SW-7K3QZ-9XB2M")).toBe(true)
    expect(ReceiptCode.isCanonical("sw-7k3qz-9xb2m")).toBe(false)
    expect(ReceiptCode.isCanonical("SW7K3QZ9XB2M")).toBe(false)
    expect(ReceiptCode.isCanonical("SW-7K3QZ-9XB2O")).toBe(false)
    expect(ReceiptCode.isCanonical("SW-7K3QZ-9XB2U")).toBe(false)
    expect(ReceiptCode.isCanonical(" SW-7K3QZ-9XB2M")).toBe(false)
  })
})

// Cross-checked with an independent Python computation (hmac + hashlib, length-prefixed fields,
// first 50 bits of the MAC in Crockford base32). A change here means stored codes would stop
// matching a recomputation, so it must be deliberate.
const PINNED = "SW-33WCC-67CPW"
