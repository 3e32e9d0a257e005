/**
 * The WhatsApp Flows data-exchange envelope (DESIGN.md §7): the client encrypts a fresh
 * AES-128 key with the binding's RSA public key (RSA-OAEP, SHA-256) and the payload with
 * AES-128-GCM (16-byte tag appended); the answer is encrypted with the same key and the IV
 * with every byte inverted, sent as base64 text.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  generateKeyPairSync,
  privateDecrypt,
  timingSafeEqual
} from "node:crypto"
import { Either } from "effect"
import * as SafeJson from "../http/SafeJson.js"

export interface Envelope {
  readonly encrypted_flow_data: string
  readonly encrypted_aes_key: string
  readonly initial_vector: string
}

/** Why an envelope could not be opened, with the status Meta's protocol expects. */
export type EnvelopeError =
  | { readonly _tag: "Malformado"; readonly status: 400 }
  | { readonly _tag: "NoDescifrable"; readonly status: 421 }
  | { readonly _tag: "ErrorCripto"; readonly status: 500 }

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** Checks the envelope's shape: three base64 strings, nothing else required. */
export const parseEnvelope = (body: unknown): Either.Either<Envelope, EnvelopeError> => {
  if (typeof body !== "object" || body === null) return Either.left({ _tag: "Malformado", status: 400 })
  const { encrypted_flow_data, encrypted_aes_key, initial_vector } = body as Record<string, unknown>
  for (const part of [encrypted_flow_data, encrypted_aes_key, initial_vector]) {
    if (typeof part !== "string" || part.length === 0 || !BASE64.test(part)) {
      return Either.left({ _tag: "Malformado", status: 400 })
    }
  }
  return Either.right({
    encrypted_flow_data: encrypted_flow_data as string,
    encrypted_aes_key: encrypted_aes_key as string,
    initial_vector: initial_vector as string
  })
}

export interface Opened {
  readonly payload: unknown
  readonly aesKey: Buffer
  readonly iv: Buffer
}

const TAG_LENGTH = 16

/** Decrypts the AES key and the payload; any failure to decrypt is `421` (the client re-handshakes). */
export const open = (envelope: Envelope, privateKeyPem: string): Either.Either<Opened, EnvelopeError> => {
  let aesKey: Buffer
  try {
    aesKey = privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(envelope.encrypted_aes_key, "base64")
    )
  } catch {
    return Either.left({ _tag: "NoDescifrable", status: 421 })
  }
  const iv = Buffer.from(envelope.initial_vector, "base64")
  const data = Buffer.from(envelope.encrypted_flow_data, "base64")
  if (aesKey.length !== 16 || iv.length === 0 || data.length <= TAG_LENGTH) {
    return Either.left({ _tag: "NoDescifrable", status: 421 })
  }
  try {
    const decipher = createDecipheriv("aes-128-gcm", aesKey, iv)
    decipher.setAuthTag(data.subarray(data.length - TAG_LENGTH))
    const clear = Buffer.concat([
      decipher.update(data.subarray(0, data.length - TAG_LENGTH)),
      decipher.final()
    ])
    const payload = SafeJson.parse(clear.toString("utf8"))
    if (Either.isLeft(payload)) return Either.left({ _tag: "NoDescifrable", status: 421 })
    return Either.right({ payload: payload.right, aesKey, iv })
  } catch {
    return Either.left({ _tag: "NoDescifrable", status: 421 })
  }
}

/** Encrypts the answer with the request's key and the inverted IV, as base64 text. */
export const seal = (answer: unknown, opened: Pick<Opened, "aesKey" | "iv">): string => {
  const flipped = Buffer.from(opened.iv.map((byte) => ~byte & 0xff))
  const cipher = createCipheriv("aes-128-gcm", opened.aesKey, flipped)
  const body = Buffer.concat([
    cipher.update(JSON.stringify(answer), "utf8"),
    cipher.final(),
    cipher.getAuthTag()
  ])
  return body.toString("base64")
}

/** Constant-time equality of two strings, safe for different lengths. */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Checks Meta's `x-hub-signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`, only
 * after checking the header exists and has the right length.
 */
export const verifyHubSignature = (
  rawBody: Buffer,
  header: string | undefined,
  appSecret: string
): boolean => {
  if (header === undefined || header.length !== "sha256=".length + 64 || !header.startsWith("sha256="))
    return false
  const expected = `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`
  return safeEqual(header, expected)
}

/** A new RSA key pair for a binding; the public key is uploaded to Meta. */
export const generateKeyPair = (): { readonly publicKey: string; readonly privateKey: string } =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" }
  })
