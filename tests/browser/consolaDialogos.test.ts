/**
 * The console's confirmation dialogs and its merchants' pilots at a glance (issue 45), in
 * Chromium: an irreversible action (suspend, deactivate, close without paying, mark paid) first
 * opens a modal alert dialog saying what will happen; focus starts on "Volver" and stays in the
 * dialog, Escape and "Volver" do nothing and give focus back to the button that opened it, and
 * only the confirming button acts. axe finds nothing with the dialog open at 1280 and 360 px.
 * A merchant's entry shows immediate settlement and each pilot without opening anything. The
 * queue shows the bank's own code and words, and the portal's Liquidaciones why a settlement
 * was closed without paying.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  adminCall,
  axeViolations,
  confirmDialog,
  expectScreen,
  launchChromium,
  newOperator,
  openWindow,
  signInOperator
} from "../support/browser.js"
import { simulatePaid, splitBeneficiary, splitMerchant } from "../support/split.js"
import { call, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-operador-larga"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const admin = (method: string, path: string, body?: unknown) => adminCall(stack.url, method, path, body)

/** Whether the focused element is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate<boolean>(
    "document.activeElement !== null && document.activeElement.closest('dialog[open]') !== null"
  )

/** In the page: whether element `e` has the focus (the suite compiles without the DOM's types). */
const hasFocus = (e: unknown) =>
  e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement

const focusedText = (page: Page) => page.evaluate<string>("document.activeElement?.textContent ?? ''")

/**
 * The dialog open on `page`: its name and text; axe finds nothing at 1280 and 360 px; Tab and
 * Shift+Tab never leave it; focus starts on "Volver".
 */
const checkDialog = async (page: Page, label: string) => {
  const dialog = page.getByRole("alertdialog")
  await dialog.waitFor()
  expect(await dialog.getAttribute("aria-modal")).toBe("true")
  expect(await focusedText(page)).toBe("Volver")
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 })
    expect(await axeViolations(page), `${label} ${width}: axe`).toEqual([])
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
    expect(overflow, `${label} ${width}: sideways scroll`).toBeLessThanOrEqual(0)
  }
  for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key)
    expect(await focusInDialog(page), `${label}: focus after ${key}`).toBe(true)
  }
  return dialog
}

