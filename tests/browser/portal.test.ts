/**
 * The merchant portal (/panel) in real Chromium against the built server (`npx turbo run
 * build` builds apps/portal too): sign up, sign in, create a link with its QR and WhatsApp
 * share, find it in the list through filters kept in the address, cancel it, keys and webhooks;
 * axe-core on every screen, at 1280 px and at 360 px (screenshots in artifacts/), the first
 * screen's weight, the cache and CSP headers, and no console errors (a CSP refusal is one).
 */
import { resolve } from "node:path"
import { gzipSync } from "node:zlib"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { verificationToken } from "../support/correo.js"
import { ADMIN_TOKEN, call, OWN_ACCOUNT, type Stack, startStack } from "../support/stack.js"
import { enrolTotp, totpNow } from "../support/totp.js"

const PASSWORD = "clave-del-panel-1"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1" })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const open = async (width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  // The browser logs the 401 of the portal asking whether a session exists: that one is expected.
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("status of 401")) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  page.on("dialog", (d) => void d.accept())
  return { page, errors, close: () => context.close() }
}

/** Checks a screen: its title, no axe violations, no sideways scrolling, and a screenshot. */
const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `portal-${shot}.png`), fullPage: true })
}

describe("the portal's build as served", () => {
  it("index.html is not cached and carries a CSP; hashed assets are immutable; the first screen weighs at most 150 KB gzipped", async () => {
    const index = await fetch(`${stack.url}/panel/links?estado=pagado`)
    expect(index.status).toBe(200)
    expect(index.headers.get("cache-control")).toBe("no-cache")
    const csp = index.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    const html = await index.text()
    const assets = [...html.matchAll(/(?:src|href)="(\/panel\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "")
    expect(assets.length).toBeGreaterThanOrEqual(2)
    let gzipped = 0
    for (const path of assets) {
      expect(path).toMatch(/-[\w-]{8}\.(js|css)$/)
      const asset = await fetch(`${stack.url}${path}`)
      expect(asset.status).toBe(200)
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      gzipped += gzipSync(Buffer.from(await asset.arrayBuffer())).length
    }
    expect(gzipped).toBeLessThanOrEqual(150 * 1024)
    expect((await fetch(`${stack.url}/panel/assets/no-existe-12345678.js`)).status).toBe(404)
  })
})

describe("a merchant in the portal", () => {
  let totpSecret: string | undefined
  const codigo = `panel${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`

  it("signs up, signs in, creates a link, finds it with filters, cancels it; keys and webhooks (1280 px)", async () => {
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/panel`)
      await page.waitForURL(/\/panel\/ingresar$/)
      await screen(page, "Iniciar sesión", "ingresar-1280")
      await page.getByRole("link", { name: "Regístralo" }).click()
      await screen(page, "Registrar mi comercio", "registro-1280")
      await page.getByLabel("Nombre del comercio").fill("Bodega La Esquina")
      await page.getByLabel("Código del comercio").fill(codigo)
      await page.getByLabel("RIF o cédula").fill("J-07013380-5")
      await page.getByLabel("Correo").fill(email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Registrar" }).click()
      await screen(page, "Tu comercio está registrado", "registrado-1280")
      expect(await page.locator("code.llave").textContent()).toMatch(new RegExp(`^${codigo}:sk_test_`))
      await page.getByRole("button", { name: "Ir al panel" }).click()
      await screen(page, "Inicio", "inicio-1280")
      await expect.poll(() => page.getByText("Modo prueba").count()).toBeGreaterThan(0)
      expect(await page.getByRole("button", { name: "Live" }).isDisabled()).toBe(true)

      // Out and in again.
      await page.getByRole("button", { name: "Cerrar sesión" }).click()
      await screen(page, "Iniciar sesión", "ingresar-otra-vez-1280")
      await page.getByLabel("Correo").fill(email)
      await page.getByLabel("Contraseña").fill("no-es-la-clave")
      await page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => page.getByRole("alert").textContent()).toBe("Correo o contraseña incorrectos.")
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      await screen(page, "Inicio", "inicio-de-nuevo-1280")

      // A link.
      await page.getByRole("link", { name: "Links" }).click()
      await screen(page, "Links", "links-vacio-1280")
      await page.getByRole("link", { name: "Crear link" }).click()
      await screen(page, "Crear link", "crear-1280")
      await page.getByLabel("Monto (Bs)").fill("1.234,56")
      await page.getByLabel("Concepto").fill("Torta de chocolate")
      await page.getByRole("button", { name: "Crear link" }).click()
      await screen(page, "Detalle del link", "detalle-1280")
      await expect.poll(() => page.getByText("Bs 1.234,56").count()).toBeGreaterThan(0)
      const qr = page.getByRole("img", { name: /Código QR/ })
      await expect
        .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(0)
      expect(await page.getByRole("link", { name: "Compartir por WhatsApp" }).getAttribute("href")).toMatch(
        /^https:\/\/wa\.me\//
      )
      const linkId = page.url().split("/").pop() ?? ""

      // Found in the list, through filters that live in the address.
      await page.getByRole("link", { name: "← Volver a los links" }).click()
      await screen(page, "Links", "links-1280")
      await page.getByLabel("Estado").selectOption("pendiente")
      await page.getByLabel("Buscar").fill("torta")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/\/panel\/links\?estado=pendiente&q=torta$/)
      await expect.poll(() => page.getByRole("link", { name: "Torta de chocolate" }).count()).toBe(1)
      await page.reload()
      await expect.poll(() => page.getByRole("link", { name: "Torta de chocolate" }).count()).toBe(1)
      expect(await page.getByLabel("Estado").inputValue()).toBe("pendiente")
      await page.getByLabel("Estado").selectOption("pagado")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await expect.poll(() => page.getByText("No hay links con estos filtros.").count()).toBe(1)

      // Cancelled from its detail.
      await page.goto(`${stack.url}/panel/links/${linkId}`)
      await screen(page, "Detalle del link", "detalle-otra-vez-1280")
      await page.getByRole("button", { name: "Cancelar link" }).click()
      await expect.poll(() => page.locator(".estado").textContent()).toBe("Cancelado")
      await screen(page, "Detalle del link", "cancelado-1280")
      const stored = await fetch(`${stack.url}/switch/v1/links/${linkId}`, {
        headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") }
      }).then((r) => r.json())
      expect(stored).toMatchObject({ estado: "cancelado", origen: "panel", mode: "test" })

      // Keys and webhooks, without a live key.
      await page.getByRole("link", { name: "Desarrolladores" }).click()
      await screen(page, "Desarrolladores", "desarrolladores-1280")
      await page.getByLabel("Nombre de la llave nueva").fill("tienda en línea")
      await page.getByRole("button", { name: "Crear llave" }).click()
      await expect.poll(() => page.locator(".aviso code.llave").textContent()).toMatch(/sk_test_/)
      await page.getByLabel("Dirección https del webhook").fill("https://127.0.0.1:9/avisos")
      await page.getByRole("button", { name: "Registrar webhook" }).click()
      await expect.poll(() => page.getByText("https://127.0.0.1:9/avisos").count()).toBeGreaterThan(0)
      await screen(page, "Desarrolladores", "desarrolladores-lleno-1280")
      await page.getByRole("button", { name: /^Eliminar/ }).click()
      await expect.poll(() => page.getByText("No tienes webhooks.").count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("switches to live once the merchant is approved: the test banner goes and the live list is its own", async () => {
    const approved = await call(stack.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { cuenta_liquidacion: OWN_ACCOUNT }
    })
    expect(approved.status).toBe(200)
    const { page, errors, close } = await open(1280)
    try {
      // Issue 45: live mode needs the e-mail confirmed; the owner opens the link mailed at sign-up.
      await page.goto(`${stack.url}/panel/verificar#token=${await verificationToken(stack.url, email)}`)
      await screen(page, "Confirma tu correo", "verificar-1280")
      expect(page.url()).not.toContain("token=")
      await page.getByRole("button", { name: "Confirmar mi correo" }).click()
      await screen(page, "Correo confirmado", "verificado-1280")
      expect(await page.getByRole("status").textContent()).toContain(`confirmaste ${email}`)
      await page.goto(`${stack.url}/panel/ingresar`)
      await page.getByLabel("Correo").fill(email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      await screen(page, "Inicio", "inicio-aprobado-1280")
      // An owner needs a second factor for live: enrolled here through the API (tests/browser/equipo.test.ts does it on screen).
      totpSecret = await enrolTotp(stack.url, email, PASSWORD)
      const live = page.getByRole("button", { name: "Live" })
      expect(await live.isDisabled()).toBe(false)
      await live.click()
      await expect.poll(() => live.getAttribute("aria-pressed")).toBe("true")
      expect(await page.getByText("Modo prueba").count()).toBe(0)
      await page.getByRole("link", { name: "Links" }).click()
      await screen(page, "Links", "links-live-1280")
      // The test-mode links made above are not in live mode's list.
      expect(await page.getByText("No hay links con estos filtros.").count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("works on a 360-px phone: every screen fits, passes axe, and is saved as a screenshot", async () => {
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/panel/ingresar`)
      await screen(page, "Iniciar sesión", "ingresar-360")
      await page.getByLabel("Correo").fill(email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      if (totpSecret !== undefined) {
        // Enrolled above: the code after the password (the next step's: the current one is spent).
        await page.getByLabel("Código de tu app de autenticación").fill(totpNow(totpSecret, 1))
        // The password alone was answered 403 codigo_requerido, which the browser logs: expected.
        errors.splice(0, errors.length, ...errors.filter((e) => !e.includes("status of 403")))
        await page.getByRole("button", { name: "Entrar" }).click()
      }
      await screen(page, "Inicio", "inicio-360")
      await page.goto(`${stack.url}/panel/links/nuevo`)
      await screen(page, "Crear link", "crear-360")
      await page.getByLabel("Monto (Bs)").fill("25")
      await page.getByLabel("Concepto").fill("Café con leche")
      await page.getByRole("button", { name: "Crear link" }).click()
      await screen(page, "Detalle del link", "detalle-360")
      await page.goto(`${stack.url}/panel/links`)
      await expect.poll(() => page.getByRole("link", { name: "Café con leche" }).count()).toBe(1)
      await screen(page, "Links", "links-360")
      await page.goto(`${stack.url}/panel/desarrolladores`)
      await screen(page, "Desarrolladores", "desarrolladores-360")
      await page.goto(`${stack.url}/panel/registro`)
      // Signed in, the sign-up address leads to Inicio.
      await screen(page, "Inicio", "inicio-desde-registro-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
