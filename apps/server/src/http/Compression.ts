/**
 * Compression of the server's text answers (issue 46, DESIGN §9): brotli or gzip as the client's
 * `Accept-Encoding` allows (q-values honoured, brotli preferred on a tie, identity when neither is
 * accepted), with `Vary: Accept-Encoding` on every answer whose encoding depends on it.
 *
 * - Text only: HTML, CSS, JavaScript, JSON, SVG, plain text; never `text/event-stream` (a
 *   stream's events must reach the client as they happen) nor a body that is a stream.
 * - Over {@link MIN_BYTES} only: a smaller answer gains nothing.
 * - Static files (the portal's build, the payment page's assets) are compressed once, at build
 *   time when their `.br`/`.gz` files sit beside them, else at their first request, at the
 *   best ratio ({@link precompressed}); other answers are compressed as they go, at a fast
 *   brotli level.
 * - Never an answer that carries a key or a secret (BREACH: a secret in a compressed body
 *   beside text an attacker controls leaks through the body's length). Three signals, any of
 *   which keeps an answer as it is: the route it answers is one that carries a secret
 *   ({@link Secretos}: the contract's endpoints whose answer has a secret field, read from the
 *   contract itself, and the routes outside it listed in {@link SECRET_ROUTES_OUTSIDE_CONTRACT}),
 *   matched as routing declares it, never by a pattern on the raw path; the answer was built
 *   by `secretJson` (it carries {@link SECRET_MARK}); or its handler ran `noStore` (it marks
 *   the request, {@link markSecret}).
 */
import { existsSync, readFileSync } from "node:fs"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { Headers, HttpApi, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SwitchApi } from "@switch/api"
import { Effect, FiberRef, type SchemaAST } from "effect"
import * as FindMyWay from "find-my-way-ts"
import { ROUTER_CONFIG } from "./Canonical.js"

/** Answers up to this many bytes go out as they are. */
export const MIN_BYTES = 1024

export type Coding = "br" | "gzip" | "identity"

/**
 * The coding to answer with, from an `Accept-Encoding` header: the accepted coding (q > 0) of
 * highest q among brotli and gzip, brotli on a tie; `*` stands for any coding not named;
 * identity when neither is accepted or the header is absent.
 */
export const negotiate = (header: string | undefined): Coding => {
  if (header === undefined || header.trim() === "") return "identity"
  const q = new Map<string, number>()
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().split(";")
    const coding = name.trim().toLowerCase()
    if (coding === "") continue
    let weight = 1
    for (const param of params) {
      const [key, value] = param.trim().split("=")
      if (key?.trim().toLowerCase() === "q") {
        const parsed = Number(value?.trim())
        weight = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0
      }
    }
    // The first mention of a coding counts.
    if (!q.has(coding)) q.set(coding, weight)
  }
  const any = q.get("*")
  const weightOf = (coding: "br" | "gzip") =>
    q.get(coding) ?? (coding === "gzip" ? q.get("x-gzip") : undefined) ?? any ?? 0
  const br = weightOf("br")
  const gzip = weightOf("gzip")
  if (br <= 0 && gzip <= 0) return "identity"
  return br >= gzip ? "br" : "gzip"
}

/** Whether a content type is text worth compressing (never a stream of events). */
export const compressibleType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  if (type === "text/event-stream") return false
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "application/javascript" ||
    type === "image/svg+xml" ||
    type === "application/xml"
  )
}

const brotliAsync = promisify(zlib.brotliCompress)
const gzipAsync = promisify(zlib.gzip)

const brotliOptions = (quality: number, size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size
  }
})

/** Brotli's level for answers compressed as they go: near gzip's speed, smaller. */
const LIVE_BROTLI = 5
/** Above this, an answer is compressed off the event loop (libuv's pool). */
const SYNC_LIMIT = 64 * 1024

/** `body` in `coding`, as compressed for one answer. */
export const compressLive = (body: Uint8Array, coding: "br" | "gzip"): Effect.Effect<Uint8Array> =>
  body.byteLength <= SYNC_LIMIT
    ? Effect.sync(() =>
        coding === "br"
          ? zlib.brotliCompressSync(body, brotliOptions(LIVE_BROTLI, body.byteLength))
          : zlib.gzipSync(body, { level: 6 })
      )
    : Effect.promise(() =>
        coding === "br"
          ? brotliAsync(body, brotliOptions(LIVE_BROTLI, body.byteLength))
          : gzipAsync(body, { level: 6 })
      )

/** `body` at the best ratio, for a file compressed once (what the build step does too). */
export const compressBest = (body: Uint8Array, coding: "br" | "gzip"): Uint8Array =>
  coding === "br"
    ? zlib.brotliCompressSync(body, brotliOptions(zlib.constants.BROTLI_MAX_QUALITY, body.byteLength))
    : zlib.gzipSync(body, { level: 9 })

