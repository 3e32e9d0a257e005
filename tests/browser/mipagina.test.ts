/**
 * The merchant's own payment page in real Chromium against the built server: the owner turns it
 * on in the portal (Mi página: minimum, maximum, concept allowed, its address and QR), then a
 * payer on a 360-px phone opens `/p/<codigo>`, types an amount under the minimum (refused,
 * announced and tied to the field), then a valid amount and a concept, continues to the link's
 * own page and pays it with the test code: the link is paid, with `origen` `mi_pagina`. A page
 * turned off is a 404 page. Then the owner's bulk action: the open links a Links filter chooses,
 * cancelled as one job with its progress and summary, and exported as CSV. axe-core on every
 * screen, screenshots at 360 and 1280 px (artifacts/).
 */
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-mi-pagina-1"

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
  // Expected refusals the browser logs: no session yet (401), the page's own 400/404 answers.
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[0134]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

/** The screen is shown, axe finds nothing, nothing scrolls sideways; a screenshot for the record. */
const screen = async (page: Page, title: string | RegExp, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toMatch(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${shot}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${shot}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `mipagina-${shot}.png`), fullPage: true })
}

const signIn = async (page: Page, email: string) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
}

describe("mi página", () => {
  const codigo = `mp${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`
  let key = ""

  it("the owner turns the page on in the portal and sees its address and QR (1280 and 360 px)", async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: "Panadería La Esquina",
        identificacion: "J-07013380-5",
        email,
        password: PASSWORD
      }
    })
    expect(made.status).toBe(201)
    key = `${codigo}:${made.body.api_key}`
    // Off until the owner turns it on: a clear 404 page.
    const off = await open(360)
    try {
      const reply = await off.page.goto(`${stack.url}/p/${codigo}`)
      expect(reply?.status()).toBe(404)
      await screen(off.page, "Esta página de pago no existe o no está activa", "apagada-360")
    } finally {
      await off.close()
    }

    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, email)
      await page.getByRole("link", { name: "Mi página" }).click()
      await screen(page, "Mi página de pago", "ajustes-1280")
      await page.getByLabel(/Página activa/).check()
      await page.getByLabel("Monto mínimo (Bs)").fill("10,00")
      await page.getByLabel("Monto máximo (Bs)").fill("5.000,00")
      await page.getByLabel(/puede escribir un concepto/).check()
      await page.getByRole("button", { name: "Guardar" }).click()
      await page.getByRole("status").filter({ hasText: "Guardado: tu página está activa." }).waitFor()
      await expect(page.locator("#mp-url").textContent()).resolves.toMatch(new RegExp(`/p/${codigo}$`))
      // The QR is drawn and shown.
      await expect
        .poll(() =>
          page.locator("img.qr").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
        )
        .toBeGreaterThan(100)
      await screen(page, "Mi página de pago", "ajustes-guardados-1280")
      await page.setViewportSize({ width: 360, height: 900 })
      await screen(page, "Mi página de pago", "ajustes-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("a payer on a 360-px phone types the amount, pays on the link's page, and the link is mi_pagina's", async () => {
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/p/${codigo}`)
      await screen(page, "Pagar a Panadería La Esquina", "pagina-360")
      // Tab order: amount, concept, continue.
      await page.locator("body").focus()
      const order: Array<string> = []
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Tab")
        order.push(await page.evaluate<string>("document.activeElement.id"))
      }
      expect(order).toEqual(["monto", "concepto", "continuar"])

      await page.getByLabel("Monto a pagar en bolívares").fill("9,99")
      await page.getByRole("button", { name: "Continuar al pago" }).click()
      await page.getByRole("alert").filter({ hasText: "El monto mínimo es Bs 10,00." }).waitFor()
      expect(await page.getByLabel("Monto a pagar en bolívares").getAttribute("aria-invalid")).toBe("true")
      await screen(page, "Pagar a Panadería La Esquina", "pagina-error-360")

      await page.getByLabel("Monto a pagar en bolívares").fill("1.234,56")
      await page.getByLabel("Concepto (opcional)").fill("Pedido 42")
      await page.getByRole("button", { name: "Continuar al pago" }).click()
      await page.waitForURL(/\/l\/[0-9a-f-]{36}$/)
      const id = page.url().split("/l/")[1] ?? ""
      await expect(page.locator(".monto").textContent()).resolves.toBe("Bs 1.234,56")
      await expect(page.locator("h1").textContent()).resolves.toBe("Pedido 42")
      await screen(page, "Pedido 42", "link-360")
      await page.getByLabel("Tu banco", { exact: true }).selectOption("0102")
      await page.getByLabel("Tipo de documento").selectOption("V")
      await page.getByLabel("Número de documento").fill("12345678")
      await page.getByLabel("Teléfono registrado en tu banco").fill("04141234567")
      await page.getByRole("button", { name: "Pedir código de pago" }).click()
      await page.locator("#info").filter({ hasText: "12345678" }).waitFor()
      await page.getByLabel("Código de 8 dígitos de tu banco").fill("12345678")
      await page.locator("#pagar").click()
      await page.locator("#recibo").waitFor()
      await expect(page.locator("#recibo-monto").textContent()).resolves.toBe("Bs 1.234,56")
      await page.screenshot({ path: resolve(ARTIFACTS, "mipagina-recibo-360.png"), fullPage: true })

      const link = await call(stack.url, "GET", `/switch/v1/links/${id}`, { key })
      expect(link.body).toMatchObject({
        estado: "pagado",
        origen: "mi_pagina",
        monto: 1234.56,
        concepto: "Pedido 42"
      })
      const listed = await call(stack.url, "GET", "/switch/v1/links?origen=mi_pagina", { key })
      expect(listed.body.map((l: { id: string }) => l.id)).toEqual([id])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the page at 1280 px", async () => {
    const { page, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/p/${codigo}`)
      await screen(page, "Pagar a Panadería La Esquina", "pagina-1280")
    } finally {
      await close()
    }
  })

  it("the owner cancels the open links chosen by a filter as one bulk action, with progress and a summary, then exports them", async () => {
    const lote = await call(stack.url, "POST", "/switch/v1/lotes", {
      key,
      body: { items: Array.from({ length: 40 }, (_, i) => ({ monto: 20 + i, concepto: `Masiva ${i}` })) }
    })
    expect(lote.status).toBe(201)
    for (const width of [1280, 360]) {
      const { page, errors, close } = await open(width)
      try {
        await signIn(page, email)
        await page.goto(`${stack.url}/panel/links?q=masiva`)
        await expect.poll(() => page.locator("h1").textContent()).toBe("Links")
        await page.getByRole("link", { name: "Acciones masivas con estos filtros" }).click()
        await expect.poll(() => page.locator("#am-total").textContent()).toBe("40 links del modo prueba")
        await screen(page, "Acciones masivas", `masiva-${width}`)
        await expect(page.locator("main").textContent()).resolves.toContain("«masiva» en el concepto")
        // No action is chosen to begin with, and none runs until the count is typed.
        expect(await page.locator('input[name="accion"]:checked').count()).toBe(0)
        const elige = page.getByRole("button", { name: "Elige una acción" })
        expect(await elige.isDisabled()).toBe(true)
        if (width === 1280) {
          await page.getByLabel(/Cancelar los abiertos/).check()
          const ejecutar = page.getByRole("button", { name: "Cancelación de 40 links" })
          expect(await ejecutar.isDisabled()).toBe(true)
          const confirmacion = page.getByLabel("Para confirmar, escribe cuántos links son: 40")
          await confirmacion.fill("41")
          await expect.poll(() => page.getByText("La cantidad no coincide.").count()).toBe(1)
          expect(await ejecutar.isDisabled()).toBe(true)
          await screen(page, "Acciones masivas", `masiva-no-coincide-${width}`)
          await confirmacion.fill("40")
          await expect.poll(() => ejecutar.isDisabled()).toBe(false)
          await ejecutar.click()
          await page.getByRole("status").filter({ hasText: "Terminada: 40 de 40 links revisados." }).waitFor()
          await expect(page.locator("#am-hechos").textContent()).resolves.toBe("40")
          await expect(page.locator("#am-omitidos").textContent()).resolves.toBe("Ninguno")
          await screen(page, "Acciones masivas", `masiva-resumen-${width}`)
          const listed = await call(stack.url, "GET", "/switch/v1/links?q=masiva&limit=200", { key })
          expect(new Set(listed.body.map((l: { estado: string }) => l.estado))).toEqual(
            new Set(["cancelado"])
          )
          // Once more: every link is cancelled now, so each is skipped with its state as the reason.
          await page.getByLabel("Para confirmar, escribe cuántos links son: 40").fill("40")
          await page.getByRole("button", { name: "Cancelación de 40 links" }).click()
          await expect
            .poll(() => page.locator("#am-omitidos").textContent(), { timeout: 20_000 })
            .toBe("40 por estar cancelado")
        } else {
          await page.getByLabel(/Exportar a un archivo CSV/).check()
          await page.getByLabel("Para confirmar, escribe cuántos links son: 40").fill("40")
          await page.getByRole("button", { name: "Exportación de 40 links" }).click()
          await page.getByRole("status").filter({ hasText: "Terminada: 40 de 40 links revisados." }).waitFor()
          const download = page.getByRole("link", { name: "Descargar el CSV (40 links)" })
          const href = (await download.getAttribute("href")) ?? ""
          const csv = await page.evaluate<string>(`fetch(${JSON.stringify(href)}).then((r) => r.text())`)
          expect(csv.trim().split("\r\n")).toHaveLength(41)
          await screen(page, "Acciones masivas", `masiva-resumen-${width}`)
        }
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    }
  })

  it("without filters the bulk action says plainly that it takes every link of the mode, with their count", async () => {
    const total = (await call(stack.url, "GET", "/switch/v1/links/total", { key })).body.total as number
    expect(total).toBeGreaterThanOrEqual(40)
    const { page, errors, close } = await open(360)
    try {
      await signIn(page, email)
      await page.goto(`${stack.url}/panel/acciones-masivas`)
      await expect.poll(() => page.locator("#am-total").textContent()).toBe(`${total} links del modo prueba`)
      await expect
        .poll(() => page.locator("#am-filtros").textContent())
        .toBe("Sin filtros: la acción toma todos los links del modo prueba.")
      await page.getByLabel(/Reenviar el último aviso/).check()
      await screen(page, "Acciones masivas", "masiva-sin-filtros-360")
      await page.getByLabel(`Para confirmar, escribe cuántos links son: ${total}`).fill(String(total))
      await expect
        .poll(() => page.getByRole("button", { name: `Reenvío de avisos de ${total} links` }).isDisabled())
        .toBe(false)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
