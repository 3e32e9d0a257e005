/**
 * Venezuelan identifiers: bank codes, 20-digit accounts, mobile phones, cédulas and RIF.
 *
 * Check-digit algorithms were checked against public implementations and published numbers:
 * accounts against reyesoft/php-bank-accounts (`src/Ve/VeBankAccount.php`, whose test accepts
 * Mercantil's `01050194651194079423`); RIF against several SENIAT-based validators and the
 * RIFs banks print on their papers (Banco de Venezuela `G-20009997-6`, Banesco `J-07013380-5`,
 * Mercantil `J-00002961-0`, SENIAT `G-20000303-0`).
 */
import { Either, Option } from "effect"

// ---------------------------------------------------------------------------------------------
// Banks
// ---------------------------------------------------------------------------------------------

/** A bank of the BCV list: its 4-digit code and short name. */
export interface Bank {
  readonly codigo: string
  readonly nombre: string
}

/** The banks the service knows, as in shared/data/bancos-ve.csv (BCV list). */
export const banks: ReadonlyArray<Bank> = [
  { codigo: "0102", nombre: "Banco de Venezuela" },
  { codigo: "0104", nombre: "Venezolano de Crédito" },
  { codigo: "0105", nombre: "Mercantil" },
  { codigo: "0108", nombre: "Provincial" },
  { codigo: "0114", nombre: "Bancaribe" },
  { codigo: "0115", nombre: "Exterior" },
  { codigo: "0128", nombre: "Caroní" },
  { codigo: "0134", nombre: "Banesco" },
  { codigo: "0137", nombre: "Sofitasa" },
  { codigo: "0138", nombre: "Plaza" },
  { codigo: "0146", nombre: "Bangente" },
  { codigo: "0151", nombre: "BFC Banco Fondo Común" },
  { codigo: "0156", nombre: "100% Banco" },
  { codigo: "0157", nombre: "DelSur" },
  { codigo: "0163", nombre: "Banco del Tesoro" },
  { codigo: "0166", nombre: "Banco Agrícola de Venezuela" },
  { codigo: "0168", nombre: "Bancrecer" },
  { codigo: "0169", nombre: "Mi Banco" },
  { codigo: "0171", nombre: "Banco Activo" },
  { codigo: "0172", nombre: "Bancamiga" },
  { codigo: "0173", nombre: "Banco Internacional de Desarrollo" },
  { codigo: "0174", nombre: "Banplus" },
  { codigo: "0175", nombre: "Banco Digital de los Trabajadores (Bicentenario)" },
  { codigo: "0177", nombre: "BANFANB" },
  { codigo: "0191", nombre: "BNC Banco Nacional de Crédito" }
]

const bankIndex: ReadonlyMap<string, Bank> = new Map(banks.map((bank) => [bank.codigo, bank]))

/** The bank with this 4-digit code, if the service knows it. */
export const bankByCode = (code: string): Option.Option<Bank> => Option.fromNullable(bankIndex.get(code))

/** Whether the text is exactly the code of a known bank. */
export const isBankCode = (code: string): boolean => bankIndex.has(code)

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

const BANK_BRANCH_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const
const BRANCH_ACCOUNT_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const

const weightedSum = (digits: string, weights: ReadonlyArray<number>): number => {
  let total = 0
  for (let i = 0; i < digits.length; i++) total += Number(digits[i]) * (weights[i] ?? 0)
  return total
}

/**
 * The banks' mod-11 rule: 11 - (sum mod 11), where 10 becomes 0 and 11 becomes 1. Note the
 * mapping differs from the RIF's, where both 10 and 11 become 0.
 */
const accountDigit = (digits: string, weights: ReadonlyArray<number>): number => {
  const d = 11 - (weightedSum(digits, weights) % 11)
  return d === 10 ? 0 : d === 11 ? 1 : d
}

/**
 * The two check digits of an account: the first over bank + branch, the second over
 * branch + account number. None unless the parts are 4, 4 and 10 digits.
 */
