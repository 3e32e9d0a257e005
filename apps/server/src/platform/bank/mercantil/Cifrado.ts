/**
 * Mercantil's field encryption, as its API playground publishes it: AES-128 in ECB mode with
 * PKCS#5 (PKCS#7 on 16-byte blocks) padding, base64 out, under a key that is the first 16 bytes
 * of the SHA-256 of the merchant's secret key. Only the sensitive fields are encrypted (the
 * payer's id, the phones, the payment key); the rest of a body travels in the clear.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto"

/** The AES key of a merchant secret: SHA-256 of its UTF-8 bytes, first half. */
export const claveDe = (secreto: string): Buffer =>
  createHash("sha256").update(secreto, "utf8").digest().subarray(0, 16)

/** `texto` encrypted for Mercantil under `clave` (from {@link claveDe}), as base64. */
export const cifrar = (clave: Buffer, texto: string): string => {
  const cipher = createCipheriv("aes-128-ecb", clave, null)
  return Buffer.concat([cipher.update(texto, "utf8"), cipher.final()]).toString("base64")
}

/** The inverse of {@link cifrar}; throws on a wrong key or a damaged value. */
export const descifrar = (clave: Buffer, base64: string): string => {
  const decipher = createDecipheriv("aes-128-ecb", clave, null)
  return Buffer.concat([decipher.update(Buffer.from(base64, "base64")), decipher.final()]).toString("utf8")
}
