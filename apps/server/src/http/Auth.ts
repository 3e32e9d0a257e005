/**
 * The `x-switch-key` middleware: finds the key by its hash, checks the merchant code matches,
 * counts the merchant's request (120 per minute, both modes) and provides the caller.
 * Requests without a valid key are counted per IP, never against a merchant.
 *
 * A request without the header but with the portal's session cookie is a session request
 * (Session.ts): the session must be live and an unsafe method must carry its CSRF token in
 * `x-csrf-token`; then it counts against its merchant as a key would. Without either, an
 * `Authorization: Bearer` access token of the MCP sign-in (Bearer.ts). One middleware serves
 * all three, so a key always wins and a refused session is answered as refused, not as a
 * missing key.
 *
 * Who may call is the grant of the endpoint routing matched (`Permisos` in @switch/api, an
 * allow-list beside each endpoint), looked up by the route's declared method and path, never
 * by the request's own spelling of it: a key of a mode the grant leaves out, a role it leaves
 * out, a token without its scope, are refused; an endpoint without a grant refuses everyone.
 */
import { HttpApp, HttpRouter, HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import {
  Authentication,
  type Caller,
  CSRF_HEADER,
  Forbidden,
  OAuth,
  Permisos,
  SESSION_COOKIE,
  SwitchApi,
  TooManyRequests,
  Unauthorized
} from "@switch/api"
import { RateLimit } from "@switch/core"
import { Effect, FiberRef, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import { recordActivity } from "../platform/Activity.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { lookupAccessToken } from "./Bearer.js"
import { KeyCache } from "./KeyCache.js"
import * as Keys from "./Keys.js"
import { currentRequestId } from "./Middleware.js"
import { LOGS_PATH, pathOf, RequestLog } from "./RequestLog.js"
import { csrfMatches, lookupSession } from "./Session.js"

/** The client's address: the socket's, or the one trusted proxies forwarded (ClientAddress.ts). */
export const clientIp = HttpServerRequest.HttpServerRequest.pipe(
  Effect.map((request) => Option.getOrElse(request.remoteAddress, () => "desconocida"))
)

export const tooMany = (retryAfterSeconds: number) =>
  new TooManyRequests({
    detail: `Demasiadas solicitudes. Intenta de nuevo en ${retryAfterSeconds} s.`,
    reintentar_en: retryAfterSeconds
  })

const own = (entry: { readonly codigo: string; readonly caller: Caller }, codigo: string, mode: string) =>
  entry.codigo === codigo && entry.caller.mode === mode ? Option.some(entry.caller) : Option.none<Caller>()

/** A header's key, parsed and hashed once; none when malformed. */
const parseKey = (header: string) =>
  Option.map(Keys.parseHeader(header), (parsed) => ({ ...parsed, hash: Keys.hash(parsed.key) }))

/** A parsed key's caller as this process's cache holds it; `undefined` when it is not cached. */
const fromCache = (
  cache: KeyCache["Type"],
  key: { readonly codigo: string; readonly mode: string; readonly hash: string },
  now: number
) => {
  const cached = cache.get(key.hash, now)
  return cached === undefined ? undefined : own(cached, key.codigo, key.mode)
}

/**
 * The key lookup: a header's caller (the process's cache first); none when unknown, revoked,
 * past the overlap of its roll, or of another merchant. A cached key needs no I/O.
 */
export const makeLookupCaller = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cache = yield* KeyCache
  return (header: string): Effect.Effect<Option.Option<Caller>> => {
    const parsed = parseKey(header)
    if (Option.isNone(parsed)) return Effect.succeed(Option.none())
    const { codigo, mode, hash } = parsed.value
    const now = Date.now()
    const cached = fromCache(cache, parsed.value, now)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.map(
      sql<{ llave_id: string; comercio_id: string; codigo: string; expira_at: Date | null }>`
        select l.id as llave_id, c.id as comercio_id, c.codigo, l.expira_at
        from llaves l join comercios c on c.id = l.comercio_id
        where l.hash = ${hash} and l.revoked_at is null and l.mode = ${mode}
          and (l.expira_at is null or l.expira_at > now())`,
      (rows) => {
        const row = rows[0]
        if (row === undefined) return Option.none<Caller>()
        const caller: Caller = {
          comercioId: row.comercio_id,
          codigo: row.codigo,
          mode,
          llaveId: row.llave_id
        }
        // A rolled key is cached no longer than it works.
        cache.put(hash, caller, now, row.expira_at === null ? undefined : row.expira_at.getTime())
        return own({ codigo: row.codigo, caller }, codigo, mode)
      }
    ).pipe(Effect.orDie)
  }
})

