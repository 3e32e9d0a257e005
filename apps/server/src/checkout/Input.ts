/**
 * What the payer types on the page, checked on the server field by field (the browser's checks
 * are a courtesy). Errors are SPEC's `400 validation` with Spanish `fieldErrors`.
 */
import { createHmac } from "node:crypto"
import { Money, RateLimit, Venezuela } from "@switch/core"
import { Either, Option, Redacted } from "effect"

/** The payer's bank identity: bank, phone and id as the bank has them. */
export interface Payer {
  readonly banco: string
  /** Canonical 11 digits, `04141234567`. */
  readonly telefono: string
  readonly tipo_doc: Venezuela.TipoDoc
  /** The id number without its letter. */
  readonly identificacion: string
}

export interface PayInput extends Payer {
  readonly otp: string
  readonly propina: Money.Cents
  readonly nombre: string | null
  readonly alta_cliente: boolean
}

type Errors = Record<string, Array<string>>

const text = (body: Record<string, unknown>, field: string) => {
  const value = body[field]
  return typeof value === "string" ? value.trim() : ""
}

const add = (errors: Errors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message]
}

const asRecord = (body: unknown): Record<string, unknown> =>
  typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}

const readPayer = (body: Record<string, unknown>, errors: Errors): Payer | null => {
  const banco = text(body, "banco")
  if (!Venezuela.isBankCode(banco)) add(errors, "banco", "elige tu banco de la lista")
  const telefono = Venezuela.normalizePhone(text(body, "telefono"))
  if (Option.isNone(telefono))
    add(errors, "telefono", "escribe un número de celular venezolano, por ejemplo 0414 1234567")
  const id = Venezuela.parseIdentificacion(text(body, "identificacion"), text(body, "tipo_doc"))
  if (Either.isLeft(id)) add(errors, "identificacion", Venezuela.identificacionIssueMessage[id.left])
  if (Option.isNone(telefono) || Either.isLeft(id) || !Venezuela.isBankCode(banco)) return null
  return { banco, telefono: telefono.value, tipo_doc: id.right.tipo_doc, identificacion: id.right.numero }
}

const fail = (errors: Errors) => Either.left({ fieldErrors: errors })

/** The body of a code request. */
export const decodeCodeRequest = (input: unknown): Either.Either<Payer, { fieldErrors: Errors }> => {
  const errors: Errors = {}
  const payer = readPayer(asRecord(input), errors)
  return payer === null ? fail(errors) : Either.right(payer)
}

/**
 * The body of a payment. `requiereNombre`: a business merchant's customer checkbox needs the
 * name; a personal account's "save my data" does not.
 */
export const decodePayment = (
  input: unknown,
  requiereNombre: boolean
): Either.Either<PayInput, { fieldErrors: Errors }> => {
  const body = asRecord(input)
  const errors: Errors = {}
  const payer = readPayer(body, errors)
  const otp = text(body, "otp")
  if (!/^\d{8}$/.test(otp)) add(errors, "otp", "el código tiene 8 dígitos")
  let propina = Money.zero
  const rawTip = body.propina
  if (rawTip !== undefined && rawTip !== null && rawTip !== "") {
    const parsed =
      typeof rawTip === "number"
        ? Money.fromNonNegativeNumber(rawTip)
        : typeof rawTip === "string"
          ? // The page sends the tip as the payer typed it: `1.234,56`, `1.234` is a thousand.
            Money.parseVenezuelan(rawTip)
          : Either.left("formato" as const)
    if (Either.isLeft(parsed))
      add(errors, "propina", "escribe la propina en bolívares, por ejemplo 1.234,56 (hasta 2 decimales)")
    else propina = parsed.right
  }
  const nombre = text(body, "nombre").replace(/\s+/g, " ")
  if (nombre.length > 40) add(errors, "nombre", "escribe como máximo 40 caracteres")
  const alta = body.alta_cliente === true
  if (body.alta_cliente !== undefined && typeof body.alta_cliente !== "boolean")
    add(errors, "alta_cliente", "debe ser verdadero o falso")
  if (alta && requiereNombre && nombre === "")
    add(errors, "nombre", "escribe tu nombre para registrarte como cliente")
  if (payer === null || Object.keys(errors).length > 0) return fail(errors)
  return Either.right({ ...payer, otp, propina, nombre: nombre === "" ? null : nombre, alta_cliente: alta })
}

/**
 * A stable, secret-keyed fingerprint of the payer (id and phone): it identifies a customer
 * and a rate-limit subject without storing the payer's data.
 */
export const huella = (secret: Redacted.Redacted<string>, payer: Payer): string =>
  createHmac("sha256", `${Redacted.value(secret)}:cliente`)
    .update(RateLimit.idPhoneSubject(`${payer.tipo_doc}${payer.identificacion}`, payer.telefono))
    .digest("hex")
