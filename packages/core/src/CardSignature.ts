/**
 * Signatures of the card processor's callbacks: header `x-card-signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. The timestamp is inside the signed text, so
 * an old callback cannot be re-dated; a callback older than the tolerance is refused, so a
 * captured one cannot be replayed later. Within the tolerance a repeat is harmless: callbacks
 * carry an event id and the charge's state machine ({@link CardCharge}) refuses repeated facts.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Either } from "effect"

export const HEADER = "x-card-signature"

/** How far a callback's timestamp may be from our clock, either way. */
export const TOLERANCE_SECONDS = 300

export const sign = (secret: string, timestampSeconds: number, body: string): string =>
  createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex")

/** The header value for `body` signed at `timestampSeconds`. */
export const header = (secret: string, timestampSeconds: number, body: string): string =>
  `t=${timestampSeconds},v1=${sign(secret, timestampSeconds, body)}`

export type SignatureRefusal = "firma_ausente" | "firma_invalida" | "firma_vencida"

const parse = (value: string): { readonly t: number; readonly v1: string } | null => {
  let t: number | null = null
  let v1: string | null = null
  for (const part of value.split(",")) {
    const [key, val, ...rest] = part.trim().split("=")
    if (rest.length > 0 || val === undefined) return null
    if (key === "t" && /^[0-9]{1,12}$/.test(val)) t = Number(val)
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(val)) v1 = val
  }
  return t === null || v1 === null ? null : { t, v1 }
}

/** Checks a callback's header against its raw body at `now`; fails closed. */
export const verify = (
  secret: string,
  headerValue: string | undefined,
  body: string,
  now: Date,
  toleranceSeconds: number = TOLERANCE_SECONDS
): Either.Either<void, SignatureRefusal> => {
  if (headerValue === undefined || headerValue === "") return Either.left("firma_ausente")
  const parsed = parse(headerValue)
  if (parsed === null) return Either.left("firma_invalida")
  const expected = Buffer.from(sign(secret, parsed.t, body), "hex")
  const given = Buffer.from(parsed.v1, "hex")
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return Either.left("firma_invalida")
  }
  if (Math.abs(Math.floor(now.getTime() / 1000) - parsed.t) > toleranceSeconds) {
    return Either.left("firma_vencida")
  }
  return Either.void
}