describe("the console's confirmation dialogs", () => {
  it("a merchant's pilots show at a glance; suspending it asks first (Escape and Volver do nothing and give focus back)", async () => {
    const codigo = `dlg${Date.now().toString(36)}`
    await merchantWithLiveKey(stack, codigo)
    expect(
      (
        await admin("PATCH", `/admin/v1/comercios/${codigo}`, {
          liquidacion_inmediata: true,
          split_habilitado: true
        })
      ).status
    ).toBe(200)
    const nombre = `Comercio ${codigo}`
    const riesgo = await newOperator(stack.url, PASSWORD, "riesgo")
    const w = await openWindow(browser, 1280)
    try {
      const { page } = w
      await page.goto(`${stack.url}/operador/comercios?estado=activo`)
      await signInOperator(page, riesgo, PASSWORD)
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 15_000 }).toBe("Inicio")
      await page.goto(`${stack.url}/operador/comercios?estado=activo`)
      await expectScreen(page, "Comercios", "Comercios", "consola-pilotos-1280.png")

      // Pilots at a glance: visible without opening "Comisión, límites y pilotos".
      const pilotos = page.getByRole("list", { name: `Pilotos de ${nombre}` })
      expect(await pilotos.isVisible()).toBe(true)
      expect((await pilotos.getByRole("listitem").allTextContents()).map((t) => t.trim())).toEqual([
        "Liquidación inmediata: activado",
        "Reparto: activado",
        "Tarjeta: desactivado",
        "Reembolsos desde el panel: desactivado"
      ])

      const form = page.getByRole("form", { name: `Suspender ${nombre}` })
      await form.getByLabel("Nota").fill("Contracargos repetidos")
      const suspend = form.getByRole("button", { name: "Suspender" })
      await suspend.click()
      const dialog = await checkDialog(page, "suspender")
      await page.setViewportSize({ width: 1280, height: 800 })
      expect(await dialog.getByRole("heading").textContent()).toBe(`¿Suspender a ${nombre}?`)
      const text = await dialog.textContent()
      expect(text).toContain("no podrá crear links ni lotes")
      expect(text).toContain("Nota: «Contracargos repetidos»")
      expect(text).toContain("Su dueño recibe un correo con tu nota.")
      await page.screenshot({ path: `${__dirname}/artifacts/consola-dialogo-suspender.png` })

      // Escape: closed, nothing done, focus back on "Suspender".
      await page.keyboard.press("Escape")
      await dialog.waitFor({ state: "detached" })
      expect(await suspend.evaluate(hasFocus)).toBe(true)
      expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body.estado).toBe("activo")

      // "Volver": the same.
      await suspend.click()
      await page.getByRole("alertdialog").getByRole("button", { name: "Volver" }).click()
      await dialog.waitFor({ state: "detached" })
      expect(await suspend.evaluate(hasFocus)).toBe(true)
      expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body.estado).toBe("activo")

      // Confirmed: suspended.
      await suspend.click()
      await confirmDialog(page)
      await expect.poll(() => page.getByRole("status").textContent()).toContain("suspender hecho")
      expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body.estado).toBe("suspendido")
      expect(w.errors).toEqual([])
    } finally {
      await w.close()
    }
  })

  it("closing a split part without paying and marking one paid ask first, saying what will happen, at 360 px; deactivating an operator too", async () => {
    const codigo = `dlr${Date.now().toString(36)}`
    const key = await splitMerchant(stack.url, codigo)
    const created = await call(stack.url, "POST", "/switch/v1/links", {
      key,
      body: {
        monto: 100,
        concepto: "Con reparto",
        split: [
          { cuenta: splitBeneficiary(1), monto: 60 },
          { cuenta: splitBeneficiary(2), monto: 38 }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const linkId = created.body.id as string
    // The commission raised after the link was made: the net no longer covers the split, so its parts wait in review.
    await admin("PATCH", `/admin/v1/comercios/${codigo}`, { comision_pct: 5 })
    await simulatePaid(stack.url, key, linkId)

    const tesoreria = await newOperator(stack.url, PASSWORD, "tesoreria")
    const w = await openWindow(browser, 360)
    try {
      const { page } = w
      await page.goto(`${stack.url}/operador/revision`)
      await signInOperator(page, tesoreria, PASSWORD)
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 15_000 }).toBe("Inicio")
      await page.goto(`${stack.url}/operador/revision`)
      await expectScreen(page, "Dinero en revisión", "Dinero en revisión", "consola-dialogos-cola-360.png")

      const close = page.getByRole("form", { name: `Cerrar ${linkId}:1` })
      await close.getByLabel("Nota (obligatoria)").fill("La beneficiaria renunció a su parte")
      await close.getByRole("button", { name: "Cerrar sin pagar" }).click()
      const dialog = await checkDialog(page, "cerrar sin pagar")
      expect(await dialog.getByRole("heading").textContent()).toBe("¿Cerrar sin pagar?")
      const text = (await dialog.textContent()) ?? ""
      expect(text).toContain(`la parte del reparto de ${codigo}`)
      expect(text).toContain("el dinero no se envía a Beneficiaria 2")
      expect(text).toContain("Nota: «La beneficiaria renunció a su parte». No se puede deshacer.")
      await page.keyboard.press("Escape")
      await dialog.waitFor({ state: "detached" })
      // Nothing was asked for.
      expect(await page.getByText("Pendiente de confirmación:").count()).toBe(0)
      expect(
        (await call(stack.url, "GET", `/switch/v1/links/${linkId}`, { key })).body.reparto.beneficiarios[1]
          .estado
      ).toBe("en_revision")

      const mark = page.getByRole("form", { name: `Marcar pagada ${linkId}:0` })
      await mark.getByLabel("Referencia del banco").fill("EXTRACTO0099")
      await mark.getByRole("button", { name: "Marcar pagada" }).click()
      const marked = await checkDialog(page, "marcar pagada")
      expect(await marked.textContent()).toContain(
        "con la referencia del banco EXTRACTO0099. No se envía dinero"
      )
      await confirmDialog(page)
      await expect.poll(() => page.getByRole("status").textContent()).toContain('Pedido "marcar pagada"')

      expect(w.errors).toEqual([])
    } finally {
      await w.close()
    }

    // Deactivating another operator asks first too.
    const target = await newOperator(stack.url, PASSWORD, "soporte")
    const riesgo = await newOperator(stack.url, PASSWORD, "riesgo")
    const r = await openWindow(browser, 360)
    try {
      const { page } = r
      await page.goto(`${stack.url}/operador/operadores`)
      await signInOperator(page, riesgo, PASSWORD)
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 15_000 }).toBe("Inicio")
      await page.goto(`${stack.url}/operador/operadores`)
      await expect.poll(() => page.getByText(target.email).count()).toBe(1)
      const deactivate = page.getByRole("button", { name: `Desactivar a ${target.email}` })
      await deactivate.click()
      const asked = await checkDialog(page, "desactivar")
      expect(await asked.textContent()).toContain(
        "no podrá entrar a la consola y su sesión abierta se cierra ahora"
      )
      await asked.getByRole("button", { name: "Volver" }).click()
      expect(await deactivate.evaluate(hasFocus)).toBe(true)
      await deactivate.click()
      await confirmDialog(page)
      await expect.poll(() => page.getByRole("status").textContent()).toBe(`${target.email} desactivado.`)
      expect(r.errors).toEqual([])
    } finally {
      await r.close()
    }
  })
})

