/**
 * The card pilot on the payment page in real Chromium, against the built server on embedded
 * Postgres, apps/card-sim (the external processor's hosted form) and apps/bank-sim, both in this
 * process. Build first: `npx turbo run build`. axe-core checks the card option and the screen
 * while the processor's form holds the link. The server's clock is moved through
 * SWITCH_RELOJ_ARCHIVO and the processor's with its own setting, for the 6-minute form and the
 * nightly close.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CardSim, startCardSim, TARJETAS } from "@switch/card-sim"
import { CardSignature } from "@switch/core"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Bank, liveMerchant, startBank } from "../support/live.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const CLAVE = "clave-del-procesador-de-prueba"
const RELOJ = join(mkdtempSync(join(tmpdir(), "switch-reloj-")), "desfase")
writeFileSync(RELOJ, "0")

/** Moves the server's and the processor's clocks `ms` ahead of the machine's. */
const moveClocks = async (ms: number) => {
  writeFileSync(RELOJ, String(ms))
  card.processor.config.relojDesfaseMs = ms
  // The server re-reads the file every 50 ms.
  await new Promise((r) => setTimeout(r, 300))
}

let stack: Stack
let bank: Bank
let card: CardSim
let browser: Browser
let liveKey: string

beforeAll(async () => {
  bank = await startBank()
  card = await startCardSim({ port: 0, clave: CLAVE })
  stack = await startStack({
    SWITCH_BANK_URL: bank.url,
    SWITCH_CARD_URL: card.url,
    SWITCH_CARD_CLAVE: CLAVE,
    SWITCH_TARJETA_TECHO: "5000",
    SWITCH_RELOJ_ARCHIVO: RELOJ,
    SWITCH_TARJETA_CIERRE_SEGUNDOS: "0.3",
    // The bank simulator accepts a settlement first; it is asked again after 30 s times this.
    SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.05"
  })
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  ;({ liveKey } = await liveMerchant(stack.url, "tarjetas"))
  const on = await call(stack.url, "PATCH", "/admin/v1/comercios/tarjetas", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { tarjeta_habilitada: true }
  })
  expect(on.status).toBe(200)
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  await card?.close()
  await bank?.close()
})

const newLink = async (key: string, monto = 100) => {
  const r = await call(stack.url, "POST", "/switch/v1/links", {
    key,
    body: { monto, concepto: "Zapatos", expira_horas: 24 }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(`axe.run(document, { rules: { "target-size": { enabled: true } } })
    .then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`)
}

const openPage = async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    // Chromium asks each origin for a favicon, which neither the page nor the processor has.
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico"))
      errors.push(`${m.location().url}: ${m.text()}`)
  })
  return { page, errors, close: () => context.close() }
}

/** On the processor's hosted form: types the card and pays. */
const payOnProcessorForm = async (page: Page, numero: string) => {
  await page.waitForURL(`${card.url}/formulario/**`)
  expect(await page.locator("#total").textContent()).toBe("Bs 103,00")
  await page.getByLabel("Número de tarjeta").fill(numero)
  await page.getByLabel("Vencimiento (MM/AA)").fill("12/30")
  await page.getByLabel("Código de seguridad").fill("123")
  await page.getByRole("button", { name: /Pagar/ }).click()
}

