/**
 * One error hierarchy for every failure the client can report, modelled on stripe-node's
 * `Error.ts`: a caller branches with `instanceof` or, across bundles where two copies of the
 * SDK may coexist (ESM and CJS), with the `type` discriminant.
 */

/** SPEC's validation detail: field name to its messages. */
export interface FieldErrors {
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}

/** What a {@link SwitchError} is built from. */
export interface SwitchErrorInit {
  readonly message?: string | undefined
  readonly status?: number | undefined
  readonly code: string
  readonly detail?: unknown
  readonly requestId?: string | undefined
  readonly raw?: unknown
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly attempts?: number | undefined
  readonly cause?: unknown
}

/** The names of the error classes, for `switch (error.type)`. */
export type SwitchErrorType =
  | "SwitchError"
  | "ValidationError"
  | "AuthenticationError"
  | "PermissionError"
  | "NotFoundError"
  | "ConflictError"
  | "RateLimitError"
  | "BankCloseError"
  | "ServerError"
  | "ConnectionError"
  | "TimeoutError"
  | "WebhookVerificationError"

const isFieldErrors = (detail: unknown): detail is FieldErrors =>
  typeof detail === "object" &&
  detail !== null &&
  typeof (detail as { fieldErrors?: unknown }).fieldErrors === "object"

/** A readable one-line summary of SPEC's `detail` (text, or `{fieldErrors}`). */
export const describeDetail = (detail: unknown): string | undefined => {
  if (typeof detail === "string") return detail
  if (isFieldErrors(detail)) {
    return Object.entries(detail.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
      .join("; ")
  }
  return undefined
}

/** Any failure of a Switch call: an API error answer, a network failure, a timeout. */
export class SwitchError extends Error {
  override readonly name: string = "SwitchError"
  readonly type: SwitchErrorType = "SwitchError"
  /** HTTP status; `undefined` when no answer arrived (connection failures, timeouts). */
  readonly status: number | undefined
  /** SPEC's `error` code (`validation`, `not_found`, `no_cancelable`, ...) or a local one. */
  readonly code: string
  /** SPEC's `detail`: text, or `{ fieldErrors }` on validation. */
  readonly detail: unknown
  /** The server's `x-request-id`, to quote when asking for support. */
  readonly requestId: string | undefined
  /** The parsed error body as the server sent it. */
  readonly raw: unknown
  /** Response headers, lower-cased. */
  readonly headers: Readonly<Record<string, string>>
  /** How many attempts were made before giving up (1 when there was no retry). */
  readonly attempts: number

  constructor(init: SwitchErrorInit) {
    const text = describeDetail(init.detail)
    super(
      init.message ??
        `${init.code}${init.status === undefined ? "" : ` (${init.status})`}${text === undefined ? "" : `: ${text}`}`,
      init.cause === undefined ? undefined : { cause: init.cause }
    )
    this.status = init.status
    this.code = init.code
    this.detail = init.detail
    this.requestId = init.requestId
    this.raw = init.raw
    this.headers = init.headers ?? {}
    this.attempts = init.attempts ?? 1
  }
}

/** `400` (and `422`): a missing or invalid field, a bad list filter, or a refused split. */
export class ValidationError extends SwitchError {
  override readonly name = "ValidationError"
  override readonly type = "ValidationError"
  /** Field name to messages, when the server sent SPEC's `{ fieldErrors }`. */
  get fieldErrors(): Readonly<Record<string, ReadonlyArray<string>>> {
    return isFieldErrors(this.detail) ? this.detail.fieldErrors : {}
  }
  /** The list filter that was refused (`GET /links?min=abc` gives `min`). */
  get parametro(): string | undefined {
    const raw = this.raw as { parametro?: unknown } | null
    return typeof raw?.parametro === "string" ? raw.parametro : undefined
  }
}

/** `401 unauthorized`: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends SwitchError {
  override readonly name = "AuthenticationError"
  override readonly type = "AuthenticationError"
}

/** `403`: the key may not do this (`requiere_llave_live`, `solo_modo_prueba`, `comercio_suspendido`, ...). */
export class PermissionError extends SwitchError {
  override readonly name = "PermissionError"
  override readonly type = "PermissionError"
}

/** `404`: the object does not exist, is another merchant's, or belongs to the other mode. */
export class NotFoundError extends SwitchError {
  override readonly name = "NotFoundError"
  override readonly type = "NotFoundError"
}

/** `409`: the request conflicts with the object's state (`no_cancelable`, `item_duplicado`, `tope_*`, ...). */
export class ConflictError extends SwitchError {
  override readonly name = "ConflictError"
  override readonly type = "ConflictError"
  /** The object's current `estado`, when SPEC sends it (`no_cancelable`). */
  get estado(): string | undefined {
    const raw = this.raw as { estado?: unknown } | null
    return typeof raw?.estado === "string" ? raw.estado : undefined
  }
}

/** `429`: the request limit passed. `retryAfter` is in seconds, from `Retry-After`. */
export class RateLimitError extends SwitchError {
  override readonly name = "RateLimitError"
  override readonly type = "RateLimitError"
  readonly retryAfter: number | undefined
  constructor(init: SwitchErrorInit & { readonly retryAfter?: number | undefined }) {
    super(init)
    this.retryAfter = init.retryAfter
  }
}

/** `503 cierre_bancario`: the banks' daily close (23:45 to 01:30 Caracas); retry in `reintentarEn` seconds. */
export class BankCloseError extends SwitchError {
  override readonly name = "BankCloseError"
  override readonly type = "BankCloseError"
  readonly reintentarEn: number | undefined
  readonly motivo: string | undefined
  constructor(
    init: SwitchErrorInit & {
      readonly reintentarEn?: number | undefined
      readonly motivo?: string | undefined
    }
  ) {
    super(init)
    this.reintentarEn = init.reintentarEn
    this.motivo = init.motivo
  }
}

/** `5xx`: a service failure. Creates are safe to repeat with the same idempotency key. */
export class ServerError extends SwitchError {
  override readonly name = "ServerError"
  override readonly type = "ServerError"
}

/** No answer: DNS, refused or reset connection, or a response cut off. */
export class ConnectionError extends SwitchError {
  override readonly name: string = "ConnectionError"
  override readonly type: SwitchErrorType = "ConnectionError"
}

/** No answer within the timeout. The request may or may not have been processed. */
export class TimeoutError extends ConnectionError {
  override readonly name = "TimeoutError"
  override readonly type = "TimeoutError"
}

/** Why a webhook notice was refused. */
export type WebhookFailure =
  | "missing_header"
  | "malformed_header"
  | "bad_signature"
  | "stale_timestamp"
  | "parsed_body"
  | "invalid_payload"

/** A webhook notice that must not be trusted; `reason` says why. */
export class WebhookVerificationError extends SwitchError {
  override readonly name = "WebhookVerificationError"
  override readonly type = "WebhookVerificationError"
  readonly reason: WebhookFailure
  constructor(reason: WebhookFailure, message: string) {
    super({ code: `webhook_${reason}`, message })
    this.reason = reason
  }
}

const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110). `undefined` when absent
 * or unreadable; never negative.
 */
