/**
 * Verifying webhook notices (DESIGN §5): `x-service-signature-v2: t=<unix seconds>,v1=<hex>`,
 * where the hex is HMAC-SHA256(secret, "<t>.<raw body>"). WebCrypto only, so it runs on Node
 * 20+, Deno, Bun, Cloudflare Workers and Vercel Edge; the comparison is constant-time.
 */
import { WebhookVerificationError } from "./Errors.js"
import type { ApiEventName, EstadoOperacion, Mode } from "./Types.js"

// ---- Events ------------------------------------------------------------------------------

/** Data of `link.pagado`: the bank (or card processor) confirmed the payment. */
export interface LinkPagadoData {
  readonly link_id: string
  /** The charge, without tip or card surcharge. */
  readonly monto: number
  readonly propina: number
  readonly total: number
  readonly mode: Mode
  readonly referencia: string | null
  readonly txn_id: string
  readonly codigo_verificacion: string | null
  readonly pagador: { readonly alta_cliente: boolean }
  readonly metodo?: string
  readonly recargo_tarjeta?: number
  readonly [field: string]: unknown
}

/** Data of `link.acreditado`: the net reached the merchant's account. */
export interface LinkAcreditadoData {
  readonly link_id?: string
  readonly monto_acreditado: number
  readonly liquidacion_txn_id: string
  readonly reparto?: unknown
  readonly mode: Mode
  readonly [field: string]: unknown
}

/** Data of `link.devuelto` (pilot): a refund reached the payer. */
export interface LinkDevueltoData {
  readonly link_id?: string
  readonly monto: number
  readonly monto_devuelto: number
  readonly mode?: Mode
  readonly [field: string]: unknown
}

/** Data of `transaccion.*`; act on `liquidada` only when `operacion` is `cobro`. */
export interface TransaccionData {
  readonly estado: EstadoOperacion
  readonly operacion: "cobro" | "pago" | "reverso" | "devolucion_debito" | "devolucion" | "devolucion_retorno"
  readonly mode: Mode
  readonly [field: string]: unknown
}

interface EventOf<Name extends string, Data> {
  /** `evt_<uuid>`; dedupe on `x-service-delivery` or on this id. */
  readonly id: string
  readonly evento: Name
  readonly creado_en: string
  readonly data: Data
}

/** Every notice Switch sends, discriminated by `evento`. */
export type SwitchEvent =
  | EventOf<"link.pagado", LinkPagadoData>
  | EventOf<"link.acreditado", LinkAcreditadoData>
  | EventOf<"link.devuelto", LinkDevueltoData>
  | EventOf<"transaccion.aprobada", TransaccionData>
  | EventOf<"transaccion.liquidada", TransaccionData>
  | EventOf<"transaccion.rechazada", TransaccionData>
  | EventOf<"webhook.test", { readonly mode?: Mode; readonly [field: string]: unknown }>

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

export interface VerifyOptions {
  /** Oldest (or furthest in the future) timestamp accepted, in seconds; default 300. */
  readonly toleranceSec?: number
  /** The current time in ms (tests). */
  readonly now?: number
}

export const SIGNATURE_HEADER = "x-service-signature-v2"
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

const hmacHex = async (secret: string, payload: Uint8Array): Promise<string> => {
  const subtle = globalThis.crypto?.subtle
  if (subtle === undefined) throw new Error("WebCrypto (globalThis.crypto.subtle) is not available")
  const key = await subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"]
  )
  const mac = new Uint8Array(await subtle.sign("HMAC", key, payload))
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")
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

const concat = (prefix: Uint8Array, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(prefix.length + body.length)
  out.set(prefix, 0)
  out.set(body, prefix.length)
  return out
}

/**
 * Checks a notice's `x-service-signature-v2` against `secret` and its timestamp against the
 * tolerance, then returns the parsed event. Rejects with a {@link WebhookVerificationError}
 * whose `reason` is `missing_header`, `malformed_header`, `bad_signature`, `stale_timestamp`,
 * `parsed_body` or `invalid_payload`.
 */
export const verify = async (
  rawBody: RawBody,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {}
): Promise<SwitchEvent> => {
  const body = toBytes(rawBody)
  const header = readHeader(headers, SIGNATURE_HEADER)
  if (header === undefined || header === "") {
    throw new WebhookVerificationError("missing_header", `The notice has no ${SIGNATURE_HEADER} header`)
  }
  const parsed = parseSignatureHeader(header)
  if (parsed === undefined) {
    throw new WebhookVerificationError(
      "malformed_header",
      `${SIGNATURE_HEADER} is not of the form t=<timestamp>,v1=<signature>`
    )
  }
  const expected = await hmacHex(secret, concat(encoder.encode(`${parsed.timestamp}.`), body))
  let matched = false
  for (const signature of parsed.signatures) matched = timingSafeEqual(expected, signature) || matched
  if (!matched) {
    throw new WebhookVerificationError(
      "bad_signature",
      "The signature does not match this body and secret (is the body the raw bytes received, and the secret this endpoint's?)"
    )
  }
  const toleranceSec = options.toleranceSec ?? 300
  const nowSec = Math.floor((options.now ?? Date.now()) / 1000)
  if (Math.abs(nowSec - parsed.timestamp) > toleranceSec) {
    throw new WebhookVerificationError(
      "stale_timestamp",
      `The notice's timestamp is ${nowSec - parsed.timestamp} s away from now (tolerance ${toleranceSec} s): possibly a replay`
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

/** The signature headers of a notice as Switch sends them (DESIGN §5), for tests of a receiver. */
export const signatureHeaders = async (input: {
  readonly payload: RawBody
  readonly secret: string
  readonly timestamp?: number
}): Promise<Record<string, string>> => {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000)
  const body = toBytes(input.payload)
  const event = (() => {
    try {
      return (JSON.parse(new TextDecoder().decode(body)) as { evento?: string }).evento
    } catch {
      return undefined
    }
  })()
  return {
    "content-type": "application/json",
    ...(event === undefined ? {} : { "x-service-event": event }),
    "x-service-timestamp": String(timestamp),
    "x-service-signature": `sha256=${await hmacHex(input.secret, body)}`,
    [SIGNATURE_HEADER]: await generateTestHeader({ payload: body, secret: input.secret, timestamp })
  }
}
