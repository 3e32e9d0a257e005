/**
 * The MCP sign-in with its consent in real Chromium (issue 34): the official MCP client asks
 * (DCR, PKCE), the merchant's user opens the authorization URL, signs in, is brought back to
 * the consent screen, gives some permissions, and the browser goes to the client's redirect URI
 * with the code; the client finishes and uses the tools. "Aplicaciones conectadas" lists the
 * grant and revokes it at once. axe-core on both screens, screenshots at 360 and 1280 px.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryProvider, ownerSession, PASSWORD, REDIRECT } from "../support/oauthClient.js"
import { call, freePort, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

let stack: Stack
let browser: Browser
let mcp: ChildProcess
let mcpUrl: string

beforeAll(async () => {
  const mcpPort = await freePort()
  const mcpBase = `http://127.0.0.1:${mcpPort}`
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000", MCP_URL: mcpBase })
  mcp = spawn(process.execPath, [resolve(__dirname, "../../apps/mcp/dist/main.js")], {
    env: {
      ...process.env,
      HOST: "",
      MCP_PORT: String(mcpPort),
      MCP_URL: mcpBase,
      BASE_URL: stack.url,
      SWITCH_API_URL: stack.url
    },
    stdio: "ignore"
  })
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${mcpBase}/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    await new Promise((r) => setTimeout(r, 100))
  }
  mcpUrl = `${mcpBase}/mcp`
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  mkdirSync(ARTIFACTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  mcp?.kill("SIGTERM")
  await stack?.stop()
})

const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(
    `axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`
  )
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `oauth-${shot}.png`), fullPage: true })
}

describe("MCP sign-in in the browser", () => {
  for (const width of [1280, 360]) {
    it(`a signed-out user signs in, consents and revokes (${width} px)`, async () => {
      const owner = await ownerSession(stack.url)
      const provider = new MemoryProvider()
      const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider })
      await expect(new Client({ name: "prueba", version: "1.0.0" }).connect(first)).rejects.toThrow(
        UnauthorizedError
      )

      const context = await browser.newContext({ viewport: { width, height: 900 } })
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("console", (m) => {
        if (m.type() === "error" && !m.text().includes("status of 401")) errors.push(m.text())
      })
      page.on("pageerror", (e) => errors.push(String(e)))
      page.on("dialog", (d) => void d.accept())
      // The client's redirect URI: the browser lands there with the code.
      let landed: URL | undefined
      await page.route(`${REDIRECT}**`, (route) => {
        landed = new URL(route.request().url())
        return route.fulfill({
          status: 200,
          contentType: "text/html",
          body: "<title>Listo</title><p>Listo</p>"
        })
      })
      try {
        await page.goto(String(provider.authorizationUrl))
        await page.waitForURL(/\/panel\/ingresar$/)
        await page.getByLabel("Correo").fill(owner.email)
        await page.getByLabel("Contraseña").fill(PASSWORD)
        await page.getByRole("button", { name: "Entrar" }).click()
        await page.waitForURL(/\/panel\/oauth\/autorizar\?/)
        await screen(page, "Autorizar aplicación", `consentimiento-${width}`)
        await expect.poll(() => page.getByText("Asistente de prueba").count()).toBeGreaterThan(0)
        await expect.poll(() => page.getByText("127.0.0.1:7777").count()).toBeGreaterThan(0)
        // Live is not offered: this owner's merchant is not approved.
        expect(await page.getByLabel("Live (dinero real)").isDisabled()).toBe(true)
        await page.getByLabel("Ver tus liquidaciones").uncheck()
        await page.getByRole("button", { name: "Autorizar" }).click()
        await expect.poll(() => landed?.searchParams.get("code") ?? null).not.toBeNull()
        expect(landed?.searchParams.get("iss")).toBe(stack.url)
        expect(landed?.searchParams.get("state")).toBe(provider.authorizationUrl?.searchParams.get("state"))

        await first.finishAuth(landed?.searchParams.get("code") ?? "")
        expect(provider.saved?.scope).toBe("links:read links:write transacciones:read bancos:read")
        const client = new Client({ name: "prueba", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
        const made: any = await client.callTool({
          name: "crear_link_cobro",
          arguments: { monto: 15, concepto: "Desde el asistente" }
        })
        expect(made.isError).toBeFalsy()

        await page.goto(`${stack.url}/panel/aplicaciones`)
        await screen(page, "Aplicaciones conectadas", `aplicaciones-${width}`)
        await expect.poll(() => page.getByText("Asistente de prueba").count()).toBeGreaterThan(0)
        await page.getByRole("button", { name: "Revocar acceso de Asistente de prueba" }).click()
        await expect.poll(() => page.getByText("No hay aplicaciones conectadas.").count()).toBe(1)
        await screen(page, "Aplicaciones conectadas", `aplicaciones-vacia-${width}`)
        const after = await call(stack.url, "GET", "/switch/v1/links", {
          headers: { authorization: `Bearer ${provider.saved?.access_token}` }
        })
        expect(after.status).toBe(401)
        expect(errors).toEqual([])
      } finally {
        await context.close()
      }
    })
  }

  it("a user who refuses sends the client back with access_denied", async () => {
    const owner = await ownerSession(stack.url)
    const provider = new MemoryProvider()
    const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider })
    await expect(new Client({ name: "prueba", version: "1.0.0" }).connect(first)).rejects.toThrow(
      UnauthorizedError
    )
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies([
      { name: "switch_sesion", value: owner.session.cookie.split("=")[1] ?? "", url: stack.url }
    ])
    const page = await context.newPage()
    let landed: URL | undefined
    await page.route(`${REDIRECT}**`, (route) => {
      landed = new URL(route.request().url())
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>Listo</title>" })
    })
    try {
      await page.goto(String(provider.authorizationUrl))
      await expect.poll(() => page.locator("h1").textContent()).toBe("Autorizar aplicación")
      await page.getByRole("button", { name: "Cancelar" }).click()
      await expect.poll(() => landed?.searchParams.get("error") ?? null).toBe("access_denied")
    } finally {
      await context.close()
    }
  })
})