/** The API's limits: per merchant for a valid key, per address without one. */
const apiLimits = (settings: Settings["Type"]) => {
  const perMerchant: RateLimit.Policy = { ...RateLimit.API, limit: settings.apiPorMinuto }
  const perIp: RateLimit.Policy = { ...perMerchant, name: "api_ip", scope: "ip" }
  return { perMerchant, perIp }
}

/** The key check of {@link makeAuthenticate}. */
export type Authenticate = <R>(
  header: string,
  ip: Effect.Effect<string, never, R>
) => Effect.Effect<Caller, Unauthorized | TooManyRequests, R>

/**
 * The key check for one request: the caller of a valid key within its merchant's limit;
 * otherwise `401`, or `429` once the merchant (or, without a valid key, the address) is over
 * its limit. Shared by the HttpApi middleware and link creation's lane (links/CreateLink.ts).
 * A cached key whose merchant's count this process holds needs no I/O.
 */
export const makeAuthenticate = Effect.gen(function* () {
  const lookupCaller = yield* makeLookupCaller
  const limiter = yield* RateLimiter
  const { perMerchant, perIp } = apiLimits(yield* Settings)
  const authenticate: Authenticate = (header, ip) =>
    Effect.flatMap(lookupCaller(header), (caller) =>
      Option.isNone(caller)
        ? Effect.flatMap(ip, (address) =>
            Effect.flatMap(limiter.hit(perIp, address), (decision) =>
              Effect.fail(
                decision.allowed
                  ? new Unauthorized({ detail: "Falta la llave x-switch-key, es inválida o fue revocada." })
                  : tooMany(decision.retryAfterSeconds)
              )
            )
          )
        : Effect.flatMap(limiter.hit(perMerchant, caller.value.comercioId), (decision) =>
            decision.allowed ? Effect.succeed(caller.value) : Effect.fail(tooMany(decision.retryAfterSeconds))
          )
    )
  return authenticate
})

/**
 * The common case of {@link keyAgainst} over {@link makeAuthenticate}, decided with no I/O and
 * no fiber: the caller of a cached key that the route's grant admits, counted from what this
 * process holds of its merchant's window. `undefined` (nothing counted) for everything else: a
 * key to look up, a count to claim, any refusal; the effect decides those, with the same rules.
 * Link creation's lane (links/CreateLink.ts) tries it first: a fiber per request cost about 5 µs
 * of CPU per link.
 */
export const makeCachedKeyCheck = Effect.gen(function* () {
  const cache = yield* KeyCache
  const limiter = yield* RateLimiter
  const { perMerchant } = apiLimits(yield* Settings)
  return (header: string, permiso: Permisos.Permiso): Caller | undefined => {
    if (permiso.llave.length === 0) return undefined
    const parsed = parseKey(header)
    if (Option.isNone(parsed)) return undefined
    const caller = fromCache(cache, parsed.value, Date.now())
    if (caller === undefined || Option.isNone(caller)) return undefined
    if (Permisos.rechazo(permiso, { _tag: "Llave", modo: caller.value.mode }) !== undefined) return undefined
    return limiter.tryHit(perMerchant, caller.value.comercioId) ? caller.value : undefined
  }
})

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * The session check for one request carrying the session cookie `token`: the caller of a live
 * session whose CSRF token (on unsafe methods) and role fit the request, within its merchant's
 * limit; otherwise `401` (no such session, counted per address), `403` or `429`.
 */