/** A static file's compressed forms: given (read from the build) or made at first need. */
interface Forms {
  br?: Uint8Array
  gzip?: Uint8Array
}

const statics = new WeakMap<Uint8Array, Forms>()

/**
 * Declares `body` a static file's bytes, answered by reference every time: its compressed forms
 * are `given` (the build's `.br` and `.gz`), else made once at the best ratio when first asked.
 * Returns `body`, to be answered with `HttpServerResponse.uint8Array`.
 */
export const precompressed = (body: Uint8Array, given: Forms = {}): Uint8Array => {
  statics.set(body, { ...given })
  return body
}

/** A built file's compressed forms: the `.br` and `.gz` the build wrote beside it (scripts/precompress.mjs). */
export const builtForms = (full: string): Forms => ({
  ...(existsSync(`${full}.br`) ? { br: readFileSync(`${full}.br`) } : {}),
  ...(existsSync(`${full}.gz`) ? { gzip: readFileSync(`${full}.gz`) } : {})
})

const staticForm = (body: Uint8Array, coding: "br" | "gzip"): Uint8Array | undefined => {
  const forms = statics.get(body)
  if (forms === undefined) return undefined
  const found = forms[coding]
  if (found !== undefined) return found
  const made = compressBest(body, coding)
  forms[coding] = made
  return made
}

// --- What is never compressed --------------------------------------------------------------

/**
 * Field names that hold a key or a secret in an answer. A field of the contract named like a
 * secret but not one must be in {@link NOT_SECRET_FIELDS} (compression.test.ts checks every
 * name of every answer in the contract against both lists).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "api_key",
  "secret",
  "secreto",
  "flow_secret",
  "monto_secret",
  "app_secret",
  "client_secret",
  "csrf_token",
  "otpauth_uri",
  "qr_svg",
  "codigos_recuperacion",
  "totp_secret",
  "totp_uri",
  "access_token",
  "refresh_token",
  "password",
  "token"
])

/** Names that look like a secret's and are not: an idempotency key, a public key, whether TOTP is on. */
export const NOT_SECRET_FIELDS: ReadonlySet<string> = new Set([
  "idempotency_key",
  "public_key",
  "totp",
  // The address of a link's QR image: public, like the link.
  "qr_png"
])

/** What names a field that could hold a secret; each such name is in one of the two lists above. */
export const LOOKS_SECRET = /secret|secreto|key|llave|token|otp|password|clave|csrf|recuperacion|qr_/i

/** Every property name of an answer's schema, through unions, transformations and arrays. */
export const fieldNames = (ast: SchemaAST.AST, out: Set<string> = new Set(), seen = new Set()) => {
  if (seen.has(ast)) return out
  seen.add(ast)
  switch (ast._tag) {
    case "TypeLiteral":
      for (const p of ast.propertySignatures) {
        out.add(String(p.name))
        fieldNames(p.type, out, seen)
      }
      for (const i of ast.indexSignatures) fieldNames(i.type, out, seen)
      break
    case "Union":
      for (const t of ast.types) fieldNames(t, out, seen)
      break
    case "Transformation":
      fieldNames(ast.from, out, seen)
      fieldNames(ast.to, out, seen)
      break
    case "Refinement":
      fieldNames(ast.from, out, seen)
      break
    case "Suspend":
      fieldNames(ast.f(), out, seen)
      break
    case "TupleType":
      for (const e of ast.elements) fieldNames(e.type, out, seen)
      for (const r of ast.rest) fieldNames(r.type, out, seen)
      break
    default:
      break
  }
  return out
}

/** One route of the contract: its method, its path as routing declares it, its answers' field names. */
export interface ContractRoute {
  readonly method: string
  readonly path: string
  readonly fields: ReadonlySet<string>
}

/** Every endpoint of the public contract with the field names of its successful answers. */
export const contractRoutes = (): ReadonlyArray<ContractRoute> => {
  const routes: Array<ContractRoute> = []
  HttpApi.reflect(SwitchApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, successes }) => {
      const fields = new Set<string>()
      for (const [, success] of successes)
        if (success.ast._tag === "Some") fieldNames(success.ast.value, fields)
      routes.push({ method: endpoint.method, path: endpoint.path, fields })
    }
  })
  return routes
}

/**
 * The routes outside the public contract whose answers carry a key or a secret (their own
 * tests call each): an approval that issues a live key, an operator's creation and sign-in (a
 * TOTP secret, the session's CSRF token), the operator's session (its CSRF token), every OAuth
 * route (tokens, client secrets, codes in redirects, the consent page's form token), and the
 * development mailbox (mails carry sign-in and reset links).
 */
