/**
 * The OAuth 2.1 authorization server for MCP clients (issue 34, DESIGN §8). Standard endpoints,
 * kept out of `/openapi.json` (their shapes are the RFCs'):
 *
 * - `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata; the issuer is BASE_URL.
 * - `GET /oauth/authorize`: authorization code with PKCE S256 only; `resource` (RFC 8707) must be
 *   the MCP server's endpoint. A valid request goes on to the portal's consent screen
 *   (`/panel/oauth/autorizar`, same query); errors go back to the client with `iss` (RFC 9207),
 *   or are shown here when the client or its redirect URI is unknown or repeated. No parameter
 *   may come twice, here or in a form body (RFC 6749 §3.1): `state=a&state=b` is
 *   `invalid_request`, never a code without its state.
 * - `GET|POST /oauth/consentimiento`: the consent screen's API, for a portal session (the POST
 *   with its `x-csrf-token`): what is asked, then the user's answer, which yields the redirect.
 * - `POST /oauth/token`: `authorization_code` and `refresh_token` (rotating; reuse revokes).
 * - `POST /oauth/register`: Dynamic Client Registration (RFC 7591), as many per hour per address
 *   as merchant sign-ups (SWITCH_REGISTROS_POR_HORA).
 * - `POST /oauth/revoke` (RFC 7009) and `POST /oauth/introspect` (RFC 7662, the token itself
 *   being the credential: what the MCP server uses to check a token's audience and scopes).
 * - `GET /oauth/concesiones`, `POST /oauth/concesiones/{id}/revocar`: "Aplicaciones conectadas"
 *   for a portal session; revoking is one UPDATE every process reads on the token's next use.
 *
 * Who may grant what: live only for a `propietario` of an approved merchant with its second
 * factor on (as the portal's own live mode asks); `lectura` grants only reading scopes.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type Caller, CSRF_HEADER, type Mode, OAuth, SESSION_COOKIE } from "@switch/api"
import type { RateLimit } from "@switch/core"
import { Effect, Option } from "effect"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { bodyText, json } from "../http/Respond.js"
import { csrfMatches, lookupSession } from "../http/Session.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import * as Clients from "./Clients.js"
import * as Grants from "./Grants.js"

/** Client registrations per hour per address: as many as merchant sign-ups (SWITCH_REGISTROS_POR_HORA, 100). */
const registroPorIp = (limit: number): RateLimit.Policy => ({
  name: "oauth_registro_ip",
  limit,
  windowSeconds: 3600,
  scope: "ip",
  liveOnly: false
})

const CORS = { "access-control-allow-origin": "*" } as const
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const

const corsJson = (body: unknown, status = 200) =>
  HttpServerResponse.unsafeJson(body, { status, headers: { ...CORS, ...NO_STORE } })

const oauthError = (error: string, description: string, status = 400) =>
  corsJson({ error, error_description: description }, status)

const preflight = HttpServerResponse.empty({
  status: 204,
  headers: {
    ...CORS,
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "content-type, authorization, mcp-protocol-version",
    "access-control-max-age": "600"
  }
})

const queryOf = (url: string) => new URL(url, "http://x").searchParams

/** A form (or, leniently, JSON) body as parameters. */
const formBody = Effect.map(
  Effect.orElseSucceed(
    bodyText(() => "too large"),
    () => ""
  ),
  (text): URLSearchParams => {
    const trimmed = text.trim()
    if (trimmed.startsWith("{")) {
      try {
        const parsed = JSON.parse(trimmed) as Record<string, unknown>
        const params = new URLSearchParams()
        for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") params.set(k, v)
        return params
      } catch {
        return new URLSearchParams()
      }
    }
    return new URLSearchParams(trimmed)
  }
)

/** What an authorization request asks, once checked. */
interface Checked {
  readonly client: Clients.Client
  readonly redirectUri: string
  readonly state: string | null
  readonly scopes: ReadonlyArray<OAuth.Scope>
  readonly codeChallenge: string
  readonly resource: string
}

