/**
 * Secrets kept at rest (webhook signing secrets, WhatsApp Flows keys and secrets) are sealed
 * with AES-256-GCM under a key derived from the server secret, one key per purpose, and the
 * row's id as associated data, so a database dump or a copied row reveals nothing usable.
 *
 * Sealed text is `v1:<base64 of iv, ciphertext, tag>`; text without the prefix was stored before
 * sealing existed: it is read as it is, and sealed at the next start (SealLegacy.ts).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto"
import { Redacted } from "effect"

const PREFIX = "v1:"
const IV_BYTES = 12
const TAG_BYTES = 16

const keyFor = (serverSecret: Redacted.Redacted<string>, purpose: string) =>
  createHmac("sha256", Redacted.value(serverSecret)).update(`sellado:${purpose}`).digest()

/** Seals `plaintext` for `purpose`, bound to the row `id`. */
export const seal = (
  serverSecret: Redacted.Redacted<string>,
  purpose: string,
  id: string,
  plaintext: string
) => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", keyFor(serverSecret, purpose), iv, {
    authTagLength: TAG_BYTES
  })
  cipher.setAAD(Buffer.from(id))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")
}

/** The plaintext of a sealed value (or of one stored before sealing); throws when tampered with. */
export const open = (
  serverSecret: Redacted.Redacted<string>,
  purpose: string,
  id: string,
  stored: string
) => {
  if (!stored.startsWith(PREFIX)) return stored
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64")
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("sealed value too short")
  const decipher = createDecipheriv("aes-256-gcm", keyFor(serverSecret, purpose), raw.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES
  })
  decipher.setAAD(Buffer.from(id))
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
  return Buffer.concat([
    decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
    decipher.final()
  ]).toString("utf8")
}