export const makeSessionCheck = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const limiter = yield* RateLimiter
  const settings = yield* Settings
  const perMerchant: RateLimit.Policy = { ...RateLimit.API, limit: settings.apiPorMinuto }
  const perIp: RateLimit.Policy = { ...perMerchant, name: "api_ip", scope: "ip" }
  return (request: HttpServerRequest.HttpServerRequest, token: string, permiso: Permisos.Permiso) =>
    Effect.gen(function* () {
      const found = yield* Effect.provideService(lookupSession(token), SqlClient.SqlClient, sql)
      if (Option.isNone(found)) {
        const address = Option.getOrElse(request.remoteAddress, () => "desconocida")
        const decision = yield* limiter.hit(perIp, address)
        return yield* Effect.fail(
          decision.allowed
            ? new Unauthorized({ detail: "La sesión expiró o fue cerrada: inicia sesión de nuevo." })
            : tooMany(decision.retryAfterSeconds)
        )
      }
      const caller = found.value
      const user = caller.sesion!
      // The audit log: every unsafe request of a session, refused ones included, with its result.
      if (!SAFE_METHODS.has(request.method)) {
        const entry = {
          comercioId: caller.comercioId,
          usuarioId: user.usuarioId,
          email: user.email,
          accion: request.method,
          objeto: pathOf(request.url),
          ip: Option.getOrElse(request.remoteAddress, () => "desconocida")
        }
        yield* HttpApp.appendPreResponseHandler((_, response) =>
          Effect.as(
            Effect.provideService(
              recordActivity({ ...entry, resultado: response.status }),
              SqlClient.SqlClient,
              sql
            ),
            response
          )
        )
      }
      if (!SAFE_METHODS.has(request.method) && !csrfMatches(request.headers[CSRF_HEADER], user.csrf))
        return yield* Effect.fail(
          new Forbidden({
            error: "csrf_invalido",
            detail: `Falta el encabezado ${CSRF_HEADER} de la sesión o no coincide.`
          })
        )
      const refusal = Permisos.rechazo(permiso, { _tag: "Sesion", rol: user.rol })
      if (refusal !== undefined)
        return yield* Effect.fail(
          refusal._tag === "SoloLlave"
            ? new Forbidden({
                error: "solo_llave",
                detail: "Esta ruta se usa solo con una llave x-switch-key."
              })
            : new Forbidden({ error: "rol_no_permitido", detail: `El rol ${user.rol} no puede hacer esto.` })
        )
      const decision = yield* limiter.hit(perMerchant, caller.comercioId)
      return decision.allowed ? caller : yield* Effect.fail(tooMany(decision.retryAfterSeconds))
    })
})

/**
 * The OAuth access token check (Bearer.ts) for one request: the caller of a live token whose
 * audience is the MCP server and whose scopes open the route, within its merchant's limit;
 * otherwise `401` (counted per address), `403 insufficient_scope` or `429`.
 */
export const makeBearerCheck = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const limiter = yield* RateLimiter
  const settings = yield* Settings
  const perMerchant: RateLimit.Policy = { ...RateLimit.API, limit: settings.apiPorMinuto }
  const perIp: RateLimit.Policy = { ...perMerchant, name: "api_ip", scope: "ip" }
  return (request: HttpServerRequest.HttpServerRequest, token: string, permiso: Permisos.Permiso) =>
    Effect.gen(function* () {
      const found = yield* Effect.provideService(lookupAccessToken(token), SqlClient.SqlClient, sql)
      if (Option.isNone(found) || found.value.resource !== settings.mcpResource) {
        const address = Option.getOrElse(request.remoteAddress, () => "desconocida")
        const decision = yield* limiter.hit(perIp, address)
        return yield* Effect.fail(
          decision.allowed
            ? new Unauthorized({ detail: "El token de acceso es inválido, expiró o fue revocado." })
            : tooMany(decision.retryAfterSeconds)
        )
      }
      const grant = found.value
      if (Permisos.rechazo(permiso, { _tag: "Token", alcances: grant.scopes }) !== undefined)
        return yield* Effect.fail(
          new Forbidden({
            error: "insufficient_scope",
            detail:
              permiso.alcance === null
                ? "Un token de acceso de una aplicación conectada no puede usar esta ruta."
                : `El token de acceso no tiene el alcance ${permiso.alcance}.`
          })
        )
      const decision = yield* limiter.hit(perMerchant, grant.caller.comercioId)
      return decision.allowed ? grant.caller : yield* Effect.fail(tooMany(decision.retryAfterSeconds))
    })
})

