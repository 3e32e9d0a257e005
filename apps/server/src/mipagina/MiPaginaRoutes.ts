/**
 * The merchant's own payment page, outside the API's contract (like the links' page `/l/:id`):
 *
 * - `GET /p/:codigo`: the form where the payer types the amount (and a concept when allowed);
 *   an unknown code, a page that is off or a suspended merchant is a 404 page.
 * - `POST /p/:codigo` (the form, `application/x-www-form-urlencoded`): checks what was typed
 *   (core's `MiPagina.decodeEntrada`), counts the creation per client address and per merchant,
 *   makes a link with `origen` `mi_pagina` in the page's mode and answers `303` to its payment
 *   page `/l/<id>`, where the payer pays as on any link. A refusal shows the form again with
 *   its errors (`400`) or the wait (`429` with `Retry-After`).
 * - `GET /p/:codigo/qr.png`: the QR code of the page's address, for the counter (drawn for any
 *   merchant's code, the page on or off: the owner prints it first).
 *
 * No key is ever in the page. The page has no script; a random `sw_pagina` cookie (HttpOnly,
 * SameSite=Strict) and its HMAC in a hidden field keep another site's form from posting it.
 * The same CSP and headers as the links' page.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { MiPagina } from "@switch/core"
import { Effect, Redacted } from "effect"
import QRCode from "qrcode"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { precompressed } from "../http/Compression.js"
import { json } from "../http/Respond.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { searchable } from "../platform/LinkText.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { PgPool } from "../platform/Sql.js"
import { byCodigo, type Pagina, paginaUrl } from "./MiPaginaStore.js"
import { css, esperaAviso, notFoundPage, renderForm } from "./PaginaHtml.js"

const hash10 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10)

export const ASSETS = { css: `/static/mipagina-${hash10(css)}.css` as const }

/** The links' page's policy (checkout/CheckoutRoutes.ts): nothing but this origin's own files. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
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

const COOKIE = "sw_pagina"
const CODIGO = /^[a-z0-9_-]{3,32}$/

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...pageHeaders, ...headers }
  })

export const MiPaginaRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const sql = yield* SqlClient.SqlClient
    const limiter = yield* RateLimiter
    const insert = LinksRepo.makeLinkInsert(yield* PgPool)
    const secure = settings.baseUrl.startsWith("https://")
    const tokenFor = (nonce: string) =>
      createHmac("sha256", `${Redacted.value(settings.secret)}:mi_pagina`)
        .update(nonce)
        .digest("base64url")

    /** The page of the path's code when it takes payments: active, of a merchant not suspended. */
    const openPage = Effect.gen(function* () {
      const codigo = (yield* HttpRouter.params).codigo ?? ""
      if (!CODIGO.test(codigo)) return undefined
      const pagina = yield* Effect.provideService(byCodigo(codigo), SqlClient.SqlClient, sql)
      return pagina?.activa && !pagina.suspendido ? pagina : undefined
    })

    const notFound = html(notFoundPage(ASSETS), 404)

    /** The form with a CSRF token: the cookie's nonce, or a new one set with it. */
    const form = (pagina: Pagina, status: number, options: Parameters<typeof renderForm>[3] = {}) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const existing = request.cookies[COOKIE]
        const nonce =
          existing !== undefined && /^[\w-]{20,64}$/.test(existing)
            ? existing
            : randomBytes(18).toString("base64url")
        const cookie = `${COOKIE}=${nonce}; Path=/p/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`
        return html(
          renderForm(pagina, tokenFor(nonce), ASSETS, options),
          status,
          existing === nonce ? {} : { "set-cookie": cookie }
        )
      })

    yield* router.get(
      ASSETS.css,
      Effect.succeed(
        // Its bytes compressed once, at the first request (http/Compression.ts).
        HttpServerResponse.uint8Array(precompressed(new TextEncoder().encode(css)), {
          contentType: "text/css; charset=utf-8",
          headers: {
            "cache-control": "public, max-age=31536000, immutable",
            "x-content-type-options": "nosniff"
          }
        })
      )
    )

    yield* router.get(
      "/p/:codigo",
      Effect.gen(function* () {
        const pagina = yield* openPage
        return pagina === undefined ? notFound : yield* form(pagina, 200)
      })
    )

    yield* router.post(
      "/p/:codigo",
      Effect.gen(function* () {
        const pagina = yield* openPage
        if (pagina === undefined) return notFound
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = yield* Effect.orElseSucceed(
          request.urlParamsBody,
          () => [] as ReadonlyArray<[string, string]>
        )
        const field = (name: string) => {
          const found = params.find(([k]) => k === name)
          return found === undefined ? "" : found[1]
        }
        const typed = { monto: field("monto").slice(0, 40), concepto: field("concepto").slice(0, 400) }
        const nonce = request.cookies[COOKIE] ?? ""
        const given = Buffer.from(field("csrf"))
        const expected = Buffer.from(tokenFor(nonce))
        if (nonce === "" || given.length !== expected.length || !timingSafeEqual(given, expected))
          return yield* form(pagina, 403, {
            typed,
            aviso: "La página venció. Revisa el monto y vuelve a intentarlo."
          })
        const decoded = MiPagina.decodeEntrada(typed, pagina)
        if (decoded._tag === "Left") return yield* form(pagina, 400, { typed, errors: decoded.left })
        const pago = decoded.right
        // Counted only once what was typed is valid: a payer's typo costs nothing.
        const ip = yield* clientIp
        for (const [policy, subject] of [
          [MiPagina.CREAR_POR_IP, ip],
          [MiPagina.CREAR_POR_COMERCIO, pagina.comercioId]
        ] as const) {
          const decision = yield* limiter.hit(policy, subject)
          if (!decision.allowed) {
            const response = yield* form(pagina, 429, {
              typed,
              aviso: esperaAviso(decision.retryAfterSeconds)
            })
            return HttpServerResponse.setHeader(response, "retry-after", String(decision.retryAfterSeconds))
          }
        }
        const at = new Date()
        const id = crypto.randomUUID()
        const concepto = MiPagina.conceptoDelLink(pago, pagina.nombre)
        const stored = yield* Effect.promise(() =>
          insert({
            id,
            comercioId: pagina.comercioId,
            mode: pagina.mode,
            monto: pago.monto,
            concepto,
            expiresAt: new Date(at.getTime() + MiPagina.EXPIRA_HORAS * 3_600_000),
            successUrl: null,
            failureUrl: null,
            metadata: "{}",
            idempotencyKey: null,
            split: null,
            busqueda: searchable(concepto),
            createdAt: at,
            origen: "mi_pagina"
          })
        )
        // Not inserted: the merchant was suspended meanwhile.
        if (stored === undefined) return notFound
        return HttpServerResponse.empty({
          status: 303,
          headers: { location: `/l/${id}`, "cache-control": "no-store" }
        })
      })
    )

    yield* router.get(
      "/p/:codigo/qr.png",
      Effect.gen(function* () {
        // The code names the page whatever its state: the owner prints it before turning it on.
        const codigo = (yield* HttpRouter.params).codigo ?? ""
        const pagina = CODIGO.test(codigo)
          ? yield* Effect.provideService(byCodigo(codigo), SqlClient.SqlClient, sql)
          : undefined
        if (pagina === undefined)
          return HttpServerResponse.setHeader(json({ error: "not_found" }, 404), "cache-control", "no-store")
        const png = yield* Effect.promise(() =>
          QRCode.toBuffer(paginaUrl(settings.baseUrl, pagina.codigo), {
            type: "png",
            errorCorrectionLevel: "M",
            margin: 4,
            scale: 8
          })
        )
        return HttpServerResponse.uint8Array(png, {
          contentType: "image/png",
          headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" }
        })
      })
    )
  })
)
