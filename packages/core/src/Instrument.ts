/**
 * The Instrument: an account or phone at a bank, with its holder. It names `cobrador`,
 * `pagador`, `ordenante`, `beneficiario` and `split[].cuenta` in SPEC.
 */
import { Either, Schema } from "effect"
import type { FieldErrors } from "./Validation.js"
import {
  accountIssueMessage,
  formatIdentificacion,
  identificacionIssueMessage,
  isBankCode,
  isValidPhone,
  normalizePhone,
  parseIdentificacion,
  validateAccount
} from "./Venezuela.js"

/** Kinds of national id: V venezolano, E extranjero, J jurídico, P pasaporte, G gobierno. */
export const TipoDoc = Schema.Literal("V", "E", "J", "P", "G").annotations({
  message: () => "debe ser V, E, J, P o G"
})
export type TipoDoc = typeof TipoDoc.Type

/** Non-empty text with Spanish messages; `max` caps its length. */
export const text = (max?: number) => {
  const base = Schema.String.annotations({ message: () => "debe ser texto" }).pipe(
    Schema.minLength(1, { message: () => "no puede estar vacío" })
  )
  return max === undefined
    ? base
    : base.pipe(
        Schema.filter((value) => characters(value) <= max, {
          message: () => `admite como máximo ${max} caracteres`,
          jsonSchema: { maxLength: max }
        })
      )
}

/** Characters as a person counts them (code points): an emoji is one, not two UTF-16 units. */
export const characters = (value: string): number => {
  let count = 0
  for (const _ of value) count++
  return count
}

/** A bank code: exactly 4 digits. */
export const Banco = Schema.String.pipe(
  Schema.pattern(/^\d{4}$/, { message: () => "debe tener exactamente 4 dígitos" })
).annotations({ message: () => "debe tener exactamente 4 dígitos" })

/** Instrument fields exactly as SPEC lists them; no other properties are accepted. */
export const InstrumentFields = Schema.Struct({
  tipo: Schema.Literal("cuenta", "telefono").annotations({ message: () => "debe ser cuenta o telefono" }),
  valor: text().annotations({
    description: "Número de cuenta de 20 dígitos, o teléfono móvil venezolano (04141234567)"
  }),
  banco: Banco,
  identificacion: text(),
  tipo_doc: Schema.optional(TipoDoc),
  nombre: text(40)
})

/**
 * What is wrong with `valor` for its `tipo`, if anything. SPEC: "account number (20 digits) or
 * phone": 20 digits, or a Venezuelan mobile number, each as people write them (`0102-0001-…`,
 * `0414-123.45.67`, `+58 414…`). Only the form is checked here: an account's bank and check
 * digits are the bank's to judge, and the admin API checks both where it approves accounts.
 */
export const valorIssue = (instrument: {
  readonly tipo: string
  readonly valor: string
}): string | undefined => {
  if (instrument.tipo === "cuenta") {
    const account = validateAccount(instrument.valor)
    return Either.isLeft(account) && account.left === "formato"
      ? "debe ser un número de cuenta de 20 dígitos"
      : undefined
  }
  return isValidPhone(instrument.valor)
    ? undefined
    : "debe ser un teléfono móvil venezolano: 0412, 0414, 0416, 0422, 0424 o 0426 y 7 dígitos"
}

/** An Instrument: {@link InstrumentFields}, its `valor` of the form its `tipo` names. */
export const Instrument = InstrumentFields.pipe(
  Schema.filter((instrument) => {
    const message = valorIssue(instrument)
    return message === undefined ? undefined : { path: ["valor"], message }
  })
).annotations({ identifier: "Instrument" })
export interface Instrument extends Schema.Schema.Type<typeof Instrument> {}

// ---------------------------------------------------------------------------------------------
// Receiving accounts: checked in full, and whose they are
// ---------------------------------------------------------------------------------------------

/**
 * Checks an Instrument beyond its shape and returns it in canonical form: an account must be
 * 20 digits of the bank it names with valid check digits, a phone a Venezuelan mobile, and the
 * holder id a valid cédula, RIF or passport. `field` prefixes the error paths (`""` for none).
 * This is the check where an operator approves an account (settlement, split).
 */
export const check = (field: string, cuenta: Instrument): Either.Either<Instrument, FieldErrors> => {
  const errors: Record<string, Array<string>> = {}
  const add = (path: string, message: string) => {
    const key = field === "" ? path : `${field}.${path}`
    errors[key] = [...(errors[key] ?? []), message]
  }
  let valor = cuenta.valor
  if (cuenta.tipo === "cuenta") {
    const account = validateAccount(cuenta.valor)
    if (Either.isLeft(account)) add("valor", accountIssueMessage[account.left])
    else {
      valor = account.right
      if (valor.slice(0, 4) !== cuenta.banco) add("banco", "no coincide con el banco de la cuenta")
    }
  } else {
    const phone = normalizePhone(cuenta.valor)
    if (phone._tag === "None") add("valor", "no es un teléfono móvil venezolano válido")
    else valor = phone.value
  }
  if (!isBankCode(cuenta.banco)) add("banco", "no corresponde a un banco conocido")
  const id = parseIdentificacion(cuenta.identificacion, cuenta.tipo_doc)
  if (Either.isLeft(id)) add("identificacion", identificacionIssueMessage[id.left])
  if (Object.keys(errors).length > 0 || Either.isLeft(id)) return Either.left({ fieldErrors: errors })
  return Either.right({
    ...cuenta,
    valor,
    identificacion: formatIdentificacion(id.right),
    tipo_doc: id.right.tipo_doc
  })
}

/** An id as written, without case or separators (`v-12.345.678` and `V12345678` are one). */
const normalizeId = (text: string) => text.toUpperCase().replace(/[\s.\-_]/g, "")

/** Who holds an account: a merchant's `identificacion` and, when stored apart, its `tipo_doc`. */
export interface Holder {
  readonly identificacion: string
  readonly tipo_doc?: string | null | undefined
}

/**
 * Whether an Instrument's holder is `holder` (SPEC: receiving accounts are in the merchant's own
 * name, its cédula or RIF). Both ids are read as documents and compared by type and number; when
 * either does not read as one, they are compared as written, without case or separators.
 */
export const isOwnedBy = (cuenta: Instrument, holder: Holder): boolean => {
  const own = parseIdentificacion(holder.identificacion, holder.tipo_doc ?? undefined)
  const theirs = parseIdentificacion(cuenta.identificacion, cuenta.tipo_doc)
  if (Either.isRight(own) && Either.isRight(theirs)) {
    return own.right.tipo_doc === theirs.right.tipo_doc && own.right.numero === theirs.right.numero
  }
  return normalizeId(holder.identificacion) === normalizeId(cuenta.identificacion)
}

/**
 * Same type, bank, number and holder id, each compared without case or separators: how a
 * split's account is matched against the merchant's approved accounts.
 */
export const sameAccount = (a: Instrument, b: Instrument): boolean =>
  a.tipo === b.tipo &&
  a.banco === b.banco &&
  normalizeId(a.valor) === normalizeId(b.valor) &&
  normalizeId(a.identificacion) === normalizeId(b.identificacion)

/** Most approved accounts a merchant may hold (SPEC: up to 20). */
export const MAX_CUENTAS_APROBADAS = 20
