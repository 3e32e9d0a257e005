/**
 * The Instrument: an account or phone at a bank, with its holder. It names `cobrador`,
 * `pagador`, `ordenante`, `beneficiario` and `split[].cuenta` in SPEC.
 */
import { Schema } from "effect"

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

/** Instrument fields exactly as SPEC lists them; no other properties are accepted. */
export const Instrument = Schema.Struct({
  tipo: Schema.Literal("cuenta", "telefono").annotations({ message: () => "debe ser cuenta o telefono" }),
  valor: text(),
  banco: Schema.String.pipe(
    Schema.pattern(/^\d{4}$/, { message: () => "debe tener exactamente 4 dígitos" })
  ).annotations({ message: () => "debe tener exactamente 4 dígitos" }),
  identificacion: text(),
  tipo_doc: Schema.optional(TipoDoc),
  nombre: text(40)
}).annotations({ identifier: "Instrument" })
export interface Instrument extends Schema.Schema.Type<typeof Instrument> {}
