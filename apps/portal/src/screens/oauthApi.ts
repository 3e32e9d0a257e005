/**
 * The OAuth consent and "Aplicaciones conectadas" calls (apps/server oauth/): standard OAuth
 * endpoints outside the public contract, so outside the SDK. Same origin, the session's cookie,
 * and on unsafe calls the session's CSRF token, read from `GET /switch/v1/sesion`.
 */
export interface Alcance {
  readonly alcance: string
  readonly descripcion: string
  readonly permitido: boolean
}

export interface Solicitud {
  readonly cliente: {
    readonly client_id: string
    readonly nombre: string
    readonly origen: "dcr" | "cimd"
    readonly redirect_host: string
  }
  readonly comercio: string
  readonly modo_sesion: "test" | "live"
  readonly modos: ReadonlyArray<"test" | "live">
  readonly alcances: ReadonlyArray<Alcance>
}

export interface Concesion {
  readonly id: string
  readonly client_id: string
  readonly nombre: string
  readonly redirect_host: string
  readonly mode: "test" | "live"
  readonly scopes: ReadonlyArray<string>
  readonly usuario_email: string
  readonly created_at: string
  readonly last_used_at: string | null
}

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const read = async <T>(response: Response): Promise<T> => {
  const body = (await response.json().catch(() => ({}))) as { detail?: unknown }
  if (!response.ok)
    throw new OAuthError(
      response.status,
      typeof body.detail === "string" ? body.detail : "No se pudo completar. Intenta de nuevo."
    )
  return body as T
}

const csrf = async (): Promise<string> => {
  const session = await read<{ csrf_token: string }>(
    await fetch("/switch/v1/sesion", { credentials: "same-origin" })
  )
  return session.csrf_token
}

const post = async <T>(path: string, body: unknown): Promise<T> =>
  read<T>(
    await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": await csrf() },
      body: JSON.stringify(body)
    })
  )

export const solicitud = async (query: string) =>
  read<Solicitud>(await fetch(`/oauth/consentimiento?${query}`, { credentials: "same-origin" }))

export const responder = (answer: {
  readonly solicitud: string
  readonly aprobar: boolean
  readonly mode?: "test" | "live"
  readonly scopes?: ReadonlyArray<string>
}) => post<{ redirect_to: string }>("/oauth/consentimiento", answer)

export const concesiones = async () =>
  (
    await read<{ data: ReadonlyArray<Concesion> }>(
      await fetch("/oauth/concesiones", { credentials: "same-origin" })
    )
  ).data

export const revocar = (id: string) =>
  post<{ id: string }>(`/oauth/concesiones/${encodeURIComponent(id)}/revocar`, {})
