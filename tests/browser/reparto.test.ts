/**
 * A split from the portal's link detail to the console's resolution (issue 42), real Chromium
 * against the built server: a link with a split paid after immediate settlement was turned off
 * goes to review; the owner sees each part's state (masked account) in the link's detail;
 * `tesoreria` marks one part paid and a second operator closes the other in the console's queue;
 * the link's detail then shows the parts paid and closed. axe-core at 1280 px and 360 px
 * (screenshots in artifacts/), no sideways scroll, no console errors.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  adminCall,
  confirmDialog,
  expectScreen,
  launchChromium,
  newOperator,
  openWindow,
  signInOperator
} from "../support/browser.js"
import { SPLIT_ACCOUNTS, simulatePaid, splitBeneficiary, splitMerchant } from "../support/split.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-del-reparto-larga"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  // Four eyes is not this suite's subject (browser/operadorCola.test.ts): one operator resolves a part.
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000", SWITCH_CUATRO_OJOS_DESDE: "1000000" })
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const admin = (method: string, path: string, body?: unknown) => adminCall(stack.url, method, path, body)

const open = (width: number) => openWindow(browser, width)

const screen = (page: Page, title: string, shot: string) =>
  expectScreen(page, title, shot, `reparto-${shot}.png`)

const operator = () => newOperator(stack.url, PASSWORD)

describe("a split from the portal's link detail to the console", () => {
  it("the owner sees each part in review, tesoreria resolves them, the detail shows them paid and closed (1280 and 360 px)", async () => {
    const codigo = `split${Date.now().toString(36)}`
    const email = `${codigo}@tienda.example`
    const key = await splitMerchant(stack.url, codigo, PASSWORD)
    const created = await call(stack.url, "POST", "/switch/v1/links", {
      key,
      body: {
        monto: 100,
        concepto: "Pedido con reparto",
        split: [
          { cuenta: splitBeneficiary(1), porcentaje: 30 },
          { cuenta: splitBeneficiary(2), monto: 20 }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const linkId = created.body.id as string
    // Immediate settlement turned off before the payment: the split goes to review.
    await admin("PATCH", `/admin/v1/comercios/${codigo}`, { liquidacion_inmediata: false })
    await simulatePaid(stack.url, key, linkId)

    const owner = await open(1280)
    const small = await open(360)
    const a = await open(1280)
    const b = await open(360)
    try {
      await owner.page.goto(`${stack.url}/panel/ingresar`)
      await expect.poll(() => owner.page.locator("h1").textContent()).toBe("Iniciar sesión")
      await owner.page.getByLabel("Correo").fill(email)
      await owner.page.getByLabel("Contraseña").fill(PASSWORD)
      await owner.page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => owner.page.locator("h1").textContent()).toBe("Inicio")
      await owner.page.goto(`${stack.url}/panel/links/${linkId}`)
      const reparto = owner.page.getByRole("region", { name: "Reparto del pago" })
      await expect.poll(() => reparto.getByText("En revisión").count()).toBe(3)
      expect(await reparto.textContent()).toContain(`···${SPLIT_ACCOUNTS[1]?.slice(-4)}`)
      expect(await owner.page.content()).not.toContain(SPLIT_ACCOUNTS[1])
      await screen(owner.page, "Detalle del link", "detalle-revision-1280")

      const op = await operator()
      const other = await operator()
      await a.page.goto(`${stack.url}/operador/revision`)
      await signInOperator(a.page, op, PASSWORD)
      await a.page.getByRole("link", { name: "Dinero en revisión" }).click()
      await expect.poll(() => a.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(2)
      expect(await a.page.getByText("la liquidación inmediata del comercio está desactivada").count()).toBe(2)
      await screen(a.page, "Dinero en revisión", "cola-1280")
      const mark = a.page.getByRole("form", { name: `Marcar pagada ${linkId}:0` })
      await mark.getByLabel("Referencia del banco").fill("EXTRACTO4242")
      await mark.getByRole("button", { name: "Marcar pagada" }).click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe("Marcada pagada con la referencia EXTRACTO4242.")

      await b.page.goto(`${stack.url}/operador/revision`)
      await signInOperator(b.page, other, PASSWORD)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/revision`)
      await expect.poll(() => b.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(1)
      await screen(b.page, "Dinero en revisión", "cola-360")
      const close = b.page.getByRole("form", { name: `Cerrar ${linkId}:1` })
      await close.getByLabel("Nota (obligatoria)").fill("El beneficiario renunció a su parte")
      await close.getByRole("button", { name: "Cerrar sin pagar" }).click()
      await confirmDialog(b.page)
      await expect.poll(() => b.page.getByRole("status").textContent()).toBe("Cerrada sin pagar.")

      // Back in the portal: the parts paid and closed, the split closed.
      await owner.page.reload()
      await expect.poll(() => reparto.getByText("Pagado").count()).toBe(1)
      expect(await reparto.getByText("Cerrado sin pagar").count()).toBe(1)
      expect(await reparto.textContent()).toContain("EXTRACTO4242")
      await screen(owner.page, "Detalle del link", "detalle-resuelto-1280")

      await small.page.goto(`${stack.url}/panel/ingresar`)
      await small.page.getByLabel("Correo").fill(email)
      await small.page.getByLabel("Contraseña").fill(PASSWORD)
      await small.page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => small.page.locator("h1").textContent()).toBe("Inicio")
      await small.page.goto(`${stack.url}/panel/links/${linkId}`)
      await expect
        .poll(() => small.page.getByRole("region", { name: "Reparto del pago" }).getByText("Pagado").count())
        .toBe(1)
      await screen(small.page, "Detalle del link", "detalle-resuelto-360")

      for (const w of [owner, small, a, b]) expect(w.errors).toEqual([])
    } finally {
      await owner.close()
      await small.close()
      await a.close()
      await b.close()
    }
  })
})
