/**
 * The merchant portal at `/panel`: the static build of apps/portal (Vite), read once at start.
 * Text files go out compressed as the client accepts (brotli or gzip, made at build time beside
 * each file; http/Compression.ts). Hashed assets (`/panel/assets/*`) are cached for a year; `index.html` is never cached and
 * answers every client route (`/panel/links/...`), so a reload or a shared address opens the
 * app. Every answer carries a Content-Security-Policy that allows only this origin's scripts
 * and styles, images from here and the links' QR codes, and no framing.
 *
 * The build is found beside this app (`apps/portal/dist`, from the sources or the built server)
 * or in `SWITCH_PORTAL_DIR`; without one, `/panel` answers 503 with what to run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { builtForms, precompressed } from "../http/Compression.js"

interface Asset {
  readonly body: Uint8Array
  readonly type: string
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8"
}

/** The first directory holding a built portal: the setting, then beside the sources or the bundle. */
const findBuild = (portalDir: string | null | undefined): string | undefined => {
  const candidates = [
    portalDir ?? undefined,
    fileURLToPath(new URL("../../../portal/dist", import.meta.url)),
    fileURLToPath(new URL("../../portal/dist", import.meta.url))
  ]
  return candidates.find((dir) => dir !== undefined && dir !== "" && existsSync(join(dir, "index.html")))
}

/**
 * Every file of the build, read once; the `.br` and `.gz` beside a file are its compressed
 * forms, not files of their own (a file without them is compressed at its first request). The
 * build's own records (`.vite/`, the manifest the bundle budget reads) are not served.
 */
const readAll = (dir: string): Map<string, Asset> => {
  const assets = new Map<string, Asset>()
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name)
      if (name === ".vite") continue
      if (statSync(full).isDirectory()) walk(full)
      else if (!/\.(br|gz)$/.test(name))
        assets.set(relative(dir, full).split(sep).join("/"), {
          body: precompressed(readFileSync(full), builtForms(full)),
          type: TYPES[extname(name)] ?? "application/octet-stream"
        })
    }
  }
  walk(dir)
  return assets
}

/** The portal's policy: its own scripts and styles only; images from here, data: and the QR codes' host. */
export const contentSecurityPolicy = (baseUrl: string) => {
  // BASE_URL may be a path alone (links then point at the page's own host): 'self' covers it.
  const qrHost = URL.canParse(baseUrl) ? ` ${new URL(baseUrl).origin}` : ""
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${qrHost}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")
}

export const PanelRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const dir = findBuild(settings.portalDir)
    const assets = dir === undefined ? new Map<string, Asset>() : readAll(dir)
    const security = {
      "content-security-policy": contentSecurityPolicy(settings.baseUrl),
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "x-frame-options": "DENY"
    }
    const index = assets.get("index.html")
    const serveIndex = () =>
      index === undefined
        ? HttpServerResponse.text(
            "El panel no está compilado: ejecuta `npm run build` (o `npm start`, que lo compila).",
            { status: 503, headers: { "cache-control": "no-store" } }
          )
        : HttpServerResponse.uint8Array(index.body, {
            contentType: index.type,
            headers: { ...security, "cache-control": "no-cache" }
          })
    const serve = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const file = new URL(request.url, "http://panel").pathname.replace(/^\/panel\/?/, "")
      const asset = file.includes("..") ? undefined : assets.get(file)
      if (asset !== undefined && file !== "index.html")
        return HttpServerResponse.uint8Array(asset.body, {
          contentType: asset.type,
          headers: {
            ...security,
            "cache-control": file.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache"
          }
        })
      // A missing hashed asset is a 404, never the app's page in its place.
      if (file.startsWith("assets/") || extname(file) !== "")
        return HttpServerResponse.text("No encontrado", {
          status: 404,
          headers: { "cache-control": "no-store" }
        })
      return serveIndex()
    })
    yield* router.get("/panel", serve)
    yield* router.get("/panel/*", serve)
  })
)