export const SECRET_ROUTES_OUTSIDE_CONTRACT: ReadonlyArray<readonly [method: string, path: string]> = [
  ["POST", "/admin/v1/comercios/:codigo/aprobar"],
  ["POST", "/admin/v1/operadores"],
  ["POST", "/admin/v1/operador/sesion"],
  ["GET", "/admin/v1/operador/sesion"],
  ["GET", "/oauth/authorize"],
  ["GET", "/oauth/consentimiento"],
  ["POST", "/oauth/consentimiento"],
  ["POST", "/oauth/token"],
  ["POST", "/oauth/register"],
  ["POST", "/oauth/revoke"],
  ["POST", "/oauth/introspect"],
  ["GET", "/oauth/concesiones"],
  ["POST", "/oauth/concesiones/:id/revocar"],
  ["GET", "/panel/dev/correos"]
]

/** The contract's routes whose answers carry a secret field. */
export const contractSecretRoutes = (): ReadonlyArray<ContractRoute> =>
  contractRoutes().filter((route) => [...route.fields].some((field) => SECRET_FIELDS.has(field)))

/**
 * Matches a request against the routes that carry a secret, with routing's own matcher and
 * settings. It holds only those routes: any request that routing sends to one of them matches
 * it here too (a route can only lose to a more specific one, and none of the others is here),
 * so a secret's answer is never missed; a request another route answers may match one of them
 * too and stay uncompressed, which costs only bytes.
 */
export const makeSecretRoutes = (
  routes: ReadonlyArray<readonly [method: string, path: string]> = [
    ...contractSecretRoutes().map((r) => [r.method, r.path] as const),
    ...SECRET_ROUTES_OUTSIDE_CONTRACT
  ]
) => {
  const router = FindMyWay.make<true>(ROUTER_CONFIG)
  for (const [method, path] of routes) router.on(method, path as FindMyWay.PathInput, true)
  return (method: string, url: string): boolean =>
    router.find(method, url) !== undefined || (method === "HEAD" && router.find("GET", url) !== undefined)
}

/** The header `secretJson` puts on an answer with a secret; removed before the answer leaves. */
export const SECRET_MARK = "x-switch-secreto"

/** The current request's mark: set by `noStore` (its answer carries a secret). */
export const currentSecret = FiberRef.unsafeMake<{ secret: boolean } | undefined>(undefined)

/** Marks the current request's answer as carrying a secret: it is never compressed. */
export const markSecret: Effect.Effect<void> = Effect.flatMap(FiberRef.get(currentSecret), (mark) =>
  Effect.sync(() => {
    if (mark !== undefined) mark.secret = true
  })
)

const addVary = (response: HttpServerResponse.HttpServerResponse) => {
  const vary = response.headers.vary
  if (vary === undefined || vary === "")
    return HttpServerResponse.setHeader(response, "vary", "Accept-Encoding")
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return response
  return HttpServerResponse.setHeader(response, "vary", `${vary}, Accept-Encoding`)
}

/** `response` without {@link SECRET_MARK} (only `secretJson`'s answers, bytes, carry it). */
const unmarked = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Uint8Array"
    ? HttpServerResponse.uint8Array(response.body.body, {
        status: response.status,
        statusText: response.statusText,
        headers: Headers.remove(response.headers, SECRET_MARK),
        cookies: response.cookies,
        contentType: response.body.contentType
      })
    : response

/**
 * `response` to `request`, compressed when it may and should be. `secret`: whether the request
 * went to a route with a secret or its handler marked it.
 */
export const compress = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  secret: boolean
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const marked = response.headers[SECRET_MARK] !== undefined
  if (marked || secret) return Effect.succeed(marked ? unmarked(response) : response)
  const out = response
  const body = out.body
  if (body._tag !== "Uint8Array" || !compressibleType(body.contentType)) return Effect.succeed(out)
  if (out.headers["content-encoding"] !== undefined || request.method === "HEAD") return Effect.succeed(out)
  const varied = addVary(out)
  if (body.body.byteLength <= MIN_BYTES) return Effect.succeed(varied)
  const coding = negotiate(request.headers["accept-encoding"])
  if (coding === "identity") return Effect.succeed(varied)
  const ready = staticForm(body.body, coding)
  const encoded = ready === undefined ? compressLive(body.body, coding) : Effect.succeed(ready)
  return Effect.map(encoded, (bytes) =>
    HttpServerResponse.setHeader(
      HttpServerResponse.uint8Array(bytes, {
        status: varied.status,
        statusText: varied.statusText,
        headers: varied.headers,
        cookies: varied.cookies,
        contentType: body.contentType
      }),
      "content-encoding",
      coding
    )
  )
}
