/**
 * `/panel` serves the portal's build: index.html for every client route (never cached), hashed
 * assets cached for a year, a Content-Security-Policy on each; a missing asset is a 404.
 * The build here is a small one of its own (SWITCH_PORTAL_DIR), so the test needs no Vite.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../../test/harness.js"
import { contentSecurityPolicy } from "./PanelRoutes.js"

let server: TestServer
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "portal-"))
  mkdirSync(join(dir, "assets"))
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><script type="module" src="/panel/assets/app-AbC12345.js"></script>'
  )
  writeFileSync(join(dir, "assets", "app-AbC12345.js"), "console.log('panel')")
  mkdirSync(join(dir, ".vite"))
  writeFileSync(join(dir, ".vite", "manifest.json"), '{"index.html":{"file":"assets/app-AbC12345.js"}}')
  server = await startServer({ settings: { portalDir: dir } })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("/panel", () => {
  it("answers index.html, never cached and with a strict CSP, at the root and at every client route", async () => {
    for (const path of ["/panel", "/panel/", "/panel/links", "/panel/links/abc?estado=pagado"]) {
      const response = await fetch(`${server.url}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type")).toContain("text/html")
      expect(response.headers.get("cache-control")).toBe("no-cache")
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain("unsafe-inline")
      expect(await response.text()).toContain("/panel/assets/app-AbC12345.js")
    }
  })

  it("serves hashed assets for a year, immutable; a missing one is 404, not the page", async () => {
    const asset = await fetch(`${server.url}/panel/assets/app-AbC12345.js`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get("content-type")).toContain("text/javascript")
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect((await fetch(`${server.url}/panel/assets/otro-XyZ98765.js`)).status).toBe(404)
    expect((await fetch(`${server.url}/panel/../openapi.json`)).status).not.toBe(500)
    // The build's own records (the manifest the bundle budget reads) are not served.
    const manifest = await fetch(`${server.url}/panel/.vite/manifest.json`)
    expect(manifest.status).not.toBe(200)
    expect(await manifest.text()).not.toContain("app-AbC12345.js")
  })
})

describe("the portal's CSP", () => {
  it("allows the QR images' host of an absolute BASE_URL, and only 'self' when BASE_URL is a bare path", () => {
    expect(contentSecurityPolicy("https://pagos.example")).toContain(
      "img-src 'self' data: https://pagos.example;"
    )
    expect(contentSecurityPolicy("")).toContain("img-src 'self' data:;")
    expect(contentSecurityPolicy("/pagos")).toContain("img-src 'self' data:;")
  })
})
