/**
 * Verifying webhook notices. Every notice carries three signatures, any of which proves it:
 * - `webhook-signature: v1,<base64>` (Standard Webhooks, DESIGN §8): HMAC-SHA256 keyed with the
 *   bytes of the secret (`whsec_<base64>` decoded) over "<webhook-id>.<webhook-timestamp>.<raw body>";
 * - `x-service-signature-v2: t=<unix seconds>,v1=<hex>` (DESIGN §5): HMAC-SHA256 keyed with the
 *   secret string over "<t>.<raw body>";
 * - `x-service-signature: sha256=<hex>`: HMAC-SHA256 of the raw body alone; its timestamp
 *   (`x-service-timestamp`) is not signed, so it is read only when neither other header came.
 * WebCrypto only, so it runs on Node 20+, Deno, Bun, Cloudflare Workers and Vercel Edge; the
 * comparisons are constant-time.
 */
import { WebhookVerificationError } from "./Errors.js"
import type { ApiEventName, SwitchEvent } from "./Types.js"

// ---- Events ------------------------------------------------------------------------------

// The notices' types are derived from the server's schemas (see Types.ts).
export type {
  LinkAcreditadoData,
  LinkDevueltoData,
  LinkPagadoData,
  SwitchEvent,
  TransaccionData,
  WebhookTestData
} from "./Types.js"

/**
 * Every notice name the API declares, as a value (what a webhook may subscribe to besides `*`).
 * A plain copy of @switch/api's `EventNames`; `Webhooks.test.ts` keeps the two equal.
 */
export const EventNames = [
  "link.pagado",
  "link.acreditado",
  "link.devuelto",
  "transaccion.aprobada",
  "transaccion.liquidada",
  "transaccion.rechazada",
  "webhook.test"
] as const satisfies ReadonlyArray<ApiEventName>

type Uncovered = Exclude<ApiEventName, SwitchEvent["evento"]>
/** Every notice name the API declares; fails to compile if {@link SwitchEvent} misses one. */
export type EventName = [Uncovered] extends [never]
  ? ApiEventName
  : { readonly error: "SwitchEvent does not cover"; readonly missing: Uncovered }

// ---- Verification -----------------------------------------------------------------------------

/** The raw request body exactly as received: text, a Buffer, or any byte view. */
export type RawBody = string | Uint8Array | ArrayBuffer

/** Request headers: a Fetch `Headers`, or Node's `IncomingHttpHeaders`-like record. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** The signature headers a notice carries, strongest first. */
export type SignatureHeaderName = "webhook-signature" | "x-service-signature-v2" | "x-service-signature"

export interface VerifyOptions {
  /** Oldest (or furthest in the future) timestamp accepted, in seconds; default 300 (5 minutes). */
  readonly toleranceSec?: number
  /**
   * The signature headers to accept, tried strongest first (the first present one decides);
   * default all three. `["webhook-signature", "x-service-signature-v2"]` refuses notices whose
   * only signature leaves the timestamp unsigned.
   */
  readonly accept?: ReadonlyArray<SignatureHeaderName>
  /** The current time in ms (tests). */
  readonly now?: number
}

/** Switch's timestamped signature header (DESIGN §5). */
export const SIGNATURE_HEADER = "x-service-signature-v2"
/** The Standard Webhooks signature header (standardwebhooks.com). */
export const STANDARD_SIGNATURE_HEADER = "webhook-signature"
/** The first signature header (HMAC of the body only). */
export const LEGACY_SIGNATURE_HEADER = "x-service-signature"
/** Default timestamp tolerance, in seconds. */
export const DEFAULT_TOLERANCE_SEC = 300

const ALL_HEADERS: ReadonlyArray<SignatureHeaderName> = [
  STANDARD_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  LEGACY_SIGNATURE_HEADER
]
const encoder = new TextEncoder()

const readHeader = (headers: HeaderSource, name: string): string | undefined => {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined
  }
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() !== name) continue
    return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

