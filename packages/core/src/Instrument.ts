/**
 * The Instrument: an account or phone at a bank, with its holder. It names `cobrador`,
 * `pagador`, `ordenante`, `beneficiario` and `split[].cuenta` in SPEC.
 */
import { Either, Schema } from "effect"
import { isValidPhone, validateAccount } from "./Venezuela.js"

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
