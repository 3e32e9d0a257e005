/**
 * Time-based one-time passwords (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits), the second
 * factor of portal users and operators. Secrets are 20 random bytes shown to the person once, in
 * base32 (RFC 4648, no padding) and inside an `otpauth://` URI for authenticator apps.
 *
 * {@link verifyTotp} accepts the step before and after the current one (clock drift) and answers
 * the step it matched, so the caller can store it and refuse the same code twice (replay).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
const STEP_SECONDS = 30
const DIGITS = 6

export const toBase32 = (bytes: Uint8Array): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** The bytes of a base32 text (case, spaces and padding ignored); undefined if it is not base32. */
export const fromBase32 = (text: string): Buffer | undefined => {
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  const out: Array<number> = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = ALPHABET.indexOf(char)
    if (index < 0) return undefined
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** A fresh secret, in base32. */
export const newTotpSecret = (): string => toBase32(randomBytes(20))

/** The step (30-second window since the epoch) that `atMs` falls in. */
export const totpStep = (atMs: number): number => Math.floor(atMs / 1000 / STEP_SECONDS)

/** The 6-digit code of `secret` for `step`. */
export const totpCode = (secret: string, step: number): string => {
  const key = fromBase32(secret) ?? Buffer.alloc(0)
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0")
}

/**
 * The step `code` is valid for at `atMs` (the current step or one either side), if any step after
 * `lastStep` (the last one accepted for this secret, to refuse a replayed code). Compares in
 * constant time.
 */
export const verifyTotp = (
  secret: string,
  code: string,
  atMs: number,
  lastStep = Number.NEGATIVE_INFINITY
): number | undefined => {
  const given = Buffer.from(code.replace(/\s/g, ""))
  if (given.length !== DIGITS) return undefined
  const now = totpStep(atMs)
  let matched: number | undefined
  for (const step of [now - 1, now, now + 1]) {
    const expected = Buffer.from(totpCode(secret, step))
    if (timingSafeEqual(expected, given) && step > lastStep && matched === undefined) matched = step
  }
  return matched
}

/** The `otpauth://` URI an authenticator app reads (usually from a QR code). */
export const totpUri = (secret: string, account: string, issuer = "Switch"): string =>
  `otpauth://totp/${encodeURIComponent(`${issuer}:${account}`)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`
