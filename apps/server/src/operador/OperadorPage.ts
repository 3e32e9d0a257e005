/**
 * The operators' console at `/operador`: `operador.html` of the portal's build (apps/portal,
 * a second Vite input); its hashed assets are the portal's, served under `/panel/assets/`. The
 * page is never cached and answers every console route (`/operador/comercios`, ...), with a
 * Content-Security-Policy that allows only this origin's scripts, styles and calls, no framing,
 * and no referrer beyond this origin. Without a build, `/operador` answers 503 with what to run.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { builtForms, precompressed } from "../http/Compression.js"

/** The console's page: in SWITCH_PORTAL_DIR, else beside the sources or the bundle. */
const findPage = (portalDir: string | null | undefined): string | undefined => {
  const candidates = [
    portalDir ?? undefined,
    fileURLToPath(new URL("../../../portal/dist", import.meta.url)),
    fileURLToPath(new URL("../../portal/dist", import.meta.url))
  ]
  const dir = candidates.find((d) => d !== undefined && d !== "" && existsSync(join(d, "operador.html")))
  return dir === undefined ? undefined : join(dir, "operador.html")
}

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

export const OperadorPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const file = findPage((yield* Settings).portalDir)
    const page = file === undefined ? undefined : precompressed(readFileSync(file), builtForms(file))
    const serve = Effect.sync(() =>
      page === undefined
        ? HttpServerResponse.text(
            "La consola no está compilada: ejecuta `npm run build` (o `npm start`, que la compila).",
            { status: 503, headers: { "cache-control": "no-store" } }
          )
        : HttpServerResponse.uint8Array(page, {
            contentType: "text/html; charset=utf-8",
            headers: {
              "content-security-policy": CONSOLE_CSP,
              "x-content-type-options": "nosniff",
              "referrer-policy": "same-origin",
              "x-frame-options": "DENY",
              "cache-control": "no-store"
            }
          })
    )
    yield* router.get("/operador", serve)
    yield* router.get("/operador/*", serve)
  })
)