const toBytes = (body: RawBody): Uint8Array => {
  if (typeof body === "string") return encoder.encode(body)
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  throw new WebhookVerificationError(
    "parsed_body",
    "The webhook body was already parsed. Pass the raw body exactly as received (a string or Buffer), " +
      'for example with express.raw({ type: "application/json" }) or `await request.text()`.'
  )
}

const hmac = async (key: Uint8Array, payload: Uint8Array): Promise<Uint8Array> => {
  const subtle = globalThis.crypto?.subtle
  if (subtle === undefined) throw new Error("WebCrypto (globalThis.crypto.subtle) is not available")
  const imported = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  return new Uint8Array(await subtle.sign("HMAC", imported, payload))
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

const base64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))

const hmacHex = async (secret: string, payload: Uint8Array): Promise<string> =>
  hex(await hmac(encoder.encode(secret), payload))

/** The key Standard Webhooks derives from a secret: the bytes a `whsec_<base64>` secret encodes. */
const standardKey = (secret: string): Uint8Array => {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))
  } catch {
    // Not base64: no notice can verify with it, but that is a bad signature, not a crash.
    return encoder.encode(secret)
  }
}

/** Compares two strings in time that depends only on their length. */
export const timingSafeEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** `t=<ts>,v1=<hex>[,v1=<hex>...]` (several `v1` while a secret rotates). */
export const parseSignatureHeader = (
  value: string
): { readonly timestamp: number; readonly signatures: ReadonlyArray<string> } | undefined => {
  let timestamp: number | undefined
  const signatures: Array<string> = []
  for (const part of value.split(",")) {
    const eq = part.indexOf("=")
    if (eq === -1) continue
    const name = part.slice(0, eq).trim()
    const item = part.slice(eq + 1).trim()
    if (name === "t" && /^\d+$/.test(item)) timestamp = Number(item)
    else if (name === "v1") signatures.push(item.toLowerCase())
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures }
}

/** `v1,<base64>[ v1,<base64>...]` (Standard Webhooks); other versions are skipped. */
const parseStandardSignatures = (value: string): ReadonlyArray<string> =>
  value
    .split(" ")
    .map((part) => part.trim())
    .filter((part) => part.startsWith("v1,"))
    .map((part) => part.slice(3))

const concat = (prefix: Uint8Array, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(prefix.length + body.length)
  out.set(prefix, 0)
  out.set(body, prefix.length)
  return out
}

const anyMatches = (expected: string, signatures: ReadonlyArray<string>): boolean => {
  let matched = false
  for (const signature of signatures) matched = timingSafeEqual(expected, signature) || matched
  return matched
}

const badSignature = (header: string) =>
  new WebhookVerificationError(
    "bad_signature",
    `${header} does not match this body and secret (is the body the raw bytes received, and the secret this endpoint's?)`
  )

const malformed = (header: string, form: string) =>
  new WebhookVerificationError("malformed_header", `${header} is not of the form ${form}`)

const unixSeconds = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined

/** Checks one present signature header; returns the timestamp it vouches for. */
const checkSignature = async (
  name: SignatureHeaderName,
  value: string,
  headers: HeaderSource,
  body: Uint8Array,
  secret: string
): Promise<number> => {
  switch (name) {
    case "webhook-signature": {
      const id = readHeader(headers, "webhook-id")
      const timestamp = unixSeconds(readHeader(headers, "webhook-timestamp"))
      if (id === undefined || id === "") {
        throw new WebhookVerificationError(
          "missing_header",
          "The notice has webhook-signature but no webhook-id"
        )
      }
      if (timestamp === undefined) {
        throw malformed("webhook-timestamp", "<unix seconds>")
      }
      const signatures = parseStandardSignatures(value)
      if (signatures.length === 0) throw malformed(name, "v1,<base64 signature>")
      const expected = base64(
        await hmac(standardKey(secret), concat(encoder.encode(`${id}.${timestamp}.`), body))
      )
      if (!anyMatches(expected, signatures)) throw badSignature(name)
      return timestamp
    }
    case "x-service-signature-v2": {
      const parsed = parseSignatureHeader(value)
      if (parsed === undefined) throw malformed(name, "t=<timestamp>,v1=<signature>")
      const expected = await hmacHex(secret, concat(encoder.encode(`${parsed.timestamp}.`), body))
      if (!anyMatches(expected, parsed.signatures)) throw badSignature(name)
      return parsed.timestamp
    }
    case "x-service-signature": {
      const match = /^sha256=([0-9a-fA-F]{64})$/.exec(value.trim())
      if (match === null) throw malformed(name, "sha256=<hex signature>")
      const timestamp = unixSeconds(readHeader(headers, "x-service-timestamp"))
      if (timestamp === undefined) {
        throw new WebhookVerificationError(
          "missing_header",
          "The notice has x-service-signature but no x-service-timestamp"
        )
      }
      if (!anyMatches(await hmacHex(secret, body), [match[1]!.toLowerCase()])) throw badSignature(name)
      return timestamp
    }
  }
}

