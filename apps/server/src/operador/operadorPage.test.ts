/** `/operador` serves the console's page of the portal's build (a small build of its own here). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "consola-"))
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>panel</title>")
  writeFileSync(join(dir, "operador.html"), "<!doctype html><title>consola</title>")
  server = await startServer({ settings: { portalDir: dir } })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("/operador", () => {
  it("answers the console's page at every client route, never cached, with a strict CSP and no framing", async () => {
    for (const path of [
      "/operador",
      "/operador/",
      "/operador/comercios?estado=pendiente",
      "/operador/auditoria"
    ]) {
      const response = await fetch(`${server.url}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type")).toContain("text/html")
      expect(response.headers.get("cache-control")).toBe("no-store")
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain("unsafe-inline")
      expect(response.headers.get("x-frame-options")).toBe("DENY")
      expect(await response.text()).toContain("consola")
    }
  })
})