describe("card payment on the payer's page", () => {
  it("shows the surcharge before the payer chooses and an approved card ends on the receipt with the card reference", async () => {
    const id = await newLink(liveKey)
    const { page, errors, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    const option = page.locator("#tarjeta")
    await option.waitFor()
    expect(await option.textContent()).toContain("recargo de 3 %")
    expect(await page.locator("#tarjeta-total").textContent()).toBe("Bs 103,00")
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole("button", { name: "Pagar Bs 103,00 con tarjeta" }).click()
    await payOnProcessorForm(page, TARJETAS.aprobada)
    await page.waitForURL(`${stack.url}/l/${id}`)
    await page.locator("#recibo").waitFor({ timeout: 15_000 })
    expect(await page.locator("#recibo-referencia").textContent()).toMatch(/^TJ\d{8}$/)
    expect(await page.locator("#recibo-monto").textContent()).toBe("Bs 103,00")
    expect(await page.locator("#recibo-recargo").textContent()).toBe("Bs 3,00")
    expect(await axeViolations(page)).toEqual([])
    const events = await call(stack.url, "GET", "/switch/v1/eventos?evento=link.pagado", { key: liveKey })
    const paid = (events.body as Array<{ data: Record<string, unknown> }>).find((e) => e.data.link_id === id)
    expect(paid?.data).toMatchObject({ monto: 100, metodo: "tarjeta", recargo_tarjeta: 3 })
    expect(errors).toEqual([])
    await close()
  })

  it("after a declined card the payer pays another way, by immediate debit", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await payOnProcessorForm(page, TARJETAS.rechazada)
    await page.waitForURL(`${stack.url}/l/${id}`)
    // Declined: the link is open again, immediate debit is there.
    await page.locator("#pago").waitFor({ timeout: 15_000 })
    const payer = await bank.payer()
    const otp = await bank.code(payer, 10_000)
    await page.getByLabel("Tu banco", { exact: true }).selectOption(payer.banco)
    await page.getByLabel("Tipo de documento").selectOption("V")
    await page.getByLabel("Número de documento").fill(payer.identificacion)
    await page.getByLabel("Teléfono registrado en tu banco").fill(payer.telefono)
    await page.getByLabel("Código de 8 dígitos de tu banco").fill(otp)
    await page.locator("#pagar").click()
    await page.locator("#recibo").waitFor({ timeout: 20_000 })
    await close()
  })

  it("while the processor's form is open the page offers to pay another way, and nothing charged frees the link at once", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await page.waitForURL(`${card.url}/formulario/**`)
    // The payer closes the processor's page and comes back to the link.
    await page.goto(`${stack.url}/l/${id}`)
    await page.locator("#tarjeta-en-curso").waitFor()
    expect(await page.locator("#pago").count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole("button", { name: "Pagar de otra forma" }).click()
    await page.locator("#pago").waitFor({ timeout: 10_000 })
    expect(await page.locator("#tarjeta").isVisible()).toBe(true)
    await close()
  })

  it("a card form and an immediate debit racing on one link from two tabs: one payment", async () => {
    const id = await newLink(liveKey)
    const payer = await bank.payer()
    const otp = await bank.code(payer, 10_000)
    const cardTab = await openPage()
    const debitTab = await openPage()
    await cardTab.page.goto(`${stack.url}/l/${id}`)
    await debitTab.page.goto(`${stack.url}/l/${id}`)
    await debitTab.page.getByLabel("Tu banco", { exact: true }).selectOption(payer.banco)
    await debitTab.page.getByLabel("Tipo de documento").selectOption("V")
    await debitTab.page.getByLabel("Número de documento").fill(payer.identificacion)
    await debitTab.page.getByLabel("Teléfono registrado en tu banco").fill(payer.telefono)
    await debitTab.page.getByLabel("Código de 8 dígitos de tu banco").fill(otp)
    const before = (await bank.counters()).debitos_aplicados
    await Promise.all([
      cardTab.page.getByRole("button", { name: /con tarjeta/ }).click(),
      debitTab.page.locator("#pagar").click()
    ])
    const winner = await Promise.race([
      debitTab.page
        .locator("#recibo")
        .waitFor({ timeout: 20_000 })
        .then(() => "debito" as const),
      cardTab.page.waitForURL(`${card.url}/formulario/**`, { timeout: 20_000 }).then(() => "tarjeta" as const)
    ])
    if (winner === "debito") {
      // The debit won: the card was refused and its tab stays on the service.
      expect((await bank.counters()).debitos_aplicados).toBe(before + 1)
      await cardTab.page.waitForTimeout(500)
      expect(cardTab.page.url()).not.toContain(card.url)
    } else {
      // The card won: the debit was refused without reaching the bank; the card pays.
      await payOnProcessorForm(cardTab.page, TARJETAS.aprobada)
      await cardTab.page.locator("#recibo").waitFor({ timeout: 15_000 })
      expect((await bank.counters()).debitos_aplicados).toBe(before)
    }
    const events = await call(stack.url, "GET", "/switch/v1/eventos?evento=link.pagado", { key: liveKey })
    expect(
      (events.body as Array<{ data: Record<string, unknown> }>).filter((e) => e.data.link_id === id)
    ).toHaveLength(1)
    await cardTab.close()
    await debitTab.close()
  })

  it("the nightly close credits the card payment to the merchant, without the surcharge", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: "Pagar Bs 103,00 con tarjeta" }).click()
    await payOnProcessorForm(page, TARJETAS.aprobada)
    await page.locator("#recibo").waitFor({ timeout: 15_000 })
    const credited = async () =>
      (
        (await call(stack.url, "GET", "/switch/v1/eventos?evento=link.acreditado", { key: liveKey }))
          .body as Array<{
          data: Record<string, unknown>
        }>
      ).find((e) => e.data.link_id === id)
    expect(await credited()).toBeUndefined()
    // The next day, past the processor's close of the day that ended.
    await moveClocks(30 * 3600_000)
    try {
      await expect.poll(credited, { timeout: 20_000, interval: 250 }).toBeDefined()
      const event = await credited()
      // The merchant gets the amount less the commission; the Bs 3 surcharge is not theirs.
      expect(event?.data.monto_acreditado).toBeLessThanOrEqual(100)
      expect(event?.data.monto_acreditado).toBeGreaterThan(90)
    } finally {
      await moveClocks(0)
    }
    await close()
  })

  it("a form left open for 6 minutes expires: the processor refuses it and the payer's page offers immediate debit again", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await page.waitForURL(`${card.url}/formulario/**`)
    const form = page.url()
    await page.goto(`${stack.url}/l/${id}`)
    await page.locator("#tarjeta-en-curso").waitFor()
    await moveClocks(5 * 60_000)
    await page.waitForTimeout(2_500)
    expect(await page.locator("#tarjeta-en-curso").count()).toBe(1)
    await moveClocks(6 * 60_000 + 1_000)
    try {
      // The page follows by itself once the service released the link.
      await page.locator("#pago").waitFor({ timeout: 15_000 })
      expect(await page.locator("#tarjeta").isVisible()).toBe(true)
      expect(await axeViolations(page)).toEqual([])
      const late = await fetch(form, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ numero: TARJETAS.aprobada, vence: "12/30", cvv: "123" }).toString(),
        redirect: "manual"
      })
      expect(late.status).toBe(410)
    } finally {
      await moveClocks(0)
    }
    await close()
  })

  it("pay another way after the card was charged without an answer: the page shows the card receipt", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await page.waitForURL(`${card.url}/formulario/**`)
    // The card is charged, but the payer's browser never comes back and no callback is sent.
    const paid = await fetch(page.url(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ numero: TARJETAS.sinRespuesta, vence: "12/30", cvv: "123" }).toString(),
      redirect: "manual"
    })
    expect(paid.status).toBe(303)
    await page.goto(`${stack.url}/l/${id}`)
    await page.locator("#tarjeta-en-curso").waitFor()
    await page.getByRole("button", { name: "Pagar de otra forma" }).click()
    await page.locator("#recibo").waitFor({ timeout: 15_000 })
    expect(await page.locator("#recibo-recargo").textContent()).toBe("Bs 3,00")
    expect(await axeViolations(page)).toEqual([])
    await close()
  })

  it("a forged and a replayed callback are refused: the page keeps waiting until the processor's own approval", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await page.waitForURL(`${card.url}/formulario/**`)
    const cargoId = new URL(page.url()).pathname.split("/").pop() as string
    const body = JSON.stringify({
      id: `evt_${cargoId}`,
      evento: "cargo.aprobado",
      cargo_id: cargoId,
      referencia: "TJ99999999",
      monto: 10_300,
      creado_en: new Date().toISOString()
    })
    const send = (signature: string) =>
      fetch(`${stack.url}/tarjeta/callbacks`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-card-signature": signature },
        body
      })
    const now = Math.floor(Date.now() / 1000)
    expect((await send(CardSignature.header("otra-clave", now, body))).status).toBe(401)
    expect((await send(CardSignature.header(CLAVE, now - 3600, body))).status).toBe(401)
    const waiting = await openPage()
    await waiting.page.goto(`${stack.url}/l/${id}`)
    await waiting.page.locator("#tarjeta-en-curso").waitFor()
    await waiting.page.waitForTimeout(1_500)
    expect(await waiting.page.locator("#recibo").count()).toBe(0)
    // The processor's own signed approval pays it; the waiting page follows by itself.
    await payOnProcessorForm(page, TARJETAS.aprobada)
    await waiting.page.locator("#recibo").waitFor({ timeout: 15_000 })
    expect(await waiting.page.locator("#recibo-referencia").textContent()).not.toBe("TJ99999999")
    await waiting.close()
    await close()
  })

  it("the processor failing to open its form shows the payer why, and immediate debit stays available", async () => {
    const id = await newLink(liveKey)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    card.processor.config.fallarAperturas = 1
    await page.getByRole("button", { name: /con tarjeta/ }).click()
    await expect
      .poll(() => page.getByRole("alert").filter({ hasText: "procesador de tarjetas no respondió" }).count())
      .toBe(1)
    expect(page.url()).toBe(`${stack.url}/l/${id}`)
    expect(await page.locator("#pago").isVisible()).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    expect((await call(stack.url, "GET", `/l/${id}/estado`)).body.estado).toBe("pendiente")
    await close()
  })

  it("is not offered on test links", async () => {
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${await newLink(stack.demoKey)}`)
    await page.locator("#pago").waitFor()
    expect(await page.locator("#tarjeta").count()).toBe(0)
    await close()
  })
})
