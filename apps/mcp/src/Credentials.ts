/**
 * Who is calling: a credential resolver turns request headers into what the SDK calls the API
 * with. Two credentials (DESIGN §8):
 *
 * - `x-switch-key`, unchanged, exactly as the API takes it.
 * - An OAuth access token (`Authorization: Bearer`) of the MCP sign-in (issue 34). This server
 *   is the token's audience (RFC 8707 `resource`): it asks the authorization server (the API,
 *   `POST /oauth/introspect`) whether the token is live, and refuses it unless its audience is
 *   this server's own endpoint. Tool calls then reach the API with that same token, which the
 *   API accepts only because its audience is this MCP endpoint and only on the routes its
 *   scopes open: the API and this process are one protected resource. The token is never sent
 *   to any other party (see the README, "Sign-in").
 */
import type { IncomingHttpHeaders } from "node:http"

export type Credential =
  | { readonly _tag: "Key"; readonly key: string }
  | {
      readonly _tag: "Token"
      readonly token: string
      readonly scopes: ReadonlyArray<string>
      readonly mode: "test" | "live"
    }
  | { readonly _tag: "Missing"; readonly reason: string; readonly invalidToken?: boolean }

export type CredentialResolver = (headers: IncomingHttpHeaders) => Promise<Credential>

const KEY = /^[a-z0-9_-]{3,32}:sk_(test|live)_[0-9A-Za-z]{16,64}$/
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i
/** A key sent as a bearer token (`Bearer demo:sk_test_...`, or the secret alone). */
const KEY_AS_BEARER = /^Bearer\s+(?:[^\s:]+:)?sk_(?:test|live)_/i

/** The `x-switch-key` header, unchanged, exactly as the API takes it. */
export const switchKeyHeader: CredentialResolver = async (headers) => {
  const value = headers["x-switch-key"]
  const key = Array.isArray(value) ? value[0] : value
  if (key === undefined || key === "") {
    return {
      _tag: "Missing",
      reason:
        "Falta la credencial: inicia sesión (OAuth) o envía x-switch-key (<comercio>:<api_key>). / Missing credential."
    }
  }
  if (!KEY.test(key.trim())) {
    return {
      _tag: "Missing",
      reason: "x-switch-key mal formado: <comercio>:sk_test_... / Malformed x-switch-key."
    }
  }
  return { _tag: "Key", key: key.trim() }
}

interface Introspection {
  readonly active: boolean
  readonly aud?: string
  readonly scope?: string
  readonly mode?: "test" | "live"
  readonly exp?: number
}

/**
 * A key when one is sent; otherwise the bearer token, introspected at `apiUrl` and accepted only
 * when live and issued for `resource` (this server's endpoint).
 */
export const keyOrToken =
  (options: { readonly apiUrl: string; readonly resource: () => string }): CredentialResolver =>
  async (headers) => {
    if (headers["x-switch-key"] !== undefined) return switchKeyHeader(headers)
    const authorization = headers.authorization
    if (authorization === undefined || authorization === "") return switchKeyHeader(headers)
    // Told where a key goes, and never sent on: introspection is for tokens.
    if (KEY_AS_BEARER.test(authorization))
      return {
        _tag: "Missing",
        reason:
          "Las llaves van en el encabezado x-switch-key (<comercio>:sk_...), no en Authorization: Bearer, que es para los tokens de acceso. / Keys go in x-switch-key, not in Authorization."
      }
    const token = BEARER.exec(authorization)?.[1]
    const invalid = (reason: string): Credential => ({ _tag: "Missing", reason, invalidToken: true })
    if (token === undefined)
      return invalid("Authorization debe ser Bearer <token>. / Malformed Authorization.")
    let answer: Introspection
    try {
      const response = await fetch(`${options.apiUrl}/oauth/introspect`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
        signal: AbortSignal.timeout(10_000)
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      answer = (await response.json()) as Introspection
    } catch {
      throw new Error("no se pudo validar el token con el servidor de autorización")
    }
    if (!answer.active) return invalid("El token de acceso es inválido, expiró o fue revocado.")
    if (answer.aud !== options.resource())
      return invalid("El token de acceso no es para este servidor MCP (audiencia).")
    if (answer.exp !== undefined && answer.exp * 1000 <= Date.now())
      return invalid("El token de acceso expiró.")
    return {
      _tag: "Token",
      token,
      scopes: (answer.scope ?? "").split(" ").filter((s) => s !== ""),
      mode: answer.mode === "live" ? "live" : "test"
    }
  }
