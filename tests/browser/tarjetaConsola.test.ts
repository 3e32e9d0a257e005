/**
 * The card pilot's charges in the console's money-in-review queue, real Chromium against the
 * built server, apps/card-sim and apps/bank-sim: a charge the processor's nightly close left out
 * (`faltante`, the clocks moved a day ahead through SWITCH_RELOJ_ARCHIVO) and one approved after
 * its link was paid by immediate debit (`duplicado`, a possible double charge). One `tesoreria`
 * operator asks to mark the first credited and to close the second with a note; another
 * confirms both (four eyes, SWITCH_CUATRO_OJOS_DESDE unset); the merchant gets `link.acreditado`
 * for the first only. axe-core at 1280 px and 360 px, dialogs answered as a person would.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CardSim, startCardSim, TARJETAS } from "@switch/card-sim"
import { CardSignature } from "@switch/core"
import pg from "pg"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  adminCall,
  confirmDialog,
  expectScreen,
  launchChromium,
  newOperator,
  type Operator,
  openWindow,
  signInOperator
} from "../support/browser.js"
import { allEvents, type Bank, liveMerchant, openPage, startBank } from "../support/live.js"
import { call, type Stack, startStack } from "../support/stack.js"

const CLAVE = "clave-del-procesador-de-la-consola"
const PASSWORD = "clave-de-operador-larga"
const RELOJ = join(mkdtempSync(join(tmpdir(), "switch-reloj-")), "desfase")
writeFileSync(RELOJ, "0")

let stack: Stack
let bank: Bank
let card: CardSim
let browser: Browser
let db: pg.Client

beforeAll(async () => {
  bank = await startBank()
  card = await startCardSim({ port: 0, clave: CLAVE })
  stack = await startStack({
    SWITCH_BANK_URL: bank.url,
    SWITCH_CARD_URL: card.url,
    SWITCH_CARD_CLAVE: CLAVE,
    SWITCH_RELOJ_ARCHIVO: RELOJ,
    SWITCH_TARJETA_CIERRE_SEGUNDOS: "0.3",
    SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.05",
    SWITCH_API_POR_MINUTO: "100000"
  })
  db = new pg.Client({
    connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
  })
  await db.connect()
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await db?.end()
  await browser?.close()
  await stack?.stop()
  await card?.close()
  await bank?.close()
})

const moveClocks = async (ms: number) => {
  writeFileSync(RELOJ, String(ms))
  card.processor.config.relojDesfaseMs = ms
  await new Promise((r) => setTimeout(r, 300))
}

const estadoCargo = async (id: string) =>
  (await db.query<{ estado: string }>("select estado from cargos_tarjeta where id = $1", [id])).rows[0]
    ?.estado

const newLink = async (key: string) => {
  const r = await call(stack.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 100, concepto: "Zapatos", expira_horas: 72 }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

/** Opens the card form of `linkId` as the payer's page does; the charge's id and form. */
const openForm = async (linkId: string) => {
  const page = await openPage(stack.url, linkId)
  const form = await page.post("/tarjeta", {})
  expect(form.status).toBe(200)
  const url = form.body.url_formulario as string
  return { page, url, cargoId: new URL(url).pathname.split("/").pop() as string }
}

const payOnForm = (url: string, numero: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ numero, vence: "12/30", cvv: "123" }).toString(),
    redirect: "manual"
  })

const screen = (page: Page, shot: string) =>
  expectScreen(page, "Dinero en revisión", "Dinero en revisión", `tarjeta-consola-${shot}.png`)

const signIn = (page: Page, op: Operator) => signInOperator(page, op, PASSWORD)

