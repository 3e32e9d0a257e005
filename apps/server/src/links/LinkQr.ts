/**
 * `GET /l/:id/qr.png` (public, like the page): the QR code of a link's URL, `{base_url}/l/<id>`,
 * as a PNG drawn by `qrcode`. A link's `qr_png` is this route's URL (LinkView.ts).
 *
 * Creating a link draws nothing: most links' codes are never looked at, and a list of links
 * carrying their images as data URLs weighed about 2.4 KB a link. The code is drawn on its first
 * request instead and kept in a bounded in-process cache. A link's URL never changes (nor does a
 * process's base URL), so the image is immutable: it is served for a year's caching with an
 * ETag of its bytes. The code names the link whatever its mode or state; the page says the state.
 */
import { createHash } from "node:crypto"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Runtime } from "effect"
import QRCode from "qrcode"
import { Settings } from "../Config.js"
import { json } from "../http/Respond.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { linkUrl } from "../platform/LinkText.js"
import { isUuid } from "../platform/Uuid.js"

/** A drawn code: its PNG and the ETag of those bytes. */
export interface LinkQrImage {
  readonly png: Uint8Array
  readonly etag: string
}

/** The PNG of the QR code of `text`: level M, a 4-module quiet zone, 6 pixels a module. */
export const drawQr = async (text: string): Promise<LinkQrImage> => {
  const png = await QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 })
  return { png, etag: `"${createHash("sha256").update(png).digest("base64url").slice(0, 27)}"` }
}

/**
 * At most `max` values by key, the least recently used dropped first. A value is made once for
 * concurrent requests of one key (its promise is kept); one that fails or is `null` is forgotten.
 */
export const makeLru = <A>(max: number) => {
  const entries = new Map<string, Promise<A | null>>()
  return {
    get: (key: string, make: () => Promise<A | null>): Promise<A | null> => {
      let value = entries.get(key)
      if (value !== undefined) {
        entries.delete(key)
        entries.set(key, value)
        return value
      }
      const made = make()
      value = made
      entries.set(key, made)
      const forget = () => {
        if (entries.get(key) === made) entries.delete(key)
      }
      made.then((a) => a === null && forget(), forget)
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break
        entries.delete(oldest)
      }
      return made
    },
    size: () => entries.size
  }
}

/** How many links' codes a process keeps drawn (a code is about 2.5 KB: 10 MB in all). */
export const CACHED_CODES = 4096

const IMMUTABLE = "public, max-age=31536000, immutable"

export const LinkQrRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { baseUrl } = yield* Settings
    const run = Runtime.runPromise(yield* Effect.runtime<never>())
    const drawn = makeLru<LinkQrImage>(CACHED_CODES)

    /** The code of the link `id` (lower case, as Postgres writes ids), or null when there is none. */
    const codeOf = (id: string): Promise<LinkQrImage | null> =>
      run(LinksRepo.exists(id).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.orDie)).then(
        (found) => (found ? drawQr(linkUrl(baseUrl, id)) : null)
      )

    yield* router.get(
      "/l/:id/qr.png",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const id = ((yield* HttpRouter.params).id ?? "").toLowerCase()
        const image = isUuid(id) ? yield* Effect.promise(() => drawn.get(id, () => codeOf(id))) : null
        if (image === null) {
          return HttpServerResponse.setHeader(json({ error: "not_found" }, 404), "cache-control", "no-store")
        }
        const headers = {
          "cache-control": IMMUTABLE,
          etag: image.etag,
          "x-content-type-options": "nosniff"
        }
        const asked = request.headers["if-none-match"]
        if (asked?.split(",").some((tag) => tag.trim() === image.etag)) {
          return HttpServerResponse.empty({ status: 304, headers })
        }
        return HttpServerResponse.uint8Array(image.png, { contentType: "image/png", headers })
      })
    )
  })
)
