/**
 * The official MCP client's OAuth side, for the tests: an in-memory `OAuthClientProvider`
 * (a registered client via DCR, or a Client ID Metadata Document's URL) and the consent a
 * signed-in merchant user gives, through the portal's consent API or in a browser.
 */
import { randomUUID } from "node:crypto"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { call } from "./stack.js"

export const REDIRECT = "http://127.0.0.1:7777/callback"

export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  authorizationUrl: URL | undefined
  declare readonly clientMetadataUrl?: string
  readonly scope: string | undefined

  constructor(options: { readonly clientMetadataUrl?: string; readonly scope?: string } = {}) {
    if (options.clientMetadataUrl !== undefined)
      Object.defineProperty(this, "clientMetadataUrl", { value: options.clientMetadataUrl })
    this.scope = options.scope
  }

  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Asistente de prueba",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.scope === undefined ? {} : { scope: this.scope })
    }
  }
  state() {
    return randomUUID()
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

export interface PortalSession {
  readonly cookie: string
  readonly csrf: string
}

export const PASSWORD = "una-clave-larga-1"

/** A merchant signed up with an owner's password, and the owner's portal session. */
export const ownerSession = async (base: string, codigo = `m${randomUUID().slice(0, 8)}`) => {
  const email = `${codigo}@dueno.example`
  const reg = await call(base, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`)
  const signIn = await fetch(`${base}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const body = (await signIn.json()) as { csrf_token: string }
  const session: PortalSession = {
    cookie: (signIn.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    csrf: body.csrf_token
  }
  return { codigo, email, key: `${codigo}:${reg.body.api_key}`, session }
}

/**
 * Follows an authorization URL as a signed-in user's browser would (the authorize redirect,
 * then the consent screen's answer) and returns the code, after checking state and iss.
 */
export const consent = async (
  base: string,
  authorizationUrl: URL,
  session: PortalSession,
  answer: { readonly mode?: "test" | "live"; readonly scopes?: ReadonlyArray<string> } = {}
) => {
  const step = await fetch(authorizationUrl, { redirect: "manual" })
  const location = step.headers.get("location") ?? ""
  if (step.status !== 302 || !location.startsWith("/panel/oauth/autorizar?"))
    throw new Error(`authorize: ${step.status} ${location} ${await step.text()}`)
  const solicitud = location.slice("/panel/oauth/autorizar?".length)
  const reply = await call(base, "POST", "/oauth/consentimiento", {
    headers: { cookie: session.cookie, "x-csrf-token": session.csrf },
    body: {
      solicitud,
      aprobar: true,
      mode: answer.mode ?? "test",
      ...(answer.scopes === undefined ? {} : { scopes: answer.scopes })
    }
  })
  if (reply.status !== 200) throw new Error(`consent: ${reply.status} ${JSON.stringify(reply.body)}`)
  const back = new URL(reply.body.redirect_to)
  if (back.searchParams.get("state") !== authorizationUrl.searchParams.get("state")) throw new Error("state")
  if (back.searchParams.get("iss") !== base) throw new Error(`iss ${back.searchParams.get("iss")}`)
  return back.searchParams.get("code") ?? ""
}