/** Refusals shown at the server (no trustworthy redirect), or sent back to the client. */
type Refusal =
  | { readonly _tag: "Local"; readonly detail: string }
  | {
      readonly _tag: "Redirect"
      readonly redirectUri: string
      readonly state: string | null
      readonly error: string
      readonly detail: string
    }

const single = (params: URLSearchParams, name: string): string | null => {
  const all = params.getAll(name)
  return all.length === 1 ? (all[0] as string) : null
}

/**
 * The first parameter given more than once (RFC 6749 §3.1: none may be), or undefined. Only
 * `resource` may repeat (RFC 8707 §2, a token for several resources); a token here serves one,
 * so more than one is `invalid_target`, as any resource but the MCP server is.
 */
const repeated = (params: URLSearchParams): string | undefined => {
  const seen = new Set<string>()
  for (const name of params.keys()) {
    if (seen.has(name) && name !== "resource") return name
    seen.add(name)
  }
  return undefined
}

/** Names the repeated parameter when it is one of OAuth's (a name is the client's own text). */
const twice = (name: string) =>
  `${/^[a-z_]{1,40}$/.test(name) ? name : "un parámetro"} va más de una vez: cada parámetro va una sola vez.`

export const OAuthRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const sql = yield* SqlClient.SqlClient
    const limiter = yield* RateLimiter
    const issuer = settings.baseUrl
    const allowPrivate = settings.webhookAllowPrivate
    const withSql = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql)

    const redirectWith = (redirectUri: string, params: Record<string, string | null>) => {
      const url = new URL(redirectUri)
      for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v)
      url.searchParams.set("iss", issuer)
      return url.toString()
    }

    /** Checks an authorization request's parameters (RFC 6749 §4.1.1, PKCE, RFC 8707). */
    const check = (params: URLSearchParams) =>
      Effect.gen(function* () {
        const again = repeated(params)
        // Which client, and where to answer it, must be certain before anything goes back to it.
        if (again === "client_id" || again === "redirect_uri")
          return { _tag: "Local", detail: twice(again) } as Refusal
        const clientId = single(params, "client_id")
        if (clientId === null) return { _tag: "Local", detail: "Falta client_id." } as Refusal
        const found = yield* withSql(Clients.find(clientId, allowPrivate))
        if (found instanceof Clients.ClientError)
          return { _tag: "Local", detail: `Cliente no válido: ${found.detail}.` } as Refusal
        const given = single(params, "redirect_uri")
        const redirectUri =
          given ?? (found.redirectUris.length === 1 ? (found.redirectUris[0] as string) : null)
        if (redirectUri === null || !Clients.redirectMatches(found.redirectUris, redirectUri))
          return {
            _tag: "Local",
            detail: "redirect_uri no es uno de los registrados por el cliente."
          } as Refusal
        const state = single(params, "state")
        const back = (error: string, detail: string): Refusal => ({
          _tag: "Redirect",
          redirectUri,
          state,
          error,
          detail
        })
        // A repeated state goes back as none: which one the client meant is unknowable.
        if (again !== undefined) return back("invalid_request", twice(again))
        if (single(params, "response_type") !== "code")
          return back("unsupported_response_type", "Solo se admite response_type=code.")
        const challenge = single(params, "code_challenge")
        if (single(params, "code_challenge_method") !== "S256" || challenge === null)
          return back(
            "invalid_request",
            "PKCE es obligatorio: code_challenge con code_challenge_method=S256."
          )
        if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
          return back("invalid_request", "code_challenge no es un SHA-256 en base64url.")
        const resource = single(params, "resource")
        if (resource !== settings.mcpResource)
          return back("invalid_target", `resource debe ser el servidor MCP: ${settings.mcpResource}.`)
        const scopeParam = single(params, "scope")
        const scopes = scopeParam === null ? OAuth.SCOPES : OAuth.parseScopes(scopeParam)
        if (scopes === undefined || scopes.length === 0)
          return back("invalid_scope", `Alcances válidos: ${OAuth.SCOPES.join(" ")}.`)
        return {
          client: found,
          redirectUri,
          state,
          scopes,
          codeChallenge: challenge,
          resource
        } satisfies Checked
      })

    const isRefusal = (value: Checked | Refusal): value is Refusal => "_tag" in value

    // --- metadata (RFC 8414) -------------------------------------------------------------
    const metadata = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      scopes_supported: OAuth.SCOPES,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      introspection_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: `${issuer}/docs`
    }
    yield* router.get(
      "/.well-known/oauth-authorization-server",
      Effect.succeed(HttpServerResponse.unsafeJson(metadata, { headers: CORS }))
    )
    yield* router.options("/.well-known/oauth-authorization-server", Effect.succeed(preflight))

    // --- authorize ------------------------------------------------------------------------
    yield* router.get(
      "/oauth/authorize",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = queryOf(request.url)
        const checked = yield* check(params)
        if (isRefusal(checked)) {
          if (checked._tag === "Local")
            return HttpServerResponse.text(`No se puede autorizar esta aplicación. ${checked.detail}`, {
              status: 400,
              headers: NO_STORE
            })
          return HttpServerResponse.redirect(
            redirectWith(checked.redirectUri, {
              error: checked.error,
              error_description: checked.detail,
              state: checked.state
            }),
            { status: 302, headers: NO_STORE }
          )
        }
        return HttpServerResponse.redirect(`/panel/oauth/autorizar?${params.toString()}`, {
          status: 302,
          headers: NO_STORE
        })
      })
    )

    // --- the consent screen's API (portal session) --------------------------------------
    const sessionOf = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = request.cookies[SESSION_COOKIE]
      if (token === undefined || token === "") return Option.none<Caller>()
      return yield* withSql(lookupSession(token))
    })

    /** The modes and scopes this user may grant. */
    const allowed = (caller: Caller) =>
      Effect.gen(function* () {
        const user = caller.sesion!
        const rows = yield* sql<{ aprobado: boolean; totp: boolean }>`
          select (c.aprobado_at is not null and c.estado = 'activo') as aprobado,
            u.totp_secreto is not null as totp
          from comercios c join usuarios u on u.comercio_id = c.id
          where c.id = ${caller.comercioId} and u.id = ${user.usuarioId}`
        const row = rows[0]
        const live = user.rol === "propietario" && row?.aprobado === true && row.totp
        const modes: ReadonlyArray<Mode> = live ? ["test", "live"] : ["test"]
        const scopes = user.rol === "lectura" ? OAuth.READ_SCOPES : OAuth.SCOPES
        return { modes, scopes }
      }).pipe(Effect.orDie)

    const unauthorized = json(
      { error: "unauthorized", detail: "Inicia sesión en el panel para continuar." },
      401
    )

    yield* router.get(
      "/oauth/consentimiento",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const session = yield* sessionOf
        if (Option.isNone(session)) return unauthorized
        const checked = yield* check(queryOf(request.url))
        if (isRefusal(checked)) return json({ error: "solicitud_invalida", detail: checked.detail }, 400)
        const may = yield* allowed(session.value)
        return HttpServerResponse.unsafeJson(
          {
            cliente: {
              client_id: checked.client.id,
              nombre: checked.client.nombre,
              origen: checked.client.origen,
              redirect_host: Clients.redirectHost(checked.redirectUri)
            },
            comercio: session.value.codigo,
            usuario: session.value.sesion?.email,
            rol: session.value.sesion?.rol,
            modo_sesion: session.value.mode,
            modos: may.modes,
            alcances: checked.scopes.map((scope) => ({
              alcance: scope,
              descripcion: OAuth.SCOPE_DESCRIPTIONS[scope],
              permitido: may.scopes.includes(scope)
            }))
          },
          { headers: NO_STORE }
        )
      })
    )

    yield* router.post(
      "/oauth/consentimiento",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const session = yield* sessionOf
        if (Option.isNone(session)) return unauthorized
        const caller = session.value
        if (!csrfMatches(request.headers[CSRF_HEADER], caller.sesion!.csrf))
          return json(
            { error: "csrf_invalido", detail: `Falta el encabezado ${CSRF_HEADER} o no coincide.` },
            403
          )
        const text = yield* Effect.orElseSucceed(
          bodyText(() => "too large"),
          () => ""
        )
        let body: { solicitud?: unknown; aprobar?: unknown; mode?: unknown; scopes?: unknown }
        try {
          body = JSON.parse(text) as typeof body
        } catch {
          return json({ error: "validation", detail: "El cuerpo debe ser JSON." }, 400)
        }
        if (typeof body?.solicitud !== "string")
          return json(
            { error: "validation", detail: "Falta solicitud (la consulta de /oauth/authorize)." },
            400
          )
        const checked = yield* check(new URLSearchParams(body.solicitud))
        if (isRefusal(checked)) return json({ error: "solicitud_invalida", detail: checked.detail }, 400)
        if (body.aprobar !== true)
          return json({
            redirect_to: redirectWith(checked.redirectUri, {
              error: "access_denied",
              error_description: "El usuario no autorizó la aplicación.",
              state: checked.state
            })
          })
        const may = yield* allowed(caller)
        const mode = body.mode
        if (mode !== "test" && mode !== "live")
          return json({ error: "validation", detail: "mode debe ser test o live." }, 400)
        if (!may.modes.includes(mode))
          return json(
            {
              error: "rol_no_permitido",
              detail:
                "Solo el propietario de un comercio aprobado, con su segundo factor activo, autoriza el modo live."
            },
            403
          )
        const chosen = Array.isArray(body.scopes) ? body.scopes : checked.scopes
        if (!chosen.every((s): s is OAuth.Scope => typeof s === "string" && OAuth.isScope(s)))
          return json({ error: "validation", detail: "scopes tiene un alcance desconocido." }, 400)
        const scopes = OAuth.SCOPES.filter((s) => chosen.includes(s))
        if (scopes.length === 0 || !scopes.every((s) => checked.scopes.includes(s)))
          return json({ error: "validation", detail: "Elige al menos un alcance de los pedidos." }, 400)
        if (!scopes.every((s) => may.scopes.includes(s)))
          return json(
            { error: "rol_no_permitido", detail: `El rol ${caller.sesion!.rol} no puede otorgar esto.` },
            403
          )
        const code = yield* withSql(
          Grants.issueCode({
            clientId: checked.client.id,
            comercioId: caller.comercioId,
            usuarioId: caller.sesion!.usuarioId,
            mode,
            scopes,
            redirectUri: checked.redirectUri,
            codeChallenge: checked.codeChallenge,
            resource: checked.resource
          })
        )
        return HttpServerResponse.unsafeJson(
          { redirect_to: redirectWith(checked.redirectUri, { code, state: checked.state }) },
          { headers: NO_STORE }
        )
      })
    )

    // --- token -----------------------------------------------------------------------------
    yield* router.options("/oauth/token", Effect.succeed(preflight))
    yield* router.post(
      "/oauth/token",
      Effect.gen(function* () {
        const params = yield* formBody
        const again = repeated(params)
        if (again !== undefined) return oauthError("invalid_request", twice(again))
        const grantType = params.get("grant_type")
        const clientId = params.get("client_id")
        if (clientId === null || clientId === "") return oauthError("invalid_client", "Falta client_id.", 401)
        const resources = params.getAll("resource")
        if (resources.length > 1)
          return oauthError("invalid_target", "Un token sirve a un solo recurso: el servidor MCP.")
        const resource = resources[0]
        if (grantType === "authorization_code") {
          const code = params.get("code")
          const verifier = params.get("code_verifier")
          const redirectUri = params.get("redirect_uri")
          if (code === null || verifier === null || redirectUri === null)
            return oauthError("invalid_request", "Faltan code, code_verifier o redirect_uri.")
          const result = yield* withSql(
            Grants.exchangeCode({ code, clientId, redirectUri, verifier, resource })
          )
          return "error" in result ? oauthError(result.error, result.detail) : corsJson(result)
        }
        if (grantType === "refresh_token") {
          const refreshToken = params.get("refresh_token")
          if (refreshToken === null) return oauthError("invalid_request", "Falta refresh_token.")
          const scopeParam = params.get("scope")
          const scopes = scopeParam === null ? undefined : OAuth.parseScopes(scopeParam)
          if (scopes === undefined && scopeParam !== null)
            return oauthError("invalid_scope", "Alcance desconocido.")
          const result = yield* withSql(Grants.refresh({ refreshToken, clientId, scopes, resource }))
          return "error" in result ? oauthError(result.error, result.detail) : corsJson(result)
        }
        return oauthError("unsupported_grant_type", "Se admiten authorization_code y refresh_token.")
      })
    )

    // --- registration (RFC 7591) ------------------------------------------------------------
    yield* router.options("/oauth/register", Effect.succeed(preflight))
    yield* router.post(
      "/oauth/register",
      Effect.gen(function* () {
        const address = yield* clientIp
        const decision = yield* limiter.hit(registroPorIp(settings.registrosPorHora), address)
        if (!decision.allowed)
          return HttpServerResponse.unsafeJson(
            { error: "too_many_requests", error_description: "Demasiados registros desde esta dirección." },
            { status: 429, headers: { ...CORS, "retry-after": String(decision.retryAfterSeconds) } }
          )
        const text = yield* Effect.orElseSucceed(
          bodyText(() => "too large"),
          () => ""
        )
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return oauthError("invalid_client_metadata", "El cuerpo debe ser JSON.")
        }
        const metadata = Clients.readMetadata(body)
        if (metadata instanceof Clients.ClientError) {
          const uri = metadata.detail.startsWith("redirect_uri")
          return oauthError(uri ? "invalid_redirect_uri" : "invalid_client_metadata", metadata.detail)
        }
        const client = yield* withSql(Clients.register(metadata))
        return corsJson(
          {
            client_id: client.id,
            client_id_issued_at: Math.floor(Date.now() / 1000),
            client_name: client.nombre,
            redirect_uris: client.redirectUris,
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: "none"
          },
          201
        )
      })
    )

    // --- revocation (RFC 7009) and introspection (RFC 7662) -------------------------------
    yield* router.options("/oauth/revoke", Effect.succeed(preflight))
    yield* router.post(
      "/oauth/revoke",
      Effect.gen(function* () {
        const params = yield* formBody
        const again = repeated(params)
        if (again !== undefined) return oauthError("invalid_request", twice(again))
        const token = params.get("token")
        if (token === null || token === "") return oauthError("invalid_request", "Falta token.")
        yield* withSql(Grants.revokeToken(token, params.get("client_id") ?? undefined))
        return corsJson({})
      })
    )
    yield* router.options("/oauth/introspect", Effect.succeed(preflight))
    yield* router.post(
      "/oauth/introspect",
      Effect.gen(function* () {
        const params = yield* formBody
        const again = repeated(params)
        if (again !== undefined) return oauthError("invalid_request", twice(again))
        const token = params.get("token")
        if (token === null || token === "") return corsJson({ active: false })
        return corsJson(yield* withSql(Grants.introspect(token)))
      })
    )

    // --- "Aplicaciones conectadas" (portal session) -------------------------------------------
    yield* router.get(
      "/oauth/concesiones",
      Effect.gen(function* () {
        const session = yield* sessionOf
        if (Option.isNone(session)) return unauthorized
        const caller = session.value
        const own = caller.sesion!.rol === "propietario" ? undefined : caller.sesion!.usuarioId
        const data = yield* withSql(Grants.listGrants(caller.comercioId, own))
        return HttpServerResponse.unsafeJson({ data }, { headers: NO_STORE })
      })
    )
    yield* router.post(
      "/oauth/concesiones/:id/revocar",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const session = yield* sessionOf
        if (Option.isNone(session)) return unauthorized
        const caller = session.value
        if (!csrfMatches(request.headers[CSRF_HEADER], caller.sesion!.csrf))
          return json(
            { error: "csrf_invalido", detail: `Falta el encabezado ${CSRF_HEADER} o no coincide.` },
            403
          )
        const id = new URL(request.url, "http://x").pathname.split("/")[3] ?? ""
        const own = caller.sesion!.rol === "propietario" ? undefined : caller.sesion!.usuarioId
        const done = yield* withSql(Grants.revokeGrant(caller.comercioId, id, own))
        return done
          ? json({ id, revocada: true })
          : json({ error: "not_found", detail: "No existe esa aplicación conectada." }, 404)
      })
    )
  })
)
