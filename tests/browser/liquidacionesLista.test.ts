/**
 * The Liquidaciones list as a merchant rehearsing in test mode uses it, real Chromium against the
 * built server (issue 45): the total count («3 liquidaciones.»), each settlement marked
 * «Simulada», sorting by net from the column heading (`aria-sort`) and from «Ordenar por» on a
 * phone, a net range and the date presets (Caracas days) kept in the address, and a new payment
 * appearing in the open list by itself (the session's stream of changes). axe-core at 1280 and
 * 360 px (screenshots in artifacts/).
 */
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-las-liquidaciones-1"

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
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 401/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe("Liquidaciones")
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `Liquidaciones (${shot}): axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, "Liquidaciones: sideways scroll").toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `liquidaciones-lista-${shot}.png`), fullPage: true })
}

/** The Caracas day of now, `2026-11-25`. */
const hoyCaracas = () => new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10)

describe("the Liquidaciones list", () => {
  const codigo = `liq${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`
  let key = ""

  const pay = async (monto: number, concepto: string) => {
    const link = await call(stack.url, "POST", "/switch/v1/links", { key, body: { monto, concepto } })
    expect(link.status).toBe(201)
    const sim = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(sim.status).toBe(200)
  }

  beforeAll(async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: "Bodega Las Cuentas",
        identificacion: "J-07013380-5",
        email,
        password: PASSWORD
      }
    })
    expect(made.status).toBe(201)
    key = `${codigo}:${made.body.api_key}`
    // Test mode without immediate settlement: each payment shows its simulated settlement
    // (the 1 % commission: nets Bs 99,00, Bs 247,50 and Bs 722,70).
    await pay(100, "Torta pequeña")
    await pay(250, "Torta mediana")
    await pay(730, "Torta de bodas")
  })

  const signIn = async (page: Page) => {
    await page.goto(`${stack.url}/panel/ingresar`)
    await page.getByLabel("Correo").fill(email)
    await page.getByLabel("Contraseña").fill(PASSWORD)
    await page.getByRole("button", { name: "Entrar" }).click()
    await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
  }

  const total = (page: Page) => page.locator("#liquidaciones-total").textContent()
  const netos = (page: Page) => page.locator('td[data-titulo="Neto"]').allTextContents()

  it("counts them, sorts by net from the heading, bounds the net, takes a date preset, and shows a new payment by itself (1280 px)", async () => {
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page)
      await page
        .getByRole("navigation", { name: "Secciones" })
        .getByRole("link", { name: "Liquidaciones" })
        .click()
      await expect.poll(() => total(page)).toBe("3 liquidaciones.")
      expect(await page.locator("td .estado-simulada", { hasText: "Simulada" }).count()).toBe(3)
      await screen(page, "1280")

      // Sorting by net from the heading, largest first, then smallest first.
      const neto = page.locator("th", { has: page.getByRole("button", { name: /^Neto/ }) })
      await page.getByRole("button", { name: /^Neto/ }).click()
      await page.waitForURL(/\/panel\/liquidaciones\?orden=monto_desc$/)
      await expect.poll(() => neto.getAttribute("aria-sort")).toBe("descending")
      await expect.poll(() => netos(page)).toEqual(["Bs 722,70", "Bs 247,50", "Bs 99,00"])
      await page.getByRole("button", { name: /^Neto/ }).click()
      await page.waitForURL(/orden=monto_asc$/)
      await expect.poll(() => neto.getAttribute("aria-sort")).toBe("ascending")
      await expect.poll(() => netos(page)).toEqual(["Bs 99,00", "Bs 247,50", "Bs 722,70"])
      const fecha = page.locator("th", { has: page.getByRole("button", { name: /^Fecha/ }) })
      expect(await fecha.getAttribute("aria-sort")).toBeNull()
      await screen(page, "ordenada-1280")

      // A net range, typed the Venezuelan way; then today's preset, in Caracas days.
      await page.getByLabel("Neto mínimo (Bs)").fill("200")
      await page.getByLabel("Neto máximo (Bs)").fill("1.000")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/\/panel\/liquidaciones\?min=200&max=1.000&orden=monto_asc$/)
      await expect.poll(() => total(page)).toBe("2 liquidaciones.")
      await expect.poll(() => netos(page)).toEqual(["Bs 247,50", "Bs 722,70"])
      await page.getByRole("button", { name: "Hoy" }).click()
      const hoy = hoyCaracas()
      await page.waitForURL(new RegExp(`desde=${hoy}&hasta=${hoy}`))
      await expect.poll(() => total(page)).toBe("2 liquidaciones.")
      await screen(page, "filtrada-1280")

      // A payment elsewhere: its settlement appears in the open list, counted, without reloading.
      await pay(500, "Torta de cumpleaños")
      await expect.poll(() => total(page), { timeout: 15_000 }).toBe("3 liquidaciones.")
      await expect.poll(() => netos(page)).toEqual(["Bs 247,50", "Bs 495,00", "Bs 722,70"])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("on a phone the filters fold, «Ordenar por» sorts, and a state with nothing says so (360 px)", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page)
      await page.goto(`${stack.url}/panel/liquidaciones`)
      await expect.poll(() => total(page)).toBe("4 liquidaciones.")
      await screen(page, "360")
      expect(await page.getByLabel("Ordenar por").isVisible()).toBe(false)
      await page.getByRole("button", { name: "Filtros" }).click()
      await page.getByLabel("Ordenar por").selectOption("monto_desc")
      await page.waitForURL(/\/panel\/liquidaciones\?orden=monto_desc$/)
      await expect.poll(() => netos(page)).toEqual(["Bs 722,70", "Bs 495,00", "Bs 247,50", "Bs 99,00"])
      await expect.poll(() => page.getByRole("button", { name: "Filtros (1 en uso)" }).count()).toBe(1)
      await screen(page, "ordenada-360")
      // The filters stay open after an order is chosen.
      expect(await page.getByRole("button", { name: /^Filtros/ }).getAttribute("aria-expanded")).toBe("true")
      await page.getByLabel("Estado").selectOption("RECHAZADA")
      await page.waitForURL(/estado=RECHAZADA/)
      await expect
        .poll(() => page.getByText("No hay liquidaciones con estos filtros.", { exact: false }).count())
        .toBe(1)
      await screen(page, "vacia-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
