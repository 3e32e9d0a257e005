/**
 * API keys: `sk_test_` or `sk_live_` plus 32 random base62 characters. Only a SHA-256 hash
 * is stored (the keys are random enough that a slow hash adds nothing).
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Mode } from "@switch/api"
import { Effect, Option } from "effect"

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const BODY_LENGTH = 32

const base62 = (bytes: Uint8Array): string => {
  let out = ""
  for (const byte of bytes) {
    if (out.length === BODY_LENGTH) break
    // 248 = 4 * 62: dropping bytes above it keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62]
  }
  return out
}

const prefix = (mode: Mode) => (mode === "live" ? "sk_live_" : "sk_test_")

/** A new random key of the given mode. */
export const generate = (mode: Mode): string => {
  let body = ""
  while (body.length < BODY_LENGTH) body += base62(randomBytes(48)).slice(0, BODY_LENGTH - body.length)
  return prefix(mode) + body
}

/** A key derived from the server secret, so the demo merchant keeps its key across restarts. */
export const derive = (secret: string, purpose: string, mode: Mode): string =>
  prefix(mode) +
  base62(createHmac("sha512", secret).update(`llave:${purpose}`).digest()).padEnd(BODY_LENGTH, "0")

export const hash = (key: string): string => createHash("sha256").update(key).digest("hex")

export const modeOf = (key: string): Option.Option<Mode> =>
  key.startsWith("sk_test_")
    ? Option.some("test")
    : key.startsWith("sk_live_")
      ? Option.some("live")
      : Option.none()

const KEY = /^sk_(test|live)_[0-9A-Za-z]{16,64}$/
const CODIGO = /^[a-z0-9_-]{3,32}$/

/** Splits the `x-switch-key` header value `<merchant>:<api_key>`; malformed values are none. */
export const parseHeader = (value: string): Option.Option<{ codigo: string; key: string; mode: Mode }> => {
  const colon = value.indexOf(":")
  if (colon <= 0) return Option.none()
  const codigo = value.slice(0, colon)
  const key = value.slice(colon + 1).trim()
  if (!CODIGO.test(codigo) || !KEY.test(key)) return Option.none()
  return Option.map(modeOf(key), (mode) => ({ codigo, key, mode }))
}

export const ultimos4 = (key: string) => key.slice(-4)

/**
 * Stores a new key for a merchant and returns the key text, shown once (sign-up, `POST
 * /llaves`, an operator's approval, the demo merchant).
 */
export const insertKey = (comercioId: string, label: string, mode: Mode, key = generate(mode)) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`
      insert into llaves (id, comercio_id, label, mode, hash, ultimos4)
      values (${id}, ${comercioId}, ${label}, ${mode}, ${hash(key)}, ${ultimos4(key)})
      on conflict (hash) do nothing`
    return { id, key }
  })
