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

const estadoOf = (raw: unknown): string | undefined => {
  const estado = (raw as { estado?: unknown } | null | undefined)?.estado
  return typeof estado === "string" ? estado : undefined
}

/**
 * What each of SPEC's error codes means for the person reading it, and what to do, in Spanish
 * like the API. A function gets the error body (for `estado`).
 */
const MESSAGES: Readonly<Record<string, string | ((raw: unknown) => string)>> = {
  validation: "Los datos enviados no son válidos; corríjalos y reintente",
  VALIDATION: "Los datos enviados no son válidos; corríjalos y reintente",
  label_reservado: "La etiqueta de la llave empieza con un prefijo reservado; use otra etiqueta",
  unauthorized: "La llave de API falta, no es válida o fue revocada; revise la llave o cree una nueva",
  comercio_suspendido: "El comercio está suspendido y no puede crear links ni lotes; contacte a soporte",
  requiere_llave_live: "Esta operación requiere una llave live (sk_live_); repítala con una llave live",
  solo_modo_prueba: "Solo un link de prueba se puede simular; use una llave de prueba (sk_test_)",
  pagar_no_habilitado:
    "Los pagos y dispersiones no están habilitados para este comercio; solicite la habilitación",
  reintegro_no_habilitado: "Los reintegros no están habilitados con la llave live de un comercio",
  solo_uso_interno: "Esta ruta es solo de uso interno",
  cuenta_no_permitida: "Esta cuenta no está permitida en esta ruta",
  prohibido: "No tiene permiso para esta operación",
  not_found: "No existe, es de otro comercio o es del otro modo (prueba o live); revise el id y la llave",
  no_encontrado: "No existe un comprobante con ese código; revise el código",
  no_cancelable: (raw) => {
    const estado = estadoOf(raw)
    return estado === undefined
      ? "El link ya no está pendiente y no se puede cancelar"
      : `El link ya está ${estado} y no se puede cancelar`
  },
  no_simulable: (raw) => {
    const estado = estadoOf(raw)
    return estado === undefined
      ? "El link ya no está pendiente y no se puede simular"
      : `El link ya está ${estado} y no se puede simular`
  },
  idempotency_key_en_uso: "Esa idempotency_key ya se usó en el otro modo (prueba o live); use otra",
  item_duplicado:
    "Un ítem del lote repite una idempotency_key ya usada; quítelo o cambie su clave (no se creó nada)",
  limite_webhooks: "Ya tiene 10 webhooks, el máximo; borre uno antes de crear otro",
  tope_diario_excedido:
    "El cobro pasaría el tope diario de recepción del comercio; no se pidió el código, reintente mañana",
  tope_acumulado_excedido:
    "El cobro pasaría el tope acumulado de recepción del comercio; no se pidió el código",
  cobro_con_split_repartido:
    "El cobro ya pagó (o está pagando) a un beneficiario de su reparto y no se puede reintegrar",
  cobro_no_confirmado_banco:
    "El banco aún no confirma el cobro; reintente el reintegro cuando esté LIQUIDADA",
  reintegro_en_curso: "Ya hay un reintegro en curso para ese cobro; espere su resultado",
  cobro_ya_liquidado_al_comercio:
    "El cobro ya se liquidó (o se está liquidando) al comercio y no se puede reintegrar",
  reintegro_intento_ambiguo:
    "El intento anterior de reintegro no tiene un resultado claro; consulte su estado antes de reintentar",
  reintegro_sin_intento_previo: "Envió retry_nonce sin un intento anterior; envíe el primer intento sin él",
  reintegro_ya_pagado: "Un intento anterior ya pagó el reintegro; no lo repita",
  destino_bloqueado: "La URL del webhook apunta a una red interna; use una dirección https pública",
  demasiadas_solicitudes: "Demasiadas solicitudes; espere unos segundos y reintente",
  rate_limited: "Demasiadas solicitudes; espere unos segundos y reintente",
  cierre_bancario:
    "Los bancos están en su cierre diario (23:45 a 01:30, hora de Caracas); reintente al terminar",
  split_no_disponible_ahora: "No se pudieron verificar las cuentas del reparto; no se creó nada, reintente",
  tasa_no_disponible: "No hay una tasa BCV reciente para aplicar los límites en dólares; reintente más tarde",
  error_interno: "Falla interna de Switch; reintente con la misma idempotency_key",
  split_no_disponible: "El reparto (split) no está activo para este comercio; no se creó nada",
  split_invalido: "El reparto no es válido",
  split_max_beneficiarios: "El reparto tiene más de 5 beneficiarios, el máximo",
  split_excede_neto: "El reparto pasa del 100 % o del neto del pago después de la comisión",
  split_requiere_liquidacion_inmediata:
    "El reparto requiere liquidación inmediata, que este comercio no tiene",
  split_cuenta_no_preaprobada: "Una cuenta del reparto no está entre las aprobadas en el portal",
  split_beneficiario_bloqueado:
    "Un control de seguridad bloquea una cuenta del reparto, o pasaría su tope diario",
  comercio_duplicado: "Ya existe un comercio con ese código; elija otro",
  enlace_invalido: "El enlace ya se usó, venció o fue reemplazado por otro; pida uno nuevo",
  ultimo_propietario: "El comercio necesita al menos un propietario activo; nombre otro antes",
  correo_no_configurado: "Este servicio no envía correos; pida ayuda a Switch",
  codigo_invalido: "El código no es válido o ya se usó; espere el siguiente de su app",
  codigo_requerido: "Escriba el código de 6 dígitos de su app de autenticación",
  totp_requerido: "Para el modo live, active primero su segundo factor (TOTP)",
  totp_ya_activo: "Ya tiene un segundo factor activo; quítelo antes de inscribir otro",
  link_no_disponible: "El link no está disponible para pagar"
}