export const parseRetryAfter = (
  value: string | null | undefined,
  now: number = Date.now()
): number | undefined => {
  if (value === null || value === undefined || value.trim() === "") return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/** The error for an API answer that is not 2xx, by status and SPEC's `error` code. */
export const errorFromResponse = (
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>>,
  attempts = 1
): SwitchError => {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
  const code =
    typeof record.error === "string"
      ? record.error
      : status === 429
        ? "demasiadas_solicitudes"
        : status >= 500
          ? "error_interno"
          : `http_${status}`
  const init: SwitchErrorInit = {
    status,
    code,
    detail: record.detail ?? (typeof body === "string" && body !== "" ? body : undefined),
    requestId: headers["x-request-id"],
    raw: body,
    headers,
    attempts
  }
  switch (status) {
    case 400:
    case 422:
      return new ValidationError(init)
    case 401:
      return new AuthenticationError(init)
    case 403:
      return new PermissionError(init)
    case 404:
      return new NotFoundError(init)
    case 409:
      return new ConflictError(init)
    case 429:
      return new RateLimitError({
        ...init,
        retryAfter: parseRetryAfter(headers["retry-after"]) ?? numberOrUndefined(record.reintentar_en)
      })
  }
  if (status === 503 && code === "cierre_bancario") {
    return new BankCloseError({
      ...init,
      reintentarEn: numberOrUndefined(record.reintentar_en) ?? parseRetryAfter(headers["retry-after"]),
      motivo: typeof record.motivo === "string" ? record.motivo : undefined
    })
  }
  if (status >= 500) return new ServerError(init)
  return new SwitchError(init)
}
