/**
 * Cuentas para repartos in real Chromium against the built server: the owner approves a split
 * account in the portal (the list shows it), a bad check digit and an account in another
 * holder's name are refused with words on screen and nothing is added, the owner removes one; an
 * operator sees the merchant's accounts, read-only, in the console's merchant list. axe-core on every screen, screenshots at 360 and
 * 1280 px (artifacts/).
 */
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-cuentas-1"
// Valid Banco de Venezuela accounts (their check digits right).
const CUENTA_1 = "01020501880123456789"
const CUENTA_2 = "01020501820000000002"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack()
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
  // Expected refusals the browser logs: no session yet (401), the refused accounts (400, 409).
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of (40[0139]|409)/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.getByText("Cargando…").count()).toBe(0)
  expect(await axeViolations(page), `${shot}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${shot}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `cuentas-${shot}.png`), fullPage: true })
}

const signIn = async (page: Page, email: string) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
}

const fillCuenta = async (page: Page, valor: string, identificacion: string, nombre: string) => {
  await page.getByLabel("Banco").selectOption("0102")
  await page.getByLabel("Número de cuenta").fill(valor)
  await page.getByLabel("Cédula o RIF del titular").fill(identificacion)
  await page.getByLabel("Nombre del titular").fill(nombre)
  await page.getByRole("button", { name: "Aprobar cuenta" }).click()
}

describe("cuentas para repartos", () => {
  const codigo = `ct${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`
  const nombre = "Bodega Las Cuentas"

  it("the owner approves, is refused in words, and removes (1280 and 360 px)", async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre, identificacion: "J-07013380-5", email, password: PASSWORD }
    })
    expect(made.status).toBe(201)
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, email)
      await page.getByRole("link", { name: "Cuentas para repartos" }).click()
      await screen(page, "Cuentas para repartos", "vacia-1280")
      await fillCuenta(page, "0102-0501-88-0123456789", "V-12.345.678", "Pedro Pérez")
      await page.getByRole("status").filter({ hasText: "la cuenta quedó aprobada" }).waitFor()
      await expect.poll(() => page.locator(".cuentas-lista li").count()).toBe(1)
      await expect(page.locator(".cuentas-lista").textContent()).resolves.toContain("Pedro Pérez")

      // A wrong check digit: refused with the field in words; the list is unchanged.
      await fillCuenta(page, `${CUENTA_2.slice(0, 8)}9${CUENTA_2.slice(9)}`, "V-7654321", "Ana Díaz")
      await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^Número de cuenta|^Número: /)
      // The same account in another holder's name.
      await fillCuenta(page, CUENTA_1, "V-7654321", "Ana Díaz")
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("a nombre de otro titular")
      await expect.poll(() => page.locator(".cuentas-lista li").count()).toBe(1)
      await screen(page, "Cuentas para repartos", "rechazada-1280")

      await fillCuenta(page, CUENTA_2, "V-7654321", "Ana Díaz")
      await expect.poll(() => page.locator(".cuentas-lista li").count()).toBe(2)
      await page.getByRole("button", { name: /^Quitar Cuenta 0102-0501-82/ }).click()
      await expect.poll(() => page.locator(".cuentas-lista li").count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
    const small = await open(360)
    try {
      await signIn(small.page, email)
      await small.page.goto(`${stack.url}/panel/cuentas-aprobadas`)
      await screen(small.page, "Cuentas para repartos", "lista-360")
      expect(small.errors).toEqual([])
    } finally {
      await small.close()
    }
    const stored = await call(stack.url, "GET", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN }
    })
    expect(stored.body.cuentas_aprobadas.map((c: { valor: string }) => c.valor)).toEqual([CUENTA_1])
  })

  it("an operator sees them, read-only, in the console's merchant list (360 px)", async () => {
    const opEmail = `soporte-${Date.now().toString(36)}@switch.example`
    const reply = await call(stack.url, "POST", "/admin/v1/operadores", {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { email: opEmail, password: PASSWORD, rol: "soporte" }
    })
    expect(reply.status).toBe(201)
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/operador/comercios`)
      await page.getByLabel("Correo").fill(opEmail)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page
        .getByLabel("Código de tu autenticador")
        .fill(totpCode(reply.body.totp_secret as string, totpStep(Date.now())))
      await page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
      await page.getByRole("link", { name: "Comercios", exact: true }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Comercios")
      const panel = page.locator("details", { hasText: `Cuentas para repartos de ${nombre}` })
      await panel.locator("summary").click()
      await expect.poll(() => panel.textContent()).toContain("Pedro Pérez")
      await expect.poll(() => panel.textContent()).toContain(CUENTA_1)
      expect(await panel.getByRole("button").count()).toBe(0)
      await screen(page, "Comercios", "operador-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
