import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  publicEncrypt,
  randomBytes
} from "node:crypto"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { generateKeyPair, open, parseEnvelope, seal, verifyHubSignature } from "./Envelope.js"

const keys = generateKeyPair()

/** Encrypts as WhatsApp does. */
const encryptLikeWhatsApp = (payload: unknown, publicKey: string) => {
  const aesKey = randomBytes(16)
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-128-gcm", aesKey, iv)
  const data = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final(), cipher.getAuthTag()])
  const envelope = {
    encrypted_flow_data: data.toString("base64"),
    encrypted_aes_key: publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      aesKey
    ).toString("base64"),
    initial_vector: iv.toString("base64")
  }
  const decryptAnswer = (text: string) => {
    const body = Buffer.from(text, "base64")
    const decipher = createDecipheriv("aes-128-gcm", aesKey, Buffer.from(iv.map((b) => ~b & 0xff)))
    decipher.setAuthTag(body.subarray(body.length - 16))
    return JSON.parse(
      Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString()
    )
  }
  return { envelope, decryptAnswer }
}

describe("Flows envelope", () => {
  it("opens what WhatsApp sealed and answers with the inverted IV", () => {
    const { envelope, decryptAnswer } = encryptLikeWhatsApp(
      { action: "ping", version: "3.0" },
      keys.publicKey
    )
    const opened = Either.getOrThrow(open(Either.getOrThrow(parseEnvelope(envelope)), keys.privateKey))
    expect(opened.payload).toEqual({ action: "ping", version: "3.0" })
    expect(decryptAnswer(seal({ data: { status: "active" } }, opened))).toEqual({
      data: { status: "active" }
    })
  })

  it("refuses a malformed envelope with 400", () => {
    expect(parseEnvelope({ encrypted_flow_data: "x" })).toEqual(
      Either.left({ _tag: "Malformado", status: 400 })
    )
    expect(
      Either.isLeft(parseEnvelope({ encrypted_flow_data: "%%", encrypted_aes_key: "a", initial_vector: "b" }))
    ).toBe(true)
    expect(Either.isLeft(parseEnvelope("nope"))).toBe(true)
  })

  it("answers 421 for a tampered tag, a foreign key or garbage", () => {
    const { envelope } = encryptLikeWhatsApp({ action: "ping" }, keys.publicKey)
    const data = Buffer.from(envelope.encrypted_flow_data, "base64")
    data[data.length - 1] = (data[data.length - 1] ?? 0) ^ 1
    const tampered = { ...envelope, encrypted_flow_data: data.toString("base64") }
    expect(open(tampered, keys.privateKey)).toEqual(Either.left({ _tag: "NoDescifrable", status: 421 }))
    const other = generateKeyPair()
    expect(open(envelope, other.privateKey)).toEqual(Either.left({ _tag: "NoDescifrable", status: 421 }))
  })

  it("checks x-hub-signature-256 only when present and of the right length", () => {
    const body = Buffer.from('{"a":1}')
    const good = `sha256=${createHmac("sha256", "app").update(body).digest("hex")}`
    expect(verifyHubSignature(body, good, "app")).toBe(true)
    expect(verifyHubSignature(body, undefined, "app")).toBe(false)
    expect(verifyHubSignature(body, "sha256=abc", "app")).toBe(false)
    expect(verifyHubSignature(body, good, "otro")).toBe(false)
    expect(verifyHubSignature(Buffer.from('{"a":2}'), good, "app")).toBe(false)
  })
})
