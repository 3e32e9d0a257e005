/**
 * A merchant's commission, limits and pilots in the operators' console (issue 32), in real
 * Chromium against the built server: `riesgo` changes them from the merchant's screen (commission
 * in %, limits in Bs or USD, pilots as switches) and the audit log keeps before and after; a bad
 * value is refused and changes nothing; `soporte` reads them with no form. axe-core on each
 * screen, at 1280 px and 360 px (screenshots in artifacts/), no sideways scroll, no console errors.
 */
import { resolve } from "node:path"
import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-operador-larga"

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

const operador = async (rol: "soporte" | "riesgo") => {
  const email = `${rol}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
  const reply = await call(stack.url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { email, password: PASSWORD, rol }
  })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string }
}

const merchant = async () => {
  const codigo = `cf${Date.now().toString(36)}`
  const reply = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Farmacia ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@tienda.example`
    }
  })
  expect(reply.status).toBe(201)
  return { codigo, nombre: `Farmacia ${codigo}` }
}

const adminView = async (codigo: string) =>
  (
    await call(stack.url, "GET", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN }
    })
  ).body

const open = async (width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  // A refused request (401 before sign-in, 400 for a bad value) is logged by the browser.
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[013]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe("Comercios")
  await expect.poll(() => page.getByText("Cargando…").count()).toBe(0)
  expect(await axeViolations(page), `${shot}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${shot}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `operador-${shot}.png`), fullPage: true })
}

/** Signs in and opens the merchant's commission, limits and pilots; returns its list item. */
const openConfig = async (page: Page, op: { email: string; secret: string }, m: { nombre: string }) => {
  await page.goto(`${stack.url}/operador/comercios`)
  await page.getByLabel("Correo").fill(op.email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByLabel("Código de tu autenticador").fill(totpCode(op.secret, totpStep(Date.now())))
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
  await page.getByRole("link", { name: "Comercios", exact: true }).click()
  const item: Locator = page.locator("li", { has: page.getByRole("heading", { name: new RegExp(m.nombre) }) })
  await expect.poll(() => item.count()).toBe(1)
  await item.getByText("Comisión, límites y pilotos").click()
  await expect.poll(() => item.getByText("Comisión", { exact: true }).count()).toBe(1)
  return item
}

describe("a merchant's commission, limits and pilots in the console", () => {
  it("riesgo changes them at 360 px; a bad value is refused and changes nothing; the audit keeps before and after", async () => {
    const riesgo = await operador("riesgo")
    const m = await merchant()
    const { page, errors, close } = await open(360)
    try {
      const item = await openConfig(page, riesgo, m)
      expect(await item.locator("dd").filter({ hasText: "(por omisión)" }).count()).toBe(1)
      await screen(page, "configuracion-riesgo-360")

      const form = item.getByRole("form", { name: `Configuración de ${m.codigo}` })
      await form.getByLabel("Comisión acordada (%)").fill("1,75")
      await form.getByLabel("Monto máximo por pago", { exact: true }).fill("1.234,56")
      await form.getByLabel("Tope diario de recepción", { exact: true }).fill("500")
      await form.getByLabel("Moneda de tope diario de recepción", { exact: true }).selectOption("USD")
      const tarjeta = form.getByRole("switch", { name: /Pagos con tarjeta/ })
      expect(await tarjeta.isChecked()).toBe(false)
      await tarjeta.check()
      await form.getByLabel("Nota (auditoría)").fill("Piloto de tarjeta")
      await form.getByRole("button", { name: "Guardar configuración" }).click()
      await expect.poll(() => form.getByRole("status").textContent()).toBe("Configuración guardada.")
      const datos = item.locator("dl.datos").last()
      await expect.poll(() => datos.textContent()).toContain("1,75 % (acordada)")
      expect(await datos.textContent()).toContain("Bs 1.234,56")
      expect(await datos.textContent()).toContain("USD 500,00")
      expect(await datos.textContent()).toMatch(/Pagos con tarjetaActivado/)
      await screen(page, "configuracion-guardada-360")

      const view = await adminView(m.codigo)
      expect(view).toMatchObject({
        comision_pct: 1.75,
        comision_acordada: true,
        monto_max: { monto: 1234.56, moneda: "VES" },
        tope_diario: { monto: 500, moneda: "USD" },
        tarjeta_habilitada: true,
        split_habilitado: false
      })

      // Out of range: the service refuses it and the merchant stays as it was.
      await form.getByLabel("Comisión acordada (%)").fill("150")
      await form.getByRole("button", { name: "Guardar configuración" }).click()
      await expect
        .poll(() => form.getByRole("alert").textContent())
        .toBe("Comisión: debe estar entre 0 y 100")
      expect(await adminView(m.codigo)).toEqual(view)
      await screen(page, "configuracion-error-360")

      // The audit log: one change, with the configuration before and after.
      const audit = await page.evaluate(async (codigo) => {
        const r = await fetch(`/admin/v1/operador/auditoria?objeto_tipo=comercio&objeto_id=${codigo}`)
        return (await r.json()) as { data: Array<{ accion: string; antes: any; despues: any; nota: string }> }
      }, m.codigo)
      const cambios = audit.data.filter((row) => row.accion === "comercio.configurar")
      expect(cambios).toHaveLength(1)
      expect(cambios[0]?.nota).toBe("Piloto de tarjeta")
      expect(cambios[0]?.antes).toMatchObject({
        comision_acordada: false,
        tarjeta_habilitada: false,
        monto_max: null
      })
      expect(cambios[0]?.despues).toMatchObject({
        comision_pct: 1.75,
        tarjeta_habilitada: true,
        tope_diario: { monto: 500, moneda: "USD" }
      })
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("soporte reads them with no form (1280 px)", async () => {
    const soporte = await operador("soporte")
    const m = await merchant()
    await call(stack.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { split_habilitado: true, monto_min: { monto: 25, moneda: "USD" } }
    })
    const { page, errors, close } = await open(1280)
    try {
      const item = await openConfig(page, soporte, m)
      const datos = item.locator("dl.datos").last()
      expect(await datos.textContent()).toContain("USD 25,00")
      expect(await datos.textContent()).toMatch(/Pagos con repartoActivado/)
      expect(await item.getByRole("form", { name: `Configuración de ${m.codigo}` }).count()).toBe(0)
      expect(await item.getByText("Solo el rol riesgo cambia").count()).toBe(1)
      await screen(page, "configuracion-soporte-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("riesgo's form at 1280 px", async () => {
    const riesgo = await operador("riesgo")
    const m = await merchant()
    const { page, errors, close } = await open(1280)
    try {
      await openConfig(page, riesgo, m)
      await screen(page, "configuracion-riesgo-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