/** What a status means when the code is not one SPEC lists. */
const generic = (status: number | undefined): string => {
  if (status === undefined) return "La llamada a Switch falló"
  if (status === 400 || status === 422) return "Switch rechazó la solicitud por sus datos; revísela"
  if (status === 401) return "Switch no aceptó la llave; revísela"
  if (status === 403) return "La llave no permite esta operación"
  if (status === 404) return "Switch no encontró lo pedido"
  if (status === 409) return "La solicitud choca con el estado actual del objeto"
  if (status === 429) return "Demasiadas solicitudes; espere unos segundos y reintente"
  if (status >= 500) return "Switch falló al atender la solicitud; reintente con la misma idempotency_key"
  return "Switch respondió con un error"
}

/**
 * The message of an API error, for people: what happened and what to do, then SPEC's code and
 * the status, `El link ya está pagado y no se puede cancelar (no_cancelable, HTTP 409)`. The
 * server's text `detail` is used when it is a sentence; field errors are spelled out.
 */
export const errorMessage = (input: {
  readonly code: string
  readonly status?: number | undefined
  readonly detail?: unknown
  readonly raw?: unknown
}): string => {
  const known = MESSAGES[input.code]
  const sentence =
    known === undefined ? generic(input.status) : typeof known === "string" ? known : known(input.raw)
  const text = describeDetail(input.detail)?.trim()
  const what =
    text === undefined || text === ""
      ? sentence
      : typeof input.detail === "string" && /\s/.test(text)
        ? text.replace(/\.$/, "")
        : `${sentence.split(";")[0]}: ${text}`
  return `${what} (${input.code}${input.status === undefined ? "" : `, HTTP ${input.status}`})`
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
    super(init.message ?? errorMessage(init), init.cause === undefined ? undefined : { cause: init.cause })
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
    // A body that is not JSON (a proxy's HTML page) is kept in `detail`, not put in the message.
    message: errorMessage({ code, status, detail: record.detail, raw: body }),
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
