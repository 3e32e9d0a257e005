/**
 * The console's client of the operators' API (`/admin/v1/operador/...`): same-origin fetch, the
 * session's HttpOnly cookie sent by the browser, the CSRF token kept in memory only and sent on
 * every unsafe request. A `401` means the session ended: the console goes back to sign-in.
 */

export type Rol = "soporte" | "riesgo" | "tesoreria"

export interface SesionOperador {
  readonly operador: { readonly id: string; readonly email: string; readonly rol: Rol }
  readonly csrf_token: string
  readonly expira_en: string
}

export interface Comercio {
  readonly codigo: string
  readonly nombre: string
  readonly identificacion: string
  readonly email: string
  readonly estado: "pendiente" | "activo" | "suspendido"
  readonly kyc_tier: number
  readonly revisado: boolean
  readonly aprobado_at: string | null
  readonly created_at: string
  /** Immediate settlement and the pilots, shown at a glance on the merchant's entry. */
  readonly liquidacion_inmediata: boolean
  readonly split_habilitado: boolean
  readonly tarjeta_habilitada: boolean
  readonly reembolsos_habilitado: boolean
}

export interface Auditoria {
  readonly id: number
  readonly actor: string
  readonly accion: string
  readonly objeto_tipo: string
  readonly objeto_id: string
  readonly antes: unknown
  readonly despues: unknown
  readonly nota: string | null
  readonly created_at: string
}

export const API = "/admin/v1/operador"

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string
  ) {
    super(message)
  }
}

let csrf = ""
const lost = new Set<() => void>()

export const setCsrf = (token: string) => {
  csrf = token
}

/** Called when the service answers 401 to a signed-in request. */
export const onSessionLost = (listener: () => void) => {
  lost.add(listener)
  return () => {
    lost.delete(listener)
  }
}

const detailText = (detail: unknown): string | undefined => {
  if (typeof detail === "string") return detail
  if (detail !== null && typeof detail === "object" && "fieldErrors" in detail) {
    const errors = (detail as { fieldErrors: Record<string, ReadonlyArray<string>> }).fieldErrors
    return Object.entries(errors)
      .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
      .join("; ")
  }
  return undefined
}

export const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const unsafe = method !== "GET"
  const response = await fetch(`${API}${path}`, {
    method,
    credentials: "same-origin",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(unsafe && csrf !== "" ? { "x-csrf-token": csrf } : {})
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  const parsed: unknown = text === "" ? null : JSON.parse(text)
  if (!response.ok) {
    const error = (parsed ?? {}) as { error?: string; detail?: unknown }
    if (response.status === 401 && path !== "/sesion") for (const listener of lost) listener()
    throw new ApiError(
      response.status,
      error.error ?? "error",
      detailText(error.detail) ?? `El servicio respondió ${response.status}.`
    )
  }
  return parsed as T
}

export const errorText = (e: unknown) =>
  e instanceof ApiError ? e.message : "No se pudo contactar al servicio. Revisa tu conexión."

/** Whether a role may act on merchants (the server checks it too). */
export const puedeRiesgo = (rol: Rol) => rol === "riesgo"
