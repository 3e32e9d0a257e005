import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option, Schema } from "effect"
import { check, Instrument, isOwnedBy, sameAccount, valorIssue } from "./Instrument.js"
import {
  accountCheckDigits,
  accountIssueMessage,
  banks,
  identificacionIssueMessage,
  mobilePrefixes
} from "./Venezuela.js"

const decode = Schema.decodeUnknownEither(Instrument)
const base = { banco: "0102", identificacion: "V12345678", nombre: "Ana" }
const issuePaths = (input: unknown) =>
  Either.match(decode(input), {
    onLeft: (error) => [...error.message.matchAll(/\["(\w+)"\]/g)].map((m) => m[1]),
    onRight: () => []
  })

describe("Instrument valor", () => {
  it.prop(
    "any 20 digits is an account, written with or without separators",
    [fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 20, maxLength: 20 })],
    ([digits]) => {
      const plain = digits.join("")
      const written = `${plain.slice(0, 4)}-${plain.slice(4, 8)} ${plain.slice(8, 10)}.${plain.slice(10)}`
      expect(valorIssue({ tipo: "cuenta", valor: plain })).toBeUndefined()
      expect(valorIssue({ tipo: "cuenta", valor: written })).toBeUndefined()
      expect(Either.isRight(decode({ ...base, tipo: "cuenta", valor: plain }))).toBe(true)
    }
  )

  it.prop(
    "an account of any other length, or with letters, is refused at valor",
    [fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.replace(/[\s.-]/g, "").length !== 20)],
    ([valor]) => {
      expect(valorIssue({ tipo: "cuenta", valor })).toBe("debe ser un número de cuenta de 20 dígitos")
      expect(issuePaths({ ...base, tipo: "cuenta", valor })).toContain("valor")
    }
  )

  it.prop(
    "a mobile number is a phone in its usual written forms",
    [fc.constantFrom(...mobilePrefixes), fc.integer({ min: 0, max: 9_999_999 })],
    ([prefix, n]) => {
      const local = `${prefix}${String(n).padStart(7, "0")}`
      for (const valor of [
        local,
        `58${local.slice(1)}`,
        `+58${local.slice(1)}`,
        `${prefix}-${local.slice(4)}`
      ])
        expect(valorIssue({ tipo: "telefono", valor })).toBeUndefined()
    }
  )

  it("a landline, a short number or an account is not a phone", () => {
    for (const valor of ["02125551234", "12", "0414123456", "01020000000000000001", "telefono"]) {
      expect(valorIssue({ tipo: "telefono", valor })).toMatch(/teléfono móvil/)
      expect(issuePaths({ ...base, tipo: "telefono", valor })).toEqual(["valor"])
    }
  })
})

// Receiving accounts -------------------------------------------------------------------------

const digitsOf = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(""))

/** A valid 20-digit account of a known bank, with its check digits right. */
const validAccount = fc
  .tuple(fc.constantFrom(...banks.map((bank) => bank.codigo)), digitsOf(4), digitsOf(10))
  .map(([bank, branch, number]) => {
    const check = Option.getOrThrow(accountCheckDigits(bank, branch, number))
    return `${bank}${branch}${check}${number}`
  })

/** A cédula number as people write it, with the dots or without. */
const cedula = fc.integer({ min: 1, max: 99_999_999 })
const dotted = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ".")

const cuenta = (valor: string, identificacion: string, tipo_doc?: "V" | "E"): Instrument => ({
  tipo: "cuenta",
  valor,
  banco: valor.slice(0, 4),
  identificacion,
  ...(tipo_doc === undefined ? {} : { tipo_doc }),
  nombre: "Ana"
})

