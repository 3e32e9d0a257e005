/**
 * The opt-in daily summary mail's switch in Configuración (issue 45), in real Chromium against
 * the built server: off for a new merchant, the owner turns it on (saved through the SDK, told
 * on screen, still on after a reload and in `GET /resumen-diario`), then off at 360 px. axe-core
 * at zero on each state, no sideways scroll, screenshots at 1280 and 360 px (artifacts/).
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectScreen, launchChromium, openWindow } from "../support/browser.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-del-resumen-1"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const signIn = async (page: Page, email: string) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
}

/** The switch's state as the server has it, through the owner's session in the page. */
const stored = (page: Page) =>
  page.evaluate(async () => {
    const reply = await fetch("/switch/v1/resumen-diario", { credentials: "same-origin" })
    return ((await reply.json()) as { resumen_diario: boolean }).resumen_diario
  })

describe("resumen diario por correo", () => {
  const codigo = `rd${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`

  it("the owner turns it on at 1280 px and off at 360 px; axe zero on each state", async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Bodega El Resumen", identificacion: "J-07013380-5", email, password: PASSWORD }
    })
    expect(made.status).toBe(201)

    const big = await openWindow(browser, 1280)
    try {
      await signIn(big.page, email)
      await big.page.goto(`${stack.url}/panel/configuracion`)
      const interruptor = big.page.getByRole("switch", { name: /Resumen diario por correo/ })
      await interruptor.waitFor()
      expect(await interruptor.isChecked()).toBe(false)
      await expectScreen(big.page, "Configuración", "apagado 1280", "resumen-diario-apagado-1280.png")
      await interruptor.click()
      await big.page.getByRole("status").filter({ hasText: "cada mañana recibirás el resumen" }).waitFor()
      expect(await interruptor.isChecked()).toBe(true)
      await expect.poll(() => interruptor.getAttribute("aria-checked")).toBe("true")
      await expectScreen(big.page, "Configuración", "encendido 1280", "resumen-diario-encendido-1280.png")
      expect(await stored(big.page)).toBe(true)
      await big.page.reload()
      await expect.poll(() => big.page.getByRole("switch", { name: /activado\)/ }).isChecked()).toBe(true)
      expect(big.errors).toEqual([])
    } finally {
      await big.close()
    }

    const small = await openWindow(browser, 360)
    try {
      await signIn(small.page, email)
      await small.page.goto(`${stack.url}/panel/configuracion`)
      const interruptor = small.page.getByRole("switch", { name: /Resumen diario por correo/ })
      await expect.poll(() => interruptor.isChecked()).toBe(true)
      await expectScreen(small.page, "Configuración", "encendido 360", "resumen-diario-encendido-360.png")
      await interruptor.click()
      await small.page.getByRole("status").filter({ hasText: "ya no recibirás el resumen diario" }).waitFor()
      expect(await interruptor.isChecked()).toBe(false)
      await expectScreen(small.page, "Configuración", "apagado 360", "resumen-diario-apagado-360.png")
      expect(await stored(small.page)).toBe(false)
      expect(small.errors).toEqual([])
    } finally {
      await small.close()
    }
  })
})
