/**
 * Webhook secrets and notice signatures (DESIGN §5): `whsec_` + base64 of 32 random bytes;
 * `x-service-signature: sha256=<hex HMAC(secret, body)>` and
 * `x-service-signature-v2: t=<unix seconds>,v1=<hex HMAC(secret, "<t>.<body>")>`; beside them
 * the Standard Webhooks headers (DESIGN §8, standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC(key, "<id>.<t>.<body>")>`.
 * The x-service-* HMACs are keyed with the secret string as it is; Standard Webhooks keys with
 * the bytes the secret encodes (`whsec_<base64>` decoded), so its verifiers work with our
 * secret unchanged.
 */
import { createHmac, randomBytes } from "node:crypto"

/** A new webhook secret, shown to the merchant once. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

const hmacHex = (secret: string, payload: string): string =>
  createHmac("sha256", secret).update(payload, "utf8").digest("hex")

/** The key Standard Webhooks derives from a `whsec_<base64>` secret: the decoded bytes. */
const standardKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64")

/** `v1,<base64 HMAC(key, "<id>.<t>.<body>")>`, the Standard Webhooks signature. */
export const standardSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`

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
  "x-service-signature-v2": `t=${input.timestamp},v1=${hmacHex(input.secret, `${input.timestamp}.${input.body}`)}`,
  // The delivery id, like x-service-delivery: the same on every retry, so receivers dedupe on it.
  "webhook-id": input.deliveryId,
  "webhook-timestamp": String(input.timestamp),
  "webhook-signature": standardSignature(input.secret, input.deliveryId, input.timestamp, input.body)
})
