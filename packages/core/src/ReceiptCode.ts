/**
 * Receipt codes (`codigo_verificacion`): `SW-XXXXX-XXXXX`, ten Crockford base32 characters
 * taken from an HMAC-SHA256, under the server secret, of the payment's transaction id,
 * amount, currency and payment time.
 *
 * The transaction id is in the input because two equal payments on one day must not share a
 * code. Fifty bits make collisions rare, not impossible: uniqueness is enforced by the
 * database (a unique index on the code), and when an insert hits it the server calls
 * {@link generate} again with the next `attempt`, which yields a different code for the same
 * payment.
 */
import { createHmac } from "node:crypto"
import { Brand, Option, Redacted } from "effect"
import type { Cents } from "./Money.js"

/** A receipt code in canonical form, `SW-XXXXX-XXXXX`. */
export type ReceiptCode = string & Brand.Brand<"ReceiptCode">
const ReceiptCode = Brand.nominal<ReceiptCode>()

/** The fixed prefix SPEC speaks of. */
export const PREFIX = "SW"

/** Crockford's base32 alphabet: digits and upper-case letters without I, L, O and U. */
export const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** What a receipt code is computed from. */
export interface ReceiptInput {
  readonly transactionId: string
  readonly amount: Cents
  readonly currency: string
  readonly paidAt: Date
}

/** The server secret, raw or wrapped in `Redacted` as it comes from `Config.redacted`. */
export type Secret = string | Uint8Array | Redacted.Redacted<string> | Redacted.Redacted<Uint8Array>

const secretBytes = (secret: Secret): string | Uint8Array =>
  Redacted.isRedacted(secret) ? Redacted.value<string | Uint8Array>(secret) : secret

/**
 * Each field as its UTF-8 byte length, a colon and the value, so no choice of transaction id
 * or currency can make two different inputs encode alike. A version tag leads so that a
 * future change of encoding cannot reproduce an old code by accident.
 */
const canonicalInput = (input: ReceiptInput, attempt: number): Buffer => {
  const fields = [
    "receipt-v1",
    input.transactionId,
    String(input.amount),
    input.currency,
    String(input.paidAt.getTime()),
    String(attempt)
  ]
  return Buffer.concat(
    fields.map((field) => {
      const bytes = Buffer.from(field, "utf8")
      return Buffer.concat([Buffer.from(`${bytes.length}:`, "utf8"), bytes])
    })
  )
}

/** The first `count` 5-bit groups of the bytes, most significant bit first, as base32. */
const base32Prefix = (bytes: Uint8Array, count: number): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5 && out.length < count) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31]
      bits -= 5
    }
    if (out.length === count) break
  }
  return out
}

/**
 * The receipt code of a payment. Deterministic: the same secret, input and attempt give the
 * same code. `attempt` (default 0) is raised by the server after a unique-index violation.
 * `paidAt` counts to the millisecond.
 */
export const generate = (secret: Secret, input: ReceiptInput, attempt = 0): ReceiptCode => {
  const mac = createHmac("sha256", secretBytes(secret)).update(canonicalInput(input, attempt)).digest()
  const body = base32Prefix(mac, 10)
  return ReceiptCode(`${PREFIX}-${body.slice(0, 5)}-${body.slice(5)}`)
}

const CANONICAL = /^SW-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/

/** Whether the text is a receipt code exactly in canonical form. */
export const isCanonical = (text: string): text is ReceiptCode => CANONICAL.test(text)

/**
 * Reads a code as a person types it into its canonical form, for lookup: trims, ignores
 * spaces and case, maps the look-alikes O to 0 and I, L to 1, and accepts it with or without
 * the hyphens and the `SW` prefix. None for anything else (wrong length, U, other symbols).
 */
export const parse = (text: string): Option.Option<ReceiptCode> => {
  const compact = text.replace(/\s+/g, "").toUpperCase()
  const match = /^(?:SW-?)?([0-9A-Z]{5})-?([0-9A-Z]{5})$/.exec(compact)
  if (match === null) return Option.none()
  const body = `${match[1]}${match[2]}`.replace(/O/g, "0").replace(/[IL]/g, "1")
  const code = `${PREFIX}-${body.slice(0, 5)}-${body.slice(5)}`
  return isCanonical(code) ? Option.some(code) : Option.none()
}
