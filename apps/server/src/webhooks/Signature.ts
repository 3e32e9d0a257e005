/**
 * Webhook secrets and notice signatures (DESIGN §5): `whsec_` + base64 of 32 random bytes;
 * `x-service-signature: sha256=<hex HMAC(secret, body)>` and
 * `x-service-signature-v2: t=<unix seconds>,v1=<hex HMAC(secret, "<t>.<body>")>`.
 */
import { createHmac, randomBytes } from "node:crypto"

/** A new webhook secret, shown to the merchant once. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

const hmacHex = (secret: string, payload: string): string =>
  createHmac("sha256", secret).update(payload, "utf8").digest("hex")

/** The headers of one attempt: the signatures are over this exact body at this second. */
export const signedHeaders = (input: {
  readonly secret: string
  readonly body: string
  readonly evento: string
  readonly deliveryId: string
  readonly timestamp: number
}): Record<string, string> => ({
  "content-type": "application/json",
  "user-agent": "Switch-Webhooks/1",
  "x-service-event": input.evento,
  "x-service-delivery": input.deliveryId,
  "x-service-timestamp": String(input.timestamp),
  "x-service-signature": `sha256=${hmacHex(input.secret, input.body)}`,
  "x-service-signature-v2": `t=${input.timestamp},v1=${hmacHex(input.secret, `${input.timestamp}.${input.body}`)}`
})