/**
 * Checks a notice's signature against `secret` and its timestamp against the tolerance (5
 * minutes by default), then returns the parsed event. Any of `webhook-signature`,
 * `x-service-signature-v2` or `x-service-signature` proves it; the strongest one present
 * decides. Rejects with a {@link WebhookVerificationError} whose `reason` is
 * `missing_header`, `malformed_header`, `bad_signature`, `stale_timestamp`, `parsed_body` or
 * `invalid_payload`.
 */
export const verify = async (
  rawBody: RawBody,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {}
): Promise<SwitchEvent> => {
  const body = toBytes(rawBody)
  const accepted = options.accept ?? ALL_HEADERS
  const present = ALL_HEADERS.filter((name) => accepted.includes(name))
    .map((name) => ({ name, value: readHeader(headers, name) }))
    .find((header): header is { name: SignatureHeaderName; value: string } => (header.value ?? "") !== "")
  if (present === undefined) {
    throw new WebhookVerificationError("missing_header", `The notice has none of ${accepted.join(", ")}`)
  }
  const timestamp = await checkSignature(present.name, present.value, headers, body, secret)
  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC
  const nowSec = Math.floor((options.now ?? Date.now()) / 1000)
  if (Math.abs(nowSec - timestamp) > toleranceSec) {
    throw new WebhookVerificationError(
      "stale_timestamp",
      `The notice's timestamp is ${nowSec - timestamp} s away from now (tolerance ${toleranceSec} s): possibly a replay`
    )
  }
  try {
    return JSON.parse(new TextDecoder().decode(body)) as SwitchEvent
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The signed body is not JSON")
  }
}

/**
 * The `x-service-signature-v2` value Switch would send for `payload` at `timestamp` (unix
 * seconds, default now). For tests of a receiver.
 */
export const generateTestHeader = async (input: {
  readonly payload: RawBody
  readonly secret: string
  readonly timestamp?: number
}): Promise<string> => {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000)
  const signature = await hmacHex(
    input.secret,
    concat(encoder.encode(`${timestamp}.`), toBytes(input.payload))
  )
  return `t=${timestamp},v1=${signature}`
}

/**
 * The signature headers of a notice as Switch sends them (DESIGN §5 and §8), for tests of a
 * receiver. `id` is the `webhook-id` (and `x-service-delivery`); default a new one.
 */
export const signatureHeaders = async (input: {
  readonly payload: RawBody
  readonly secret: string
  readonly timestamp?: number
  readonly id?: string
}): Promise<Record<string, string>> => {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000)
  const id = input.id ?? globalThis.crypto.randomUUID()
  const body = toBytes(input.payload)
  const event = (() => {
    try {
      return (JSON.parse(new TextDecoder().decode(body)) as { evento?: string }).evento
    } catch {
      return undefined
    }
  })()
  const standard = base64(
    await hmac(standardKey(input.secret), concat(encoder.encode(`${id}.${timestamp}.`), body))
  )
  return {
    "content-type": "application/json",
    ...(event === undefined ? {} : { "x-service-event": event }),
    "x-service-delivery": id,
    "x-service-timestamp": String(timestamp),
    "x-service-signature": `sha256=${await hmacHex(input.secret, body)}`,
    [SIGNATURE_HEADER]: await generateTestHeader({ payload: body, secret: input.secret, timestamp }),
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: `v1,${standard}`
  }
}
