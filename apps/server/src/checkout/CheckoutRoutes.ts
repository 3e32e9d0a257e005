/**
 * The payment page's routes, beside the public HttpApi (so not in /openapi.json):
 * `GET /l/:id` (HTML, with its script and stylesheet inline, allowed by their hashes in the CSP),
 * `GET /l/:id/estado`, `POST /l/:id/codigo`, `POST /l/:id/pagar`, and the same script and
 * stylesheet under content-hashed paths, cached for a year (for pages that link them).
 *
 * CSRF: the page sets a random `sw_csrf` cookie (HttpOnly, SameSite=Strict) and prints an HMAC
 * of it in a meta tag; every POST must send that HMAC in `x-csrf`. A cross-site form cannot set
 * the header and a cross-site script cannot read the page. No payer data in any URL.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type CardProcessorUnavailable, PageForbidden } from "@switch/api"
import { Effect, Either, Redacted } from "effect"
import { Settings } from "../Config.js"
import { byOwnClass } from "../http/ApiErrors.js"
import { clientIp } from "../http/Auth.js"
import { precompressed } from "../http/Compression.js"
import { json, jsonBody } from "../http/Respond.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { OPENED_FROM } from "../platform/LinkText.js"
import { isUuid } from "../platform/Uuid.js"
import { js } from "./assets/script.js"
import { css } from "./assets/style.js"
import { Checkout } from "./CheckoutService.js"
import type { PageError } from "./Model.js"
import { notFoundPage, renderPage } from "./Page.js"
import { Tarjeta } from "./TarjetaService.js"

const hash8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10)

/** Public paths of the page's assets; the hash changes whenever the content does. */
export const ASSETS = {
  js: `/static/checkout-${hash8(js)}.js` as const,
  css: `/static/checkout-${hash8(css)}.css` as const
}

/** A CSP source that allows exactly `text` inline. */
const hashSource = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/** The page's script and stylesheet as it inlines them. */
export const INLINE = { js, css } as const