/**
 * Once the caller is known, its request goes into the merchant's request log when answered,
 * whatever the answer (a handler's error included). Reading the log is not logged: a tail that
 * polls it would otherwise fill it with itself.
 */
const logWhenAnswered = (log: RequestLog["Type"], caller: Caller, ruta: string) =>
  Effect.flatMap(
    Effect.zip(HttpServerRequest.HttpServerRequest, FiberRef.get(currentRequestId)),
    ([request, requestId]) => {
      if (ruta === LOGS_PATH) return Effect.void
      const started = Date.now()
      return HttpApp.appendPreResponseHandler((_, response) =>
        Effect.sync(() => {
          log.record({
            caller,
            method: request.method,
            url: request.url,
            status: response.status,
            durationMs: Date.now() - started,
            requestId,
            at: started
          })
          return response
        })
      )
    }
  )

/**
 * The key check against an endpoint's grant: a key on an endpoint no key reaches is `401` before
 * the key is even read (the portal's routes take a session); a valid key of a mode the grant
 * leaves out is `403 requiere_llave_live`.
 */
export const keyAgainst = <R>(
  check: (key: string) => Effect.Effect<Caller, Unauthorized | TooManyRequests, R>,
  key: string,
  permiso: Permisos.Permiso
): Effect.Effect<Caller, Unauthorized | TooManyRequests | Forbidden, R> => {
  if (permiso.llave.length === 0)
    return Effect.fail(
      new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." })
    )
  return Effect.flatMap(check(key), (caller) =>
    Permisos.rechazo(permiso, { _tag: "Llave", modo: caller.mode }) === undefined
      ? Effect.succeed(caller)
      : Effect.fail(
          new Forbidden({ error: "requiere_llave_live", detail: "Esta ruta requiere una llave live." })
        )
  )
}

/**
 * A key sent as a bearer token (`Authorization: Bearer demo:sk_test_...`, or the secret alone):
 * refused without a look-up, with where keys go, since `Bearer` is for connected apps' tokens.
 */
const KEY_AS_BEARER = /^Bearer\s+(?:[^\s:]+:)?sk_(?:test|live)_/i

const keyAsBearer = new Unauthorized({
  detail:
    "Las llaves van en el encabezado x-switch-key (x-switch-key: <comercio>:sk_...), no en Authorization: Bearer, que es para los tokens de acceso de las aplicaciones conectadas."
})

/** Every endpoint's grant, by its route's method and declared path (`Permisos.claveRuta`). */
export const permisos: ReadonlyMap<string, Permisos.Permiso> = Permisos.indice(Permisos.tabla(SwitchApi))

/** The grant of the route `method path` as routing declares it; none: nobody may call it. */
export const permisoDe = (method: string, path: string): Permisos.Permiso =>
  permisos.get(Permisos.claveRuta(method, path)) ?? Permisos.NADIE

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const authenticate = yield* makeAuthenticate
    const session = yield* makeSessionCheck
    const bearer = yield* makeBearerCheck
    const log = yield* RequestLog
    return {
      "x-switch-key": (header: Redacted.Redacted) =>
        Effect.flatMap(
          Effect.zip(HttpServerRequest.HttpServerRequest, HttpRouter.RouteContext),
          ([request, { route }]) => {
            const permiso = permisoDe(route.method, route.path)
            const key = Redacted.value(header)
            const token = request.cookies[SESSION_COOKIE]
            const access = key === "" ? OAuth.BEARER.exec(request.headers.authorization ?? "") : null
            const caller =
              key === "" && token !== undefined && token !== ""
                ? session(request, token, permiso)
                : key === "" && KEY_AS_BEARER.test(request.headers.authorization ?? "")
                  ? Effect.fail(keyAsBearer)
                  : access?.[1] !== undefined
                    ? bearer(request, access[1], permiso)
                    : keyAgainst((given) => authenticate(given, clientIp), key, permiso)
            return Effect.tap(caller, (found) => logWhenAnswered(log, found, route.path))
          }
        )
    }
  })
)