describe("check", () => {
  it.prop(
    "a valid account is accepted in canonical form: 20 digits, the id formatted, tipo_doc filled in",
    [validAccount, cedula],
    ([valor, n]) => {
      const written = `${valor.slice(0, 4)}-${valor.slice(4, 8)}-${valor.slice(8, 10)}-${valor.slice(10)}`
      const checked = check("cuenta_liquidacion", cuenta(written, `v-${dotted(n)}`))
      expect(checked).toEqual(Either.right({ ...cuenta(valor, `V-${n}`), tipo_doc: "V" }))
    }
  )

  it.prop(
    "an account of another bank than the one named is refused at banco, under the field given",
    [validAccount, fc.constantFrom(...banks.map((bank) => bank.codigo)), cedula],
    ([valor, banco, n]) => {
      fc.pre(banco !== valor.slice(0, 4))
      const checked = check("split.0.cuenta", { ...cuenta(valor, `V${n}`), banco })
      expect(checked).toEqual(
        Either.left({ fieldErrors: { "split.0.cuenta.banco": ["no coincide con el banco de la cuenta"] } })
      )
    }
  )

  it.prop(
    "a phone is kept as its 11 canonical digits; an unreadable holder id is refused at identificacion",
    [fc.constantFrom(...mobilePrefixes), fc.integer({ min: 0, max: 9_999_999 })],
    ([prefix, n]) => {
      const local = `${prefix}${String(n).padStart(7, "0")}`
      const phone: Instrument = {
        tipo: "telefono",
        valor: `+58 ${local.slice(1)}`,
        banco: "0102",
        identificacion: "V1",
        nombre: "Ana"
      }
      expect(Either.map(check("", phone), (c) => c.valor)).toEqual(Either.right(local))
      expect(check("", { ...phone, identificacion: "X" })).toEqual(
        Either.left({ fieldErrors: { identificacion: [identificacionIssueMessage.tipo_doc] } })
      )
    }
  )

  it("an unknown bank and a bad check digit are each reported", () => {
    expect(check("", cuenta("01020000000000000000", "V1")).pipe(Either.getLeft, Option.getOrThrow)).toEqual({
      fieldErrors: { valor: [accountIssueMessage.digito_control] }
    })
    expect(
      check("", { ...cuenta("01020000000000000000", "V1"), banco: "9999" }).pipe(
        Either.getLeft,
        Option.getOrThrow
      ).fieldErrors.banco
    ).toEqual(["no corresponde a un banco conocido"])
  })
})

describe("isOwnedBy", () => {
  it.prop(
    "the same cédula, however written and wherever its letter is, is the merchant's own",
    [validAccount, cedula, fc.boolean(), fc.boolean()],
    ([valor, n, letterInText, dots]) => {
      const written = dots ? dotted(n) : String(n)
      const account = letterInText ? cuenta(valor, `V-${written}`) : cuenta(valor, written, "V")
      expect(isOwnedBy(account, { identificacion: `V${n}`, tipo_doc: null })).toBe(true)
      expect(isOwnedBy(account, { identificacion: String(n).padStart(8, "0"), tipo_doc: "V" })).toBe(true)
    }
  )

  it.prop(
    "another number, or the same number under another document type, is someone else's",
    [validAccount, cedula, cedula],
    ([valor, n, m]) => {
      fc.pre(n !== m)
      expect(isOwnedBy(cuenta(valor, `V${m}`), { identificacion: `V${n}` })).toBe(false)
      expect(isOwnedBy(cuenta(valor, `E${n}`), { identificacion: `V${n}` })).toBe(false)
    }
  )

  it("ids that do not read as documents are compared as written, without case or separators", () => {
    expect(isOwnedBy(cuenta("01020000000000000000", "x-12.3"), { identificacion: "X123" })).toBe(true)
    expect(isOwnedBy(cuenta("01020000000000000000", "x-12.3"), { identificacion: "X124" })).toBe(false)
  })
})

describe("sameAccount", () => {
  it.prop(
    "is reflexive and symmetric, and blind to the holder's name and to separators",
    [validAccount, cedula, fc.string()],
    ([valor, n, nombre]) => {
      const a = cuenta(valor, `V${n}`)
      const b = { ...cuenta(`${valor.slice(0, 10)}-${valor.slice(10)}`, `v-${dotted(n)}`), nombre }
      expect(sameAccount(a, a)).toBe(true)
      expect(sameAccount(a, b)).toBe(true)
      expect(sameAccount(b, a)).toBe(true)
    }
  )

  it.prop(
    "a different type, bank, number or holder is another account",
    [validAccount, validAccount, cedula, cedula],
    ([valor, other, n, m]) => {
      const a = cuenta(valor, `V${n}`)
      expect(sameAccount(a, { ...a, tipo: "telefono" })).toBe(false)
      if (other !== valor) expect(sameAccount(a, { ...a, valor: other })).toBe(false)
      if (other.slice(0, 4) !== valor.slice(0, 4))
        expect(sameAccount(a, { ...a, banco: other.slice(0, 4) })).toBe(false)
      if (n !== m) expect(sameAccount(a, { ...a, identificacion: `V${m}` })).toBe(false)
    }
  )
})