export const accountCheckDigits = (bank: string, branch: string, account: string): Option.Option<string> => {
  if (!/^\d{4}$/.test(bank) || !/^\d{4}$/.test(branch) || !/^\d{10}$/.test(account)) return Option.none()
  const first = accountDigit(bank + branch, BANK_BRANCH_WEIGHTS)
  const second = accountDigit(branch + account, BRANCH_ACCOUNT_WEIGHTS)
  return Option.some(`${first}${second}`)
}

/** Why a text is not a Venezuelan account number. */
export type AccountIssue = "formato" | "banco_desconocido" | "digito_control"

/** Spanish text for each account issue, for a `fieldErrors` list. */
export const accountIssueMessage: Record<AccountIssue, string> = {
  formato: "la cuenta debe tener 20 dígitos",
  banco_desconocido: "el código de banco de la cuenta no corresponde a un banco conocido",
  digito_control: "los dígitos de control de la cuenta no son válidos"
}

/**
 * Reads an account written with or without separators (`0105-0194-65-1194079423`) into its
 * 20 digits, checking the bank and both check digits.
 */
export const validateAccount = (text: string): Either.Either<string, AccountIssue> => {
  const digits = text.trim().replace(/[\s.-]/g, "")
  if (!/^\d{20}$/.test(digits)) return Either.left("formato")
  if (!isBankCode(digits.slice(0, 4))) return Either.left("banco_desconocido")
  const expected = accountCheckDigits(digits.slice(0, 4), digits.slice(4, 8), digits.slice(10))
  return Option.contains(expected, digits.slice(8, 10)) ? Either.right(digits) : Either.left("digito_control")
}

/** Whether the text is exactly 20 digits of a known bank with both check digits right. */
export const isValidAccount = (text: string): boolean =>
  /^\d{20}$/.test(text) && Either.isRight(validateAccount(text))

/** The last 4 digits of a number (fewer if it has fewer), ignoring any other character. */
export const ultimos4 = (text: string): string => text.replace(/\D/g, "").slice(-4)

/**
 * An account for display and logs: bank code and last 4 digits only (`0105 **** 9423`),
 * because SPEC never shows a full account back.
 */
export const maskAccount = (text: string): string => {
  const digits = text.replace(/\D/g, "")
  return digits.length >= 8 ? `${digits.slice(0, 4)} **** ${digits.slice(-4)}` : `**** ${digits.slice(-4)}`
}

// ---------------------------------------------------------------------------------------------
// Phones
// ---------------------------------------------------------------------------------------------

/**
 * Mobile operator prefixes. DESIGN lists 0412, 0414, 0416, 0424 and 0426; 0422 is a newer
 * mobile range that current Venezuelan validators accept, so payers who have it are not refused.
 */
export const mobilePrefixes = ["0412", "0414", "0416", "0422", "0424", "0426"] as const
/** One of the mobile operator prefixes. */
export type MobilePrefix = (typeof mobilePrefixes)[number]

const isMobilePrefix = (prefix: string): prefix is MobilePrefix =>
  (mobilePrefixes as ReadonlyArray<string>).includes(prefix)

/**
 * A mobile number in its canonical 11 digits (`04141234567`), from common written forms:
 * spaces, hyphens, dots, parentheses, `+58`, `58` or `0058` in front, or the 10 digits
 * without the leading 0. None for anything that is not a Venezuelan mobile number.
 */
export const normalizePhone = (text: string): Option.Option<string> => {
  let digits = text.trim().replace(/[\s.()-]/g, "")
  if (digits.startsWith("+")) {
    if (!digits.startsWith("+58")) return Option.none()
    digits = digits.slice(1)
  }
  if (!/^\d+$/.test(digits)) return Option.none()
  if (digits.startsWith("0058")) digits = digits.slice(2)
  let national: string
  if (digits.length === 12 && digits.startsWith("58")) national = `0${digits.slice(2)}`
  // `+58 0414...` is a common mistake: the trunk 0 written after the country code.
  else if (digits.length === 13 && digits.startsWith("580")) national = digits.slice(2)
  else if (digits.length === 10 && digits.startsWith("4")) national = `0${digits}`
  else if (digits.length === 11 && digits.startsWith("0")) national = digits
  else return Option.none()
  return isMobilePrefix(national.slice(0, 4)) ? Option.some(national) : Option.none()
}