describe("card charges in the console's review queue", () => {
  it("a missing charge is marked credited and a duplicated one closed with a note, each by two tesoreria operators (1280 and 360 px)", async () => {
    const codigo = `tc${Date.now().toString(36)}`
    const { liveKey } = await liveMerchant(stack.url, codigo)
    expect(
      (await adminCall(stack.url, "PATCH", `/admin/v1/comercios/${codigo}`, { tarjeta_habilitada: true }))
        .status
    ).toBe(200)

    // Approved, then left out of the processor's nightly close.
    const missingLink = await newLink(liveKey)
    const missing = await openForm(missingLink)
    expect((await payOnForm(missing.url, TARJETAS.aprobada)).status).toBe(303)
    await expect.poll(() => estadoCargo(missing.cargoId)).toBe("aprobado")
    card.processor.config.omitirDelCierre = [missing.cargoId]

    // Released ("pay another way"), paid by immediate debit, then approved late by the processor.
    const paidLink = await newLink(liveKey)
    const late = await openForm(paidLink)
    expect((await late.page.post("/tarjeta/otra-forma", {})).body).toEqual({ estado: "pendiente" })
    const payer = await bank.payer()
    const paid = await late.page.pay(payer, await bank.code(payer, 10_000))
    expect(paid.body.estado).toBe("pagado")
    const body = JSON.stringify({
      id: `evt_${late.cargoId}`,
      evento: "cargo.aprobado",
      cargo_id: late.cargoId,
      referencia: "TJ55501234",
      monto: 10_300,
      creado_en: new Date().toISOString()
    })
    const callback = await fetch(`${stack.url}/tarjeta/callbacks`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-card-signature": CardSignature.header(CLAVE, Math.floor(Date.now() / 1000), body)
      },
      body
    })
    expect(callback.status).toBe(200)
    expect(await estadoCargo(late.cargoId)).toBe("duplicado")

    // A day later the service reads the close: the first charge is missing from it.
    await moveClocks(30 * 3600_000)
    try {
      await expect.poll(() => estadoCargo(missing.cargoId), { timeout: 20_000 }).toBe("faltante")
    } finally {
      await moveClocks(0)
    }

    const first = await newOperator(stack.url, PASSWORD)
    const second = await newOperator(stack.url, PASSWORD)
    const a = await openWindow(browser, 1280)
    const b = await openWindow(browser, 360)
    try {
      await a.page.goto(`${stack.url}/operador/revision`)
      await signIn(a.page, first)
      await a.page.getByRole("link", { name: "Dinero en revisión" }).click()
      await expect.poll(() => a.page.getByText("Cargo con tarjeta de", { exact: false }).count()).toBe(2)
      await expect.poll(() => a.page.getByText("Duplicado: posible doble cobro al pagador").count()).toBe(1)
      await screen(a.page, "1280")
      // A duplicated charge is never credited to the merchant: only closing is offered.
      expect(await a.page.getByRole("form", { name: `Marcar acreditado ${late.cargoId}` }).count()).toBe(0)

      const mark = a.page.getByRole("form", { name: `Marcar acreditado ${missing.cargoId}` })
      await mark.getByLabel("Referencia del crédito").fill("CRED-7788")
      await mark.getByRole("button", { name: "Marcar acreditado" }).click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe(
          'Pedido "marcar acreditado": otro operador de tesorería debe confirmarlo; nada cambia hasta entonces.'
        )
      const close = a.page.getByRole("form", { name: `Cerrar ${late.cargoId}` })
      await close.getByLabel("Nota (obligatoria)").fill("Reembolsado al pagador en el procesador")
      await close.getByRole("button", { name: "Cerrar con nota" }).click()
      await confirmDialog(a.page)
      await expect.poll(() => a.page.getByText("Pendiente de confirmación:").count()).toBe(2)
      expect(
        await a.page.getByRole("form", { name: `Confirmar marcar acreditado ${missing.cargoId}` }).count()
      ).toBe(0)
      await screen(a.page, "pendientes-1280")
      expect(await estadoCargo(missing.cargoId)).toBe("faltante")

      await b.page.goto(`${stack.url}/operador/revision`)
      await signIn(b.page, second)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/revision`)
      await expect.poll(() => b.page.getByText("Cargo con tarjeta de", { exact: false }).count()).toBe(2)
      await screen(b.page, "pendientes-360")
      await b.page
        .getByRole("form", { name: `Confirmar marcar acreditado ${missing.cargoId}` })
        .getByRole("button")
        .click()
      await confirmDialog(b.page)
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Marcado acreditado: se liquida al comercio y se le envía link.acreditado.")
      await b.page
        .getByRole("form", { name: `Confirmar cerrar con nota ${late.cargoId}` })
        .getByRole("button")
        .click()
      await confirmDialog(b.page)
      await expect.poll(() => b.page.getByText("Cargo con tarjeta de", { exact: false }).count()).toBe(0)
      await screen(b.page, "vacia-360")
      expect(await estadoCargo(missing.cargoId)).toBe("acreditado")
      expect(await estadoCargo(late.cargoId)).toBe("cerrado")

      // Only the charge credited by the operators settles the merchant.
      const acreditados = async () =>
        (await allEvents(stack.url, liveKey))
          .filter((e) => e.evento === "link.acreditado")
          .map((e) => e.data.link_id as string)
      await expect.poll(acreditados, { timeout: 20_000 }).toContain(missingLink)
      expect(
        (await allEvents(stack.url, liveKey)).filter(
          (e) => e.evento === "link.pagado" && e.data.link_id === paidLink
        )
      ).toHaveLength(1)
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })
})
