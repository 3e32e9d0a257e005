/**
 * TOTP codes computed in the tests (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) from the
 * secret the service showed, and a user's enrolment through the API.
 */
import { createHmac } from "node:crypto"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

const fromBase32 = (text: string): Buffer => {
  const out: Array<number> = []
  let bits = 0
  let value = 0
  for (const char of text.replace(/[\s=]/g, "").toUpperCase()) {
    value = (value << 5) | ALPHABET.indexOf(char)
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** The code of `secret` for the 30-second step `offset` steps from now. */
export const totpNow = (secret: string, offset = 0): string => {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset))
  const mac = createHmac("sha1", fromBase32(secret)).update(counter).digest()
  const at = (mac[mac.length - 1] ?? 0) & 0x0f
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

/** Signs `email` in on its own session and enrols its second factor; the secret. */
export const enrolTotp = async (base: string, email: string, password: string): Promise<string> => {
  const signed = await fetch(`${base}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password })
  })
  if (signed.status !== 200) throw new Error(`sign-in failed: ${signed.status}`)
  const { csrf_token } = (await signed.json()) as { csrf_token: string }
  const headers = {
    cookie: (signed.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": csrf_token,
    "content-type": "application/json"
  }
  const started = await fetch(`${base}/switch/v1/sesion/totp`, { method: "POST", headers })
  const { secreto } = (await started.json()) as { secreto: string }
  const confirmed = await fetch(`${base}/switch/v1/sesion/totp/confirmar`, {
    method: "POST",
    headers,
    body: JSON.stringify({ codigo: totpNow(secreto) })
  })
  if (confirmed.status !== 200) throw new Error(`TOTP confirmation failed: ${confirmed.status}`)
  return secreto
}