/** Whether the text is a Venezuelan mobile number in any form {@link normalizePhone} reads. */
export const isValidPhone = (text: string): boolean => Option.isSome(normalizePhone(text))

/** SPEC's rule for `telefono_pagador`, exactly: optional leading 0, then 4 and 9 more digits. */
export const isTelefonoPagador = (text: string): boolean => /^0?4\d{9}$/.test(text)

// ---------------------------------------------------------------------------------------------
// Identity documents
// ---------------------------------------------------------------------------------------------

/** The `tipo_doc` letters SPEC accepts. */
export const tiposDoc = ["V", "E", "J", "P", "G"] as const
/** One of the `tipo_doc` letters. */
export type TipoDoc = (typeof tiposDoc)[number]

/** What each `tipo_doc` letter means. */
export const tipoDocNombre: Record<TipoDoc, string> = {
  V: "venezolano (cédula de identidad)",
  E: "extranjero residente (cédula de extranjero)",
  J: "persona jurídica (RIF de empresa)",
  P: "pasaporte",
  G: "ente gubernamental (RIF de gobierno)"
}

/** Whether the text is one of the `tipo_doc` letters. */
export const isTipoDoc = (text: string): text is TipoDoc => (tiposDoc as ReadonlyArray<string>).includes(text)

// Letter values of the SENIAT algorithm; the letter counts with weight 4 before the digits.
const RIF_LETTER_VALUE: Record<TipoDoc, number> = { V: 1, E: 2, J: 3, P: 4, G: 5 }
const RIF_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const

/**
 * The RIF check digit for a letter and its 8-digit body: 11 - (sum mod 11), 10 and 11 become
 * 0. None unless the letter is V, E, J, P or G and the body is exactly 8 digits.
 */
export const rifCheckDigit = (letter: string, digits8: string): Option.Option<number> => {
  if (!isTipoDoc(letter) || !/^\d{8}$/.test(digits8)) return Option.none()
  const d = 11 - ((RIF_LETTER_VALUE[letter] * 4 + weightedSum(digits8, RIF_WEIGHTS)) % 11)
  return Option.some(d >= 10 ? 0 : d)
}

/** A RIF split into its letter, 8-digit body and check digit. */
export interface Rif {
  readonly letra: TipoDoc
  readonly numero: string
  readonly digito: number
}

/**
 * Reads a RIF written with or without hyphens or spaces, any case (`J-07013380-5`,
 * `J070133805`); none unless the check digit verifies.
 */
export const parseRif = (text: string): Option.Option<Rif> => {
  const match = /^([VEJPG])(\d{8})(\d)$/.exec(text.trim().toUpperCase().replace(/[\s-]/g, ""))
  const letra = match?.[1]
  const numero = match?.[2]
  const digito = Number(match?.[3])
  if (letra === undefined || numero === undefined || !isTipoDoc(letra)) return Option.none()
  return Option.contains(rifCheckDigit(letra, numero), digito)
    ? Option.some({ letra, numero, digito })
    : Option.none()
}

/** Whether the text is a RIF whose check digit verifies. */
export const isValidRif = (text: string): boolean => Option.isSome(parseRif(text))

/** A RIF in its printed form, `J-07013380-5`. */
export const formatRif = (rif: Rif): string => `${rif.letra}-${rif.numero}-${rif.digito}`

/**
 * Whether the text is a cédula: V or E, then 1 to 8 digits, with optional hyphen, spaces or
 * thousands dots (`V-12.345.678`). Eight is the limit because a person's RIF is the cédula
 * padded to 8 digits, so no longer cédula can exist.
 */
export const isValidCedula = (text: string): boolean => {
  const compact = text
    .trim()
    .toUpperCase()
    .replace(/[\s.-]/g, "")
  return /^[VE]\d{1,8}$/.test(compact) && /[1-9]/.test(compact)
}

/** An identity document normalised: its type letter and its number without separators. */
export interface Identificacion {
  readonly tipo_doc: TipoDoc
  /**
   * For a cédula, its digits without leading zeros; for a RIF, 9 digits (body and check
   * digit); for a passport, its upper-case letters and digits.
   */
  readonly numero: string
}

