/**
 * The operators' console (/operador) in real Chromium against the built server: an operator
 * without its TOTP code gets no session; `soporte` sees merchants but no action, and the API
 * refuses it too; `riesgo` approves a pending merchant (settlement account in its own name),
 * reviews and suspends it, and the audit log shows each action. axe-core on every screen, at
 * 1280 px and 360 px (screenshots in artifacts/), and no console errors (a CSP refusal is one).
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const PASSWORD = "clave-de-operador-larga"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack()
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  mkdirSync(ARTIFACTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const operador = async (rol: "soporte" | "riesgo" | "tesoreria") => {
  const email = `${rol}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
  const reply = await call(stack.url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { email, password: PASSWORD, rol }
  })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string }
}

const pendingMerchant = async () => {
  const codigo = `op${Date.now().toString(36)}`
  const reply = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Bodega ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@tienda.example`
    }
  })
  expect(reply.status).toBe(201)
  return { codigo, nombre: `Bodega ${codigo}` }
}

const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(
    `axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`
  )
}

const open = async (width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  // The console asks whether a session exists (401 before sign-in) and a refused sign-in is a 401 too.
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.getByText("Cargando…").count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `operador-${shot}.png`), fullPage: true })
}

const signIn = async (page: Page, op: { email: string; secret: string }, codigo?: string) => {
  await page.getByLabel("Correo").fill(op.email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByLabel("Código de tu autenticador").fill(codigo ?? totpCode(op.secret, totpStep(Date.now())))
  await page.getByRole("button", { name: "Entrar" }).click()
}

describe("the console as served", () => {
  it("is never cached and carries a strict CSP", async () => {
    const response = await fetch(`${stack.url}/operador/comercios`)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(await response.text()).toContain("/panel/assets/operador-")
  })
})

describe("operators in the console", () => {
  it("without the TOTP code there is no session; soporte sees merchants but cannot approve (UI and API) (1280 px)", async () => {
    const soporte = await operador("soporte")
    const merchant = await pendingMerchant()
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/operador`)
      await screen(page, "Consola de operadores", "ingresar-1280")
      // The code is required: the form does not go out without it.
      await page.getByLabel("Correo").fill(soporte.email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      expect(
        await page
          .getByLabel("Código de tu autenticador")
          .evaluate((e) => (e as unknown as { validity: { valid: boolean } }).validity.valid)
      ).toBe(false)
      // A wrong code is refused by the service.
      await signIn(page, soporte, "000000")
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("incorrectos")
      await screen(page, "Consola de operadores", "ingresar-error-1280")
      // And the API never opens a session without a code.
      const noCode = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
        body: { email: soporte.email, password: PASSWORD }
      })
      expect(noCode.status).toBe(401)

      await signIn(page, soporte)
      await screen(page, "Inicio", "inicio-soporte-1280")
      await page.getByRole("link", { name: "Comercios", exact: true }).click()
      await screen(page, "Comercios", "comercios-soporte-1280")
      await expect
        .poll(() => page.getByRole("heading", { name: new RegExp(merchant.nombre) }).count())
        .toBe(1)
      expect(await page.getByRole("button", { name: "Aprobar" }).count()).toBe(0)
      expect(await page.getByText("solo puede consultar").count()).toBe(1)
      // The server refuses the action to soporte even with a valid session and CSRF token.
      const refused = await page.evaluate(async (codigo) => {
        const sesion = (await (await fetch("/admin/v1/operador/sesion")).json()) as { csrf_token: string }
        const response = await fetch(`/admin/v1/operador/comercios/${codigo}/aprobar`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrf-token": sesion.csrf_token },
          body: "{}"
        })
        return { status: response.status, body: await response.json() }
      }, merchant.codigo)
      expect(refused).toEqual({
        status: 403,
        body: { error: "rol_insuficiente", detail: "El rol soporte no puede hacer esta acción." }
      })
      await page.getByRole("link", { name: "Auditoría" }).click()
      await screen(page, "Auditoría", "auditoria-soporte-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("riesgo approves a pending merchant, reviews and suspends it; the audit log shows each action (1280 px)", async () => {
    const riesgo = await operador("riesgo")
    const merchant = await pendingMerchant()
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/operador/comercios`)
      await signIn(page, riesgo)
      await screen(page, "Inicio", "inicio-riesgo-1280")
      await page.getByRole("link", { name: "Comercios", exact: true }).click()
      await screen(page, "Comercios", "comercios-riesgo-1280")
      const form = page.getByRole("form", { name: `Aprobar ${merchant.nombre}` })
      await form.getByLabel("Cuenta de liquidación (20 dígitos)").fill("01050194651194079423")
      await form.getByLabel("Nota (auditoría)").fill("KYC completo")
      await form.getByRole("button", { name: "Aprobar" }).click()
      await expect
        .poll(() => page.getByRole("status").textContent())
        .toBe(`${merchant.nombre} quedó aprobado.`)

      await page.getByRole("link", { name: "Activos" }).click()
      await screen(page, "Comercios", "comercios-activos-1280")
      await page
        .getByRole("form", { name: `Marcar revisado ${merchant.nombre}` })
        .getByRole("button")
        .click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("marcar revisado hecho")
      const suspend = page.getByRole("form", { name: `Suspender ${merchant.nombre}` })
      await suspend.getByLabel("Nota").fill("Contracargos")
      await suspend.getByRole("button", { name: "Suspender" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("suspender hecho")

      const view = await call(stack.url, "GET", `/admin/v1/comercios/${merchant.codigo}`, {
        headers: { "x-admin-token": ADMIN_TOKEN }
      })
      expect(view.body).toMatchObject({ estado: "suspendido", revisado: true })

      await page.getByRole("link", { name: "Auditoría" }).click()
      await screen(page, "Auditoría", "auditoria-riesgo-1280")
      const rows = page.locator("tbody tr", { hasText: merchant.codigo })
      await expect.poll(() => rows.count()).toBe(3)
      expect(await rows.nth(0).textContent()).toContain("comercio.suspender")
      expect(await rows.nth(0).textContent()).toContain("Contracargos")
      expect(await rows.nth(2).textContent()).toContain("KYC completo")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("works on a 360-px phone: every screen fits, passes axe, and is saved as a screenshot", async () => {
    const riesgo = await operador("riesgo")
    await pendingMerchant()
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/operador`)
      await screen(page, "Consola de operadores", "ingresar-360")
      await signIn(page, riesgo)
      await screen(page, "Inicio", "inicio-360")
      await page.goto(`${stack.url}/operador/comercios?estado=pendiente`)
      await screen(page, "Comercios", "comercios-360")
      await page.goto(`${stack.url}/operador/auditoria`)
      await screen(page, "Auditoría", "auditoria-360")
      await page.getByRole("button", { name: "Salir" }).click()
      await screen(page, "Consola de operadores", "salir-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
