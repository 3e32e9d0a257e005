/**
 * The Links and Transacciones lists as a merchant uses them all day, real Chromium against the
 * built server: the total count («12 links»), an amount range and the date presets (Caracas days)
 * kept in the address, sorting by amount from the column heading (`aria-sort`), copying a link's
 * address, finding a transaction by its receipt code, and the header's one box that finds links
 * and transactions by id, reference, receipt code or name. axe-core at 1280 and 360 px
 * (screenshots in artifacts/).
 */
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-las-listas-1"

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
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.url })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 401/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title} (${shot}): axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `listas-${shot}.png`), fullPage: true })
}

/** The Caracas day of now, `2026-11-25`. */
/** A phone's folded filters, opened (the button shows only below 48rem). */
const openFilters = async (page: Page) => {
  const button = page.getByRole("button", { name: /^Filtros/ })
  if ((await button.isVisible()) && (await button.getAttribute("aria-expanded")) !== "true")
    await button.click()
}

const hoyCaracas = () => new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10)

describe("the Links list", () => {
  const codigo = `lst${Date.now().toString(36)}`
  const email = `${codigo}@tienda.example`
  const AMOUNTS = [15, 80, 120, 250, 499.5, 500, 730, 1200, 45, 310, 95, 2000]
  const paid: Array<string> = []

  beforeAll(async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Bodega Las Listas", identificacion: "J-07013380-5", email, password: PASSWORD }
    })
    expect(made.status).toBe(201)
    const key = `${codigo}:${made.body.api_key}`
    for (const [i, monto] of AMOUNTS.entries()) {
      const link = await call(stack.url, "POST", "/switch/v1/links", {
        key,
        body: { monto, concepto: monto === 2000 ? "Encargo especial de tortas" : `Pedido ${i + 1}` }
      })
      expect(link.status).toBe(201)
      // Three of them paid (simulated), so Transacciones has rows with receipt codes.
      if (monto === 120 || monto === 250 || monto === 730) {
        const sim = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
          key,
          body: { resultado: "pagado" }
        })
        expect(sim.status).toBe(200)
        paid.push(link.body.id)
      }
    }
  })

  const signIn = async (page: Page) => {
    await page.goto(`${stack.url}/panel/ingresar`)
    await page.getByLabel("Correo").fill(email)
    await page.getByLabel("Contraseña").fill(PASSWORD)
    await page.getByRole("button", { name: "Entrar" }).click()
    await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
  }

  it("shows the total, filters by amount and by a date preset, sorts by amount, and copies a link's address (1280 px)", async () => {
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page)
      await page.goto(`${stack.url}/panel/links`)
      await expect.poll(() => page.locator("#links-total").textContent()).toBe("12 links.")
      await screen(page, "Links", "links-1280")

      // An amount range, typed the Venezuelan way.
      await page.getByLabel("Monto mínimo (Bs)").fill("100")
      await page.getByLabel("Monto máximo (Bs)").fill("1.000")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/\/panel\/links\?min=100&max=1.000$/)
      const inRange = AMOUNTS.filter((m) => m >= 100 && m <= 1000).length
      await expect.poll(() => page.locator("#links-total").textContent()).toBe(`${inRange} links.`)

      // Today's preset: Caracas days in the address; every link here was made today.
      await page.getByRole("button", { name: "Hoy" }).click()
      const hoy = hoyCaracas()
      await page.waitForURL(new RegExp(`desde=${hoy}&hasta=${hoy}`))
      await expect.poll(() => page.locator("#links-total").textContent()).toBe(`${inRange} links.`)
      await screen(page, "Links", "links-filtrados-1280")

      // Sorting by amount from the heading, largest first, then smallest first.
      await page.getByRole("button", { name: /^Monto/ }).click()
      await page.waitForURL(/orden=monto_desc/)
      const monto = page.locator("th", { has: page.getByRole("button", { name: /^Monto/ }) })
      await expect.poll(() => monto.getAttribute("aria-sort")).toBe("descending")
      await expect.poll(() => page.locator('td[data-titulo="Monto"]').first().textContent()).toBe("Bs 730,00")
      await page.getByRole("button", { name: /^Monto/ }).click()
      await page.waitForURL(/orden=monto_asc/)
      await expect.poll(() => monto.getAttribute("aria-sort")).toBe("ascending")
      await expect.poll(() => page.locator('td[data-titulo="Monto"]').first().textContent()).toBe("Bs 120,00")
      await screen(page, "Links", "links-ordenados-1280")

      // Copying the first row's address.
      const first = page.locator("tbody tr[data-fila]").first()
      const href = (await first.getByRole("link").getAttribute("href")) ?? ""
      const id = href.split("/").pop() ?? ""
      await first.getByRole("button", { name: /^Copiar/ }).click()
      await expect.poll(() => first.getByRole("button", { name: /^Copiada/ }).count()).toBe(1)
      const copied = await page.evaluate<string>("navigator.clipboard.readText()")
      expect(copied).toBe(`${stack.url}/l/${id}`)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the filtered list at 360 px, sorted from the filters' «Ordenar por»", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page)
      await page.goto(`${stack.url}/panel/links?min=100`)
      await expect
        .poll(() => page.locator("#links-total").textContent())
        .toBe(`${AMOUNTS.filter((m) => m >= 100).length} links.`)
      // On a phone the rows are cards without headings: the order is a field of the filters,
      // which fold behind their button (issue 45).
      await openFilters(page)
      await page.getByLabel("Ordenar por").selectOption("monto_desc")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/min=100&orden=monto_desc$/)
      await expect
        .poll(() => page.locator('td[data-titulo="Monto"]').first().textContent())
        .toBe("Bs 2.000,00")
      await screen(page, "Links", "links-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("Transacciones: counts them, finds one by its receipt code, and bounds the amount (1280 and 360 px)", async () => {
    for (const width of [1280, 360]) {
      const { page, errors, close } = await open(width)
      try {
        await signIn(page)
        await page.goto(`${stack.url}/panel/transacciones`)
        await expect.poll(() => page.locator("#transacciones-total").textContent()).toBe("3 transacciones.")
        await screen(page, "Transacciones", `transacciones-${width}`)
        const codigo = (await page.locator('td[data-titulo="Código"]').first().textContent()) ?? ""
        expect(codigo).toMatch(/^SW-/)
        await openFilters(page)
        await page.getByLabel("Buscar").fill(codigo.toLowerCase())
        await page.getByRole("button", { name: "Filtrar" }).click()
        await expect.poll(() => page.locator("#transacciones-total").textContent()).toBe("1 transacción.")
        expect(await page.locator('td[data-titulo="Código"]').allTextContents()).toEqual([codigo])
        await screen(page, "Transacciones", `transacciones-buscar-${width}`)
        // Sorted by total from its heading, largest first (the phone layout shows rows as cards, without headings).
        if (width === 1280) {
          await page.goto(`${stack.url}/panel/transacciones`)
          await page.getByRole("button", { name: /^Total/ }).click()
          await page.waitForURL(/orden=monto_desc/)
          const th = page.locator("th", { has: page.getByRole("button", { name: /^Total/ }) })
          await expect.poll(() => th.getAttribute("aria-sort")).toBe("descending")
          await expect
            .poll(() => page.locator('td[data-titulo="Total"]').allTextContents())
            .toEqual(["Bs 730,00", "Bs 250,00", "Bs 120,00"])
          await screen(page, "Transacciones", `transacciones-ordenadas-${width}`)
        }
        await page.goto(`${stack.url}/panel/transacciones?min=200`)
        await expect.poll(() => page.locator("#transacciones-total").textContent()).toBe("2 transacciones.")
        await openFilters(page)
        await page.getByRole("button", { name: "7 días" }).click()
        await page.waitForURL(/desde=\d{4}-\d{2}-\d{2}&hasta=/)
        await expect.poll(() => page.locator("#transacciones-total").textContent()).toBe("2 transacciones.")
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    }
  })

  it("the header's box finds the link and the transaction of a receipt code, and a link by its concept (360 px)", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page)
      const link = await page.evaluate<{ codigo_verificacion: string; concepto: string }>(
        `fetch("/switch/v1/links/${paid[0]}").then((r) => r.json())`
      )
      const codigo = link.codigo_verificacion
      expect(codigo).toMatch(/^SW-/)
      // On a phone the box folds with the sections, behind "Menú".
      await page.getByRole("button", { name: "Menú" }).click()
      await page.getByLabel("Encontrar un link o una transacción").fill(codigo)
      await page.getByRole("button", { name: "Encontrar", exact: true }).click()
      await page.waitForURL(/\/panel\/buscar\?q=SW-/)
      await expect.poll(() => page.locator("#buscar-links li").count()).toBe(1)
      await expect.poll(() => page.locator("#buscar-transacciones li").count()).toBe(1)
      expect(await page.locator("#buscar-links li").textContent()).toContain(link.concepto)
      await screen(page, "Encontrar", "buscar-360")
      await page.locator("#buscar-links").getByRole("link", { name: link.concepto }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Detalle del link")
      expect(page.url()).toContain(paid[0])

      // By concept: the links list's words.
      await page.getByRole("button", { name: "Menú" }).click()
      await page.getByLabel("Encontrar un link o una transacción").fill("TORTAS especial")
      await page.getByRole("button", { name: "Encontrar", exact: true }).click()
      await expect.poll(() => page.locator("#buscar-links li").count()).toBe(1)
      expect(await page.locator("#buscar-transacciones li").count()).toBe(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
