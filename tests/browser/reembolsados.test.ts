/**
 * Refunded links in the portal (issue 45) in real Chromium against the built server: a fully
 * refunded test link reads "Reembolsado" and a partly refunded one "Reembolsado parcialmente",
 * with what went back and what is left, in the Links list and in the detail; the state filter
 * finds each; axe-core at zero at 1280 and 360 px (screenshots in artifacts/).
 */
import { randomUUID } from "node:crypto"
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, adminCall, axeViolations, launchChromium } from "../support/browser.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-del-panel-1"

let stack: Stack
let browser: Browser
let email: string
const ids: Record<string, string> = {}

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  browser = await launchChromium()
  const codigo = `reem${Date.now().toString(36)}`
  email = `${codigo}@tienda.example`
  const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Tienda ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  expect(
    (await adminCall(stack.url, "PATCH", `/admin/v1/comercios/${codigo}`, { reembolsos_habilitado: true }))
      .status
  ).toBe(200)
  const key = `${codigo}:${made.body.api_key}`
  const signed = await fetch(`${stack.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const headers = {
    cookie: (signed.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": ((await signed.json()) as { csrf_token: string }).csrf_token
  }
  for (const [concepto, monto, devuelto] of [
    ["Devuelto entero", 80, 80],
    ["Devuelto en parte", 100, 40],
    ["Sin devolución", 60, 0]
  ] as const) {
    const link = await call(stack.url, "POST", "/switch/v1/links", { key, body: { monto, concepto } })
    expect(link.status).toBe(201)
    ids[concepto] = link.body.id
    const sim = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(sim.status).toBe(200)
    if (devuelto > 0) {
      const refund = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/reembolsos`, {
        headers,
        body: { monto: devuelto, motivo: "Devolución al cliente", idempotency_key: randomUUID() }
      })
      expect(refund.status, JSON.stringify(refund.body)).toBe(201)
    }
  }
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const signIn = async (page: Page) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
}

const loaded = async (page: Page, title: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
}

const estadoDe = (page: Page, concepto: string) =>
  page.locator("tr", { hasText: concepto }).locator("td[data-titulo='Estado']").textContent()

describe("refunded links in the portal", () => {
  for (const width of [1280, 360]) {
    it(`the list and the detail say Reembolsado and Reembolsado parcialmente with the amounts; the filter finds them (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 900 } })
      try {
        const page = await context.newPage()
        await signIn(page)
        await page.goto(`${stack.url}/panel/links`)
        await loaded(page, "Links")
        await expect.poll(() => estadoDe(page, "Devuelto entero")).toBe("Reembolsado Devuelto Bs 80,00")
        expect(await estadoDe(page, "Devuelto en parte")).toBe(
          "Reembolsado parcialmente Devuelto Bs 40,00 · queda Bs 60,00"
        )
        expect(await estadoDe(page, "Sin devolución")).toBe("Pagado")
        expect(await axeViolations(page), "list: axe").toEqual([])
        await page.screenshot({ path: resolve(ARTIFACTS, `reembolsados-lista-${width}.png`), fullPage: true })

        if (width === 360) await page.getByRole("button", { name: "Filtros" }).click()
        await page.getByLabel("Estado").selectOption("reembolsado_parcial")
        await page.getByRole("button", { name: "Filtrar" }).click()
        await page.waitForURL(/\/panel\/links\?estado=reembolsado_parcial$/)
        await expect.poll(() => page.locator("tbody tr:not(.relleno)").count()).toBe(1)
        expect(await estadoDe(page, "Devuelto en parte")).toContain("Reembolsado parcialmente")
        await page.goto(`${stack.url}/panel/links?estado=reembolsado`)
        await loaded(page, "Links")
        await expect.poll(() => page.locator("tbody tr:not(.relleno)").count()).toBe(1)
        expect(await estadoDe(page, "Devuelto entero")).toContain("Reembolsado")
        expect(await axeViolations(page), "filtered: axe").toEqual([])

        await page.goto(`${stack.url}/panel/links/${ids["Devuelto en parte"]}`)
        await loaded(page, "Detalle del link")
        const dato = (name: string) =>
          page.locator(".datos div", { hasText: name }).locator("dd").textContent()
        await expect.poll(() => dato("Estado")).toBe("Reembolsado parcialmente")
        expect(await dato("Devuelto al pagador")).toBe("Bs 40,00")
        expect(await dato("Queda del pago")).toBe("Bs 60,00")
        expect(await axeViolations(page), "detail: axe").toEqual([])
        await page.screenshot({
          path: resolve(ARTIFACTS, `reembolsados-detalle-${width}.png`),
          fullPage: true
        })
      } finally {
        await context.close()
      }
    }, 60_000)
  }
})