export const CSP = [
  "default-src 'none'",
  `script-src 'self' ${hashSource(js)}`,
  `style-src 'self' ${hashSource(css)}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

const pageHeaders = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

/** A static asset: its bytes compressed once (http/Compression.ts), cached for a year. */
const asset = (text: string, contentType: string) => {
  const body = precompressed(new TextEncoder().encode(text))
  return HttpServerResponse.uint8Array(body, {
    contentType,
    headers: { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" }
  })
}

const COOKIE = "sw_csrf"

export const CheckoutRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const checkout = yield* Checkout
    const tarjeta = yield* Tarjeta
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const secure = settings.baseUrl.startsWith("https://")
    const tokenFor = (nonce: string) =>
      createHmac("sha256", `${Redacted.value(settings.secret)}:csrf`)
        .update(nonce)
        .digest("base64url")

    const linkId = Effect.map(HttpRouter.params, (p) => p.id ?? "")

    /** A refusal by its error class; one that says when to come back sends `Retry-After` too. */
    const failure = (e: PageError | CardProcessorUnavailable) => {
      const response = byOwnClass(e)
      return "reintentar_en" in e && e.reintentar_en !== undefined
        ? HttpServerResponse.setHeader(response, "retry-after", String(e.reintentar_en))
        : response
    }

    /**
     * Hands the body, as JSON, to `handle`; a body that is not JSON, is over 10 MB or was cut
     * off is answered `400 validation` as the API answers it, and nothing else runs.
     */
    const withBody = <R>(
      handle: (body: unknown) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
    ) =>
      Effect.flatMap(
        Effect.either(jsonBody),
        Either.match({ onLeft: (e) => Effect.succeed(byOwnClass(e)), onRight: handle })
      )

    /** Runs a POST handler only when `x-csrf` matches the cookie's token. */
    const guarded = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const nonce = request.cookies[COOKIE] ?? ""
        const given = Buffer.from(request.headers["x-csrf"] ?? "")
        const expected = Buffer.from(tokenFor(nonce))
        if (nonce === "" || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return byOwnClass(
            new PageForbidden({ error: "csrf", detail: "La página venció. Recárgala e intenta de nuevo." })
          )
        }
        return yield* handler
      })

    yield* router.get(ASSETS.js, Effect.succeed(asset(js, "text/javascript; charset=utf-8")))
    yield* router.get(ASSETS.css, Effect.succeed(asset(css, "text/css; charset=utf-8")))

    yield* router.get(
      "/l/:id",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const id = yield* linkId
        // Opened from the pay button or the WhatsApp share link: the link's origen says so.
        const from = new URL(request.url, "http://pagina").searchParams.get("origen")
        const opened = OPENED_FROM.find((o) => o === from)
        if (opened !== undefined && isUuid(id))
          yield* LinksRepo.markOpenedFrom(id.toLowerCase(), opened).pipe(
            Effect.provideService(SqlClient.SqlClient, sql),
            Effect.catchAllCause((cause) => Effect.logWarning("origen not recorded", cause))
          )
        const model = yield* Effect.either(checkout.page(id))
        if (model._tag === "Left") {
          return HttpServerResponse.text(notFoundPage(INLINE), {
            status: 404,
            contentType: "text/html; charset=utf-8",
            headers: pageHeaders
          })
        }
        const existing = request.cookies[COOKIE]
        const nonce =
          existing !== undefined && /^[\w-]{20,64}$/.test(existing)
            ? existing
            : randomBytes(18).toString("base64url")
        const cookie = `${COOKIE}=${nonce}; Path=/l/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`
        return HttpServerResponse.text(renderPage(model.right, tokenFor(nonce), INLINE), {
          contentType: "text/html; charset=utf-8",
          headers: { ...pageHeaders, ...(existing === nonce ? {} : { "set-cookie": cookie }) }
        })
      })
    )

    yield* router.get(
      "/l/:id/estado",
      Effect.gen(function* () {
        const id = yield* linkId
        return yield* checkout.status(id).pipe(
          Effect.map((s) => HttpServerResponse.setHeader(json(s), "cache-control", "no-store")),
          Effect.catchAll((e) => Effect.succeed(failure(e)))
        )
      })
    )

    yield* router.post(
      "/l/:id/codigo",
      guarded(
        Effect.gen(function* () {
          const id = yield* linkId
          const ip = yield* clientIp
          return yield* withBody((body) =>
            checkout.requestCode(id, body, ip).pipe(
              Effect.map((r) => json(r)),
              Effect.catchAll((e) => Effect.succeed(failure(e)))
            )
          )
        })
      )
    )

    // The card pilot: open the processor's form, come back from it, pay another way.
    yield* router.post(
      "/l/:id/tarjeta",
      guarded(
        Effect.gen(function* () {
          const id = yield* linkId
          return yield* withBody((body) =>
            tarjeta.open(id, body).pipe(
              Effect.map((r) => json(r)),
              Effect.catchAll((e) => Effect.succeed(failure(e)))
            )
          )
        })
      )
    )
    yield* router.get(
      "/l/:id/tarjeta",
      Effect.gen(function* () {
        const id = yield* linkId
        yield* tarjeta.returned(id)
        return HttpServerResponse.empty({
          status: 303,
          headers: { location: `/l/${encodeURIComponent(id)}`, "cache-control": "no-store" }
        })
      })
    )
    yield* router.post(
      "/l/:id/tarjeta/otra-forma",
      guarded(
        Effect.gen(function* () {
          const id = yield* linkId
          return yield* tarjeta.otherWay(id).pipe(
            Effect.map((r) => json(r)),
            Effect.catchAll((e) => Effect.succeed(failure(e)))
          )
        })
      )
    )

    yield* router.post(
      "/l/:id/pagar",
      guarded(
        Effect.gen(function* () {
          const id = yield* linkId
          return yield* withBody((body) =>
            checkout.pay(id, body).pipe(
              Effect.map((r) => json(r)),
              Effect.catchAll((e) => Effect.succeed(failure(e)))
            )
          )
        })
      )
    )
  })
)