describe("the reasons, in words", () => {
  it("the queue shows the bank's own code and words; the portal's Liquidaciones shows an operator's closing note (360 px, axe)", async () => {
    const codigo = `mot${Date.now().toString(36)}`
    const email = `${codigo}@tienda.example`
    const registered = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: `Bodega ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
    })
    expect(registered.status).toBe(201)
    const comercioId = (await admin("GET", `/admin/v1/comercios/${codigo}`)).body.id as string
    const db = new Pg.Client({
      connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
    })
    await db.connect()
    const enRevision = randomUUID()
    const cerrada = randomUUID()
    try {
      const motivo = "DESCONOCIDO (banco 05: Transacción no aprobada por el banco emisor)"
      await db.query(
        `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, motivo_rechazo, created_at)
         values ($1, $3, 'test', 'liquidacion', 'REVISION', 4550, 'VES', $4, now()),
                ($2, $3, 'test', 'liquidacion', 'RECHAZADA', 12000, 'VES', 'cerrada sin pagar: El banco devolvió el crédito', now())`,
        [enRevision, cerrada, comercioId, motivo]
      )
      await db.query(
        `insert into respuestas_banco (objeto_tipo, objeto_id, estado, motivo_rechazo, codigo_banco, mensaje_banco, origen)
         values ('liquidacion', $1, 'RECHAZADA', 'DESCONOCIDO', '05', 'Transacción no aprobada por el banco emisor', 'envio')`,
        [enRevision]
      )
    } finally {
      await db.end()
    }

    const soporte = await newOperator(stack.url, PASSWORD, "soporte")
    const c = await openWindow(browser, 360)
    try {
      const { page } = c
      await page.goto(`${stack.url}/operador/revision`)
      await signInOperator(page, soporte, PASSWORD)
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 15_000 }).toBe("Inicio")
      await page.goto(`${stack.url}/operador/revision`)
      // Loaded (the shared screen check polls briefly; a loaded machine is slower).
      await page.getByText(`Liquidación de ${codigo}`, { exact: false }).waitFor()
      await expectScreen(page, "Dinero en revisión", "Dinero en revisión", "consola-motivo-banco-360.png")
      const item = page.getByRole("listitem").filter({ hasText: `Liquidación de ${codigo}` })
      const text = (await item.textContent()) ?? ""
      expect(text).toContain("DESCONOCIDO (banco 05: Transacción no aprobada por el banco emisor)")
      expect(text).toContain(
        "RECHAZADA · DESCONOCIDO · banco 05: Transacción no aprobada por el banco emisor"
      )
      expect(c.errors).toEqual([])
    } finally {
      await c.close()
    }

    const p = await openWindow(browser, 360)
    try {
      const { page } = p
      await page.goto(`${stack.url}/panel/ingresar`)
      await page.getByLabel("Correo").fill(email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 15_000 }).toBe("Inicio")
      await page.goto(`${stack.url}/panel/liquidaciones`)
      await page.getByText("Cerrada sin pagar por un operador", { exact: false }).waitFor()
      await expectScreen(page, "Liquidaciones", "Liquidaciones", "portal-liquidacion-motivo-360.png")
      expect(
        await page.getByText("Cerrada sin pagar por un operador: El banco devolvió el crédito").count()
      ).toBe(1)
      expect(p.errors).toEqual([])
    } finally {
      await p.close()
    }
  })
})
