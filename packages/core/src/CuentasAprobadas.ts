/**
 * The split accounts a merchant approves in the portal (SPEC: "an account is not among those
 * the merchant approved in the portal (up to 20; must match type, bank, number and holder id)").
 * Pure rules for adding one to the list; the account itself is checked by {@link Instrument.check}
 * (20 digits of the bank it names with valid check digits, or a Venezuelan mobile; a valid
 * cédula, RIF or passport as holder id) before it gets here.
 *
 * "An account in another holder's name is refused": an account number has one holder. When the
 * service already knows who holds an account (the merchant's own settlement account, checked to
 * be in its name; another merchant's settlement account, checked the same way; an account this
 * merchant already approved), the same type, bank and number given with a different holder id is
 * refused. An account the service has never seen is taken with the holder id given.
 */

import type { Instrument } from "./Instrument.js"
import * as I from "./Instrument.js"

export const MAX = I.MAX_CUENTAS_APROBADAS

/** Same type, bank and number, the holder aside. */
export const sameNumber = (a: Instrument, b: Instrument): boolean =>
  a.tipo === b.tipo && a.banco === b.banco && a.valor.replace(/\D/g, "") === b.valor.replace(/\D/g, "")

/** Outcome of adding `cuenta` to a merchant's approved accounts. */
export type Added =
  | { readonly _tag: "Agregada"; readonly cuentas: ReadonlyArray<Instrument> }
  | { readonly _tag: "YaEstaba"; readonly cuentas: ReadonlyArray<Instrument> }
  | { readonly _tag: "Limite" }
  | { readonly _tag: "OtroTitular" }

/**
 * Adds the checked `cuenta` to `current`. `known` are accounts whose holder the service already
 * knows (settlement accounts); `current` counts as known too. The same account with the same
 * holder is not added twice; with another holder it is refused; past {@link MAX}, refused.
 */
export const add = (
  current: ReadonlyArray<Instrument>,
  known: ReadonlyArray<Instrument>,
  cuenta: Instrument
): Added => {
  for (const other of [...known, ...current]) {
    if (sameNumber(other, cuenta) && !I.isOwnedBy(cuenta, other)) return { _tag: "OtroTitular" }
  }
  if (current.some((approved) => I.sameAccount(approved, cuenta)))
    return { _tag: "YaEstaba", cuentas: current }
  if (current.length >= MAX) return { _tag: "Limite" }
  return { _tag: "Agregada", cuentas: [...current, cuenta] }
}

/**
 * Removes `cuenta` (the same type, bank and number) from `current`; undefined when it is not
 * there. The routes name an account by an opaque id the server derives, never by its number, so
 * a beneficiary's phone or account stays out of URLs and logs.
 */
export const remove = (
  current: ReadonlyArray<Instrument>,
  cuenta: Instrument
): ReadonlyArray<Instrument> | undefined => {
  const next = current.filter((other) => !sameNumber(other, cuenta))
  return next.length === current.length ? undefined : next
}

/**
 * The `409` that answers a refused {@link add}, the same from every route that adds an approved
 * account (the portal's `POST /switch/v1/cuentas-aprobadas` and the admin API's
 * `POST /admin/v1/comercios/{codigo}/cuentas-aprobadas`).
 */
export const refusal = (
  refused: Extract<Added, { _tag: "Limite" | "OtroTitular" }>
): { readonly error: "limite_cuentas" | "cuenta_otro_titular"; readonly detail: string } =>
  refused._tag === "OtroTitular"
    ? {
        error: "cuenta_otro_titular",
        detail:
          "Esa cuenta está a nombre de otro titular: la cédula o RIF no es la de su dueño. Revisa la identificación."
      }
    : {
        error: "limite_cuentas",
        detail: `El comercio ya tiene ${MAX} cuentas aprobadas: quita una antes de agregar otra.`
      }