/** Why a text is not an identity document. */
export type IdentificacionIssue = "formato" | "tipo_doc" | "digito_verificador"

/** Spanish text for each identity issue, for a `fieldErrors` list. */
export const identificacionIssueMessage: Record<IdentificacionIssue, string> = {
  formato: "no es una cédula, RIF o pasaporte válido",
  tipo_doc: "el tipo de documento debe ser V, E, J, P o G y coincidir con la identificación",
  digito_verificador: "el dígito verificador del RIF no es válido"
}

const rifNumber = (letter: TipoDoc, body: string): Either.Either<string, IdentificacionIssue> =>
  Option.contains(rifCheckDigit(letter, body.slice(0, 8)), Number(body.slice(8)))
    ? Either.right(body)
    : Either.left("digito_verificador")

/**
 * Reads an `identificacion` (`V-12.345.678`, `J-07013380-5`, `12345678` with `tipoDoc` `V`)
 * into its type and number. The letter may come in the text or in `tipoDoc`; when both are
 * given they must agree.
 *
 * V and E take a cédula (1 to 8 digits) or a personal RIF (9 digits, check digit verified);
 * J and G take a RIF only; P takes a passport number (4 to 15 letters and digits), whose check
 * digit, if it is a RIF, cannot be told apart from a 9-digit passport and is not enforced.
 */
export const parseIdentificacion = (
  text: string,
  tipoDoc?: string
): Either.Either<Identificacion, IdentificacionIssue> => {
  const compact = text
    .trim()
    .toUpperCase()
    .replace(/[\s.-]/g, "")
  const written = /^[A-Z]/.test(compact) ? compact.slice(0, 1) : undefined
  const given = tipoDoc?.trim().toUpperCase()
  const letter = written ?? given
  if (letter === undefined || !isTipoDoc(letter)) return Either.left("tipo_doc")
  if (written !== undefined && given !== undefined && given !== "" && given !== written) {
    return Either.left("tipo_doc")
  }
  const body = written === undefined ? compact : compact.slice(1)
  const result = (numero: Either.Either<string, IdentificacionIssue>) =>
    Either.map(numero, (n): Identificacion => ({ tipo_doc: letter, numero: n }))
  switch (letter) {
    case "V":
    case "E": {
      if (/^\d{1,8}$/.test(body)) {
        const numero = body.replace(/^0+/, "")
        return result(numero === "" ? Either.left("formato") : Either.right(numero))
      }
      return result(/^\d{9}$/.test(body) ? rifNumber(letter, body) : Either.left("formato"))
    }
    case "J":
    case "G":
      return result(/^\d{9}$/.test(body) ? rifNumber(letter, body) : Either.left("formato"))
    case "P":
      return result(/^[A-Z0-9]{4,15}$/.test(body) ? Either.right(body) : Either.left("formato"))
  }
}

/** An identity document as text: `V-12345678`, or `J-07013380-5` for a RIF number. */
export const formatIdentificacion = (id: Identificacion): string =>
  id.tipo_doc !== "P" && /^\d{9}$/.test(id.numero)
    ? `${id.tipo_doc}-${id.numero.slice(0, 8)}-${id.numero.slice(8)}`
    : `${id.tipo_doc}-${id.numero}`

/**
 * A merchant's `identificacion` at sign-up: V or E take a cédula (1 to 8 digits) or a personal
 * RIF; J, G and P take a RIF (8 digits and its check digit, verified). A passport alone does not
 * identify a merchant, so a P must be the RIF SENIAT issues on it.
 */
export const parseMerchantId = (
  text: string,
  tipoDoc?: string
): Either.Either<Identificacion, IdentificacionIssue> =>
  Either.flatMap(parseIdentificacion(text, tipoDoc), (id) =>
    id.tipo_doc !== "P"
      ? Either.right(id)
      : /^\d{9}$/.test(id.numero)
        ? Either.map(rifNumber("P", id.numero), () => id)
        : Either.left<IdentificacionIssue>("formato")
  )
