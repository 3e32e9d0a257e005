/**
 * The payment page in real Chromium (Debian's /usr/bin/chromium via playwright-core) against
 * the built server on embedded Postgres. Build first: `npx turbo run build`. Test links use the
 * sandbox bank; live links go to the bank simulator in this process, whose faults make it slow.
 * axe-core is injected through the DevTools protocol, which the page's CSP does not govern.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Bank, liveMerchant, startBank } from "../support/live.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const TIENDA = "https://tienda.example"

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

let stack: Stack
let bank: Bank
let browser: Browser

beforeAll(async () => {
  bank = await startBank()
  stack = await startStack({ SWITCH_BANK_URL: bank.url, SWITCH_CIERRE_BANCARIO: "0" })
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  await bank?.close()
})

const newLink = async (body: Record<string, unknown> = {}, key = stack.demoKey) => {
  const r = await call(stack.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 1234.56, concepto: "Camisa azul talla M", ...body }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

/** A fresh page (own storage) whose requests to the merchant's shop are answered locally. */
const openPage = async (width = 390) => {
  const context = await browser.newContext({ viewport: { width, height: 800 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text())
  })
  await page.route(`${TIENDA}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<p>tienda</p>" })
  )
  return { page, errors, close: () => context.close() }
}

/** A merchant of its own (test key), `personal` or `empresa`, taking tips up to `propina` %. */
const newMerchant = async (codigo: string, tipo: "empresa" | "personal", propina?: number) => {
  const reg = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Comercio ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`,
      tipo
    }
  })
  expect(reg.status).toBe(201)
  if (propina !== undefined) {
    const patched = await call(stack.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { propina_max_pct: propina }
    })
    expect(patched.status).toBe(200)
  }
  return `${codigo}:${reg.body.api_key}`
}

const fillPayer = async (page: Page, payer = { banco: "0102", telefono: "04141234567" }) => {
  await page.getByLabel("Tu banco", { exact: true }).selectOption(payer.banco)
  await page.getByLabel("Tipo de documento").selectOption("V")
  await page.getByLabel("Número de documento").fill("12345678")
  await page.getByLabel("Teléfono registrado en tu banco").fill(payer.telefono)
}

const payWith = async (page: Page, otp: string) => {
  await page.getByLabel("Código de 8 dígitos de tu banco").fill(otp)
  await page.locator("#pagar").click()
}

/** The payer data the page keeps in this browser, or null. */
const stored = (page: Page) => page.evaluate<string | null>(`localStorage.getItem("switch-pagador")`)

/**
 * axe-core's violations on the page as it is now, one line each (rule and elements), with
 * WCAG 2.2's target size (off by default in axe) turned on. axe waits on timers, so on a page
 * whose clock is paused (`held`) the clock is moved a millisecond at a time until axe is done,
 * well short of a countdown's 3 seconds.
 */
const axeViolations = async (page: Page, held: boolean): Promise<Array<string>> => {
  await page.evaluate(AXE)
  let done = false
  const run = page
    .evaluate<
      Array<string>
    >(`axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`)
    .finally(() => {
      done = true
    })
  for (let moved = 0; held && !done && moved < 2_000; moved++) await page.clock.runFor(1)
  return run
}

/** Visible controls (links, buttons, fields) smaller than 24×24 CSS px, with their size. */
const smallTargets = (page: Page) =>
  page.evaluate<Array<string>>(`[...document.querySelectorAll("a[href], button, input, select, textarea")]
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => r.width > 0 && getComputedStyle(el).visibility !== "hidden")
    .filter(([, r]) => r.width < 24 || r.height < 24)
    .map(([el, r]) => (el.id || el.outerHTML.slice(0, 60)) + " " + r.width + "x" + r.height)`)

/**
 * Opens every state the payer can see, in turn, and hands each to `check`: the form (also with
 * saved data), field errors, a rejection, the processing screen, the receipt, the expired,
 * cancelled and paid pages (their countdowns held by a paused clock) and a link that does not
 * exist.
 */
const everyState = async (check: (state: string, page: Page, held: boolean) => Promise<void>) => {
  const { page, close } = await openPage()
  // A personal account taking tips: the form has every field the page can show.
  const key = await newMerchant(`estados${Date.now()}`, "personal", 10)
  await page.goto(`${stack.url}/l/${await newLink({ failure_url: `${TIENDA}/fallo` }, key)}`)
  await check("form", page, false)
  await page.locator("#pagar").click()
  await page.getByRole("alert").filter({ hasText: "Banco" }).waitFor()
  await check("error", page, false)
  await fillPayer(page)
  await page.getByLabel(/Propina/).fill("1.234,567")
  await payWith(page, "11111111")
  await page.getByRole("alert").filter({ hasText: "Propina" }).waitFor()
  await check("tip error", page, false)
  await page.getByLabel(/Propina/).fill("10")
  await payWith(page, "11111111")
  await page.getByRole("alert").filter({ hasText: "rechazó" }).waitFor()
  await check("rejected", page, false)
  await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
  await fillPayer(page)
  await payWith(page, "33333333")
  await page.locator("#procesando").waitFor()
  await check("processing", page, false)
  await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
  await fillPayer(page)
  await page.getByLabel(/Guardar mis datos/).check()
  await payWith(page, "12345678")
  await page.locator("#recibo").waitFor()
  await check("success", page, false)
  await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
  await page.getByRole("button", { name: "Olvidar mis datos" }).waitFor()
  await check("form with saved data", page, false)
  await close()

  for (const [state, prepare] of [
    [
      "expired",
      (id: string) =>
        call(stack.url, "POST", `/switch/v1/links/${id}/simular`, {
          key: stack.demoKey,
          body: { resultado: "expirado" }
        })
    ],
    [
      "cancelled",
      (id: string) => call(stack.url, "POST", `/switch/v1/links/${id}/cancelar`, { key: stack.demoKey })
    ],
    [
      "paid",
      (id: string) =>
        call(stack.url, "POST", `/switch/v1/links/${id}/simular`, {
          key: stack.demoKey,
          body: { resultado: "pagado" }
        })
    ]
  ] as const) {
    const id = await newLink({ success_url: `${TIENDA}/ok`, failure_url: `${TIENDA}/fallo` })
    expect((await prepare(id)).status).toBe(200)
    const held = await openPage()
    await held.page.clock.install()
    await held.page.clock.pauseAt(Date.now() + 1_000)
    await held.page.goto(`${stack.url}/l/${id}`)
    await held.page.getByRole("link", { name: "Volver ahora" }).waitFor()
    await check(state, held.page, true)
    await held.close()
  }
  const missing = await openPage()
  const response = await missing.page.goto(`${stack.url}/l/00000000-0000-4000-8000-000000000000`)
  expect(response?.status()).toBe(404)
  await check("not found", missing.page, false)
  await missing.close()
}

const transactionsOf = async (linkId: string) => {
  const r = await call(stack.url, "GET", "/switch/v1/transacciones?limit=200", { key: stack.demoKey })
  return (r.body as Array<{ link_id: string }>).filter((t) => t.link_id === linkId)
}

describe("paying a link in the browser", () => {
  it("pays a test link and reads the receipt, whose code verifies", async () => {
    const id = await newLink()
    const { page, errors, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await expect(page.locator(".prueba").textContent()).resolves.toContain("Modo de prueba")
    await expect(page.locator(".monto").textContent()).resolves.toBe("Bs 1.234,56")
    await fillPayer(page)
    await page.getByRole("button", { name: "Pedir código de pago" }).click()
    await page.locator("#info").filter({ hasText: "12345678" }).waitFor()
    await payWith(page, "12345678")
    await page.locator("#recibo").waitFor()
    await expect(page.locator("#recibo-monto").textContent()).resolves.toBe("Bs 1.234,56")
    const referencia = await page.locator("#recibo-referencia").textContent()
    expect(referencia).toMatch(/^PR\d{9}$/)
    const codigo = (await page.locator("#recibo-codigo").textContent()) ?? ""
    expect(codigo).toMatch(/^SW-[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    expect(await page.locator("#recibo-codigo").getAttribute("href")).toBe(`/switch/v1/verificar/${codigo}`)
    const verified = await call(stack.url, "GET", `/switch/v1/verificar/${codigo}`)
    expect(verified.body).toMatchObject({ valido: true, prueba: true, monto: 1234.56 })
    expect(errors).toEqual([])
    await close()
  })

  it("is rejected with a plain-Spanish reason, retries with a new code and pays", async () => {
    const id = await newLink()
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page)
    await payWith(page, "11111112")
    await page.getByRole("alert").filter({ hasText: "saldo suficiente" }).waitFor()
    expect(await page.locator("#otp").inputValue()).toBe("")
    const link = await call(stack.url, "GET", `/switch/v1/links/${id}`, { key: stack.demoKey })
    expect(link.body.estado).toBe("pendiente")
    await payWith(page, "12345678")
    await page.locator("#recibo").waitFor()
    expect(await transactionsOf(id)).toHaveLength(1)
    await close()
  })

  it("shows the processing screen for 33333333, returns to it on reload and turns paid by itself", async () => {
    const id = await newLink()
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page)
    // The screen shows before the bank answers; reloading returns to it once the bank took the payment.
    const taken = page.waitForResponse((r) => r.url().endsWith("/pagar"))
    await payWith(page, "33333333")
    await page.locator("#procesando").waitFor()
    expect(await page.locator("#pago").isVisible()).toBe(false)
    expect(await (await taken).json()).toEqual({ estado: "procesando" })
    await page.reload()
    await page.locator("#procesando").waitFor()
    expect(await page.locator("#pagar").count()).toBe(0)
    await page.locator("#recibo").waitFor({ timeout: 20_000 })
    await close()
  })

  it("returns to success_url after 3 seconds with estado and referencia", async () => {
    const id = await newLink({ success_url: `${TIENDA}/gracias?orden=77` })
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page)
    const started = Date.now()
    const back = page.waitForRequest((r) => r.url().startsWith(`${TIENDA}/gracias`), { timeout: 15_000 })
    await payWith(page, "12345678")
    await page.getByRole("link", { name: "Volver ahora" }).waitFor()
    const referencia = (await page.locator("#recibo-referencia").textContent()) ?? ""
    const target = new URL((await back).url())
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500)
    expect(target.searchParams.get("orden")).toBe("77")
    expect(target.searchParams.get("estado")).toBe("pagado")
    expect(target.searchParams.get("referencia")).toBe(referencia)
    await close()
  })

  it("returns to failure_url with cancelado, expirado, and rechazado when the payer gives up", async () => {
    const { page, close } = await openPage()
    const cancelled = await newLink({ failure_url: `${TIENDA}/fallo` })
    await call(stack.url, "POST", `/switch/v1/links/${cancelled}/cancelar`, { key: stack.demoKey })
    let back = page.waitForRequest((r) => r.url().startsWith(`${TIENDA}/fallo`))
    await page.goto(`${stack.url}/l/${cancelled}`, { waitUntil: "commit" })
    await page.getByRole("heading", { name: "Este link de pago fue cancelado" }).waitFor()
    expect(new URL((await back).url()).searchParams.get("estado")).toBe("cancelado")
    // Let the page land at the shop before the next navigation, which would interrupt it.
    await page.waitForURL(`${TIENDA}/fallo?estado=cancelado`)

    const expired = await newLink({ failure_url: `${TIENDA}/fallo` })
    await call(stack.url, "POST", `/switch/v1/links/${expired}/simular`, {
      key: stack.demoKey,
      body: { resultado: "expirado" }
    })
    back = page.waitForRequest((r) => r.url().startsWith(`${TIENDA}/fallo`))
    await page.goto(`${stack.url}/l/${expired}`, { waitUntil: "commit" })
    await page.getByRole("heading", { name: "Este link de pago expiró" }).waitFor()
    expect(new URL((await back).url()).searchParams.get("estado")).toBe("expirado")
    await page.waitForURL(`${TIENDA}/fallo?estado=expirado`)

    const rejected = await newLink({ failure_url: `${TIENDA}/fallo` })
    await page.goto(`${stack.url}/l/${rejected}`)
    await fillPayer(page)
    await payWith(page, "11111111")
    await page.getByRole("alert").filter({ hasText: "rechazó" }).waitFor()
    back = page.waitForRequest((r) => r.url().startsWith(`${TIENDA}/fallo`))
    await page.getByRole("button", { name: "Cancelar y volver al comercio" }).click()
    expect(new URL((await back).url()).searchParams.get("estado")).toBe("rechazado")
    await close()
  })

  it("joins the merchant's customers through the checkbox, which needs the name; the API never shows the payer's data", async () => {
    const id = await newLink()
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page)
    await page.getByLabel(/Quiero ser cliente/).check()
    await payWith(page, "12345678")
    await page.getByRole("alert").filter({ hasText: "nombre" }).waitFor()
    await page.getByLabel(/Tu nombre/).fill("Ana Pérez")
    await payWith(page, "12345678")
    await page.locator("#recibo").waitFor()
    const clientes = await call(stack.url, "GET", "/switch/v1/clientes", { key: stack.demoKey })
    expect(clientes.status).toBe(200)
    expect(clientes.body).toContainEqual(expect.objectContaining({ prueba: true, acepta_novedades: false }))
    expect(JSON.stringify(clientes.body)).not.toMatch(/Ana|12345678|04141234567/)
    const link = await call(stack.url, "GET", `/switch/v1/links/${id}`, { key: stack.demoKey })
    expect(link.body.pagador).toEqual({ alta_cliente: true })
    // The browser remembers the payer locally: a new link opens with the data filled in.
    await page.goto(`${stack.url}/l/${await newLink()}`)
    expect(await page.locator("#telefono").inputValue()).toBe("04141234567")
    expect(await page.locator("#nombre").inputValue()).toBe("Ana Pérez")
    await close()
  })

  it("double-clicking pay charges once", async () => {
    const id = await newLink()
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page)
    await page.locator("#otp").fill("12345678")
    await page.locator("#pagar").dblclick()
    await page.locator("#recibo").waitFor()
    expect(await transactionsOf(id)).toHaveLength(1)
    await close()
  })

  it("fits a 360-pixel-wide phone, sends a strict CSP, comes in one compressed answer under 40 KB (screenshot saved)", async () => {
    const id = await newLink()
    const { page, errors, close } = await openPage(360)
    const requests: Array<string> = []
    page.on("request", (r) => requests.push(r.url()))
    const response = await page.goto(`${stack.url}/l/${id}`)
    const csp = response?.headers()["content-security-policy"] ?? ""
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("unsafe-inline")
    // Everything needed to pay is in the one answer (issue 46): no other request, compressed.
    expect(response?.headers()["content-encoding"]).toBe("br")
    await page.locator("#app[data-listo]").waitFor({ state: "attached" })
    expect(requests).toEqual([`${stack.url}/l/${id}`])
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(360)
    const html = (await response?.text()) ?? ""
    expect(html).not.toMatch(/<script src|<link rel="stylesheet"/)
    const bytes = Buffer.byteLength(html)
    const sizes = await response?.request().sizes()
    console.log(`page weight: ${bytes} bytes uncompressed, ${sizes?.responseBodySize} bytes on the wire`)
    expect(bytes).toBeLessThanOrEqual(40 * 1024)
    expect(sizes?.responseBodySize ?? bytes).toBeLessThanOrEqual(10 * 1024)
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: resolve(ARTIFACTS, "checkout-360.png"), fullPage: true })
    expect(errors).toEqual([])
    await close()
  })
})

describe("the payer's page", () => {
  it("the processing screen shows as soon as the payer submits, before the bank answers", async () => {
    const { liveKey } = await liveMerchant(stack.url, "lento")
    const payer = await bank.payer()
    const id = await newLink({ monto: 50 }, liveKey)
    const otp = await bank.code(payer, 5_000)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    await fillPayer(page, payer)
    await page.getByLabel("Código de 8 dígitos de tu banco").fill(otp)
    await bank.fault({ ruta: "debito", tipo: "latencia", ms: 6_000, veces: 1 })
    const before = await bank.counters()
    let answered = false
    const reply = page
      .waitForResponse((r) => r.url().endsWith("/pagar"))
      .then((r) => {
        answered = true
        return r
      })
    await page.locator("#pagar").click()
    await page.locator("#procesando").waitFor({ timeout: 2_000 })
    expect(await page.locator("#pago").isVisible()).toBe(false)
    // The bank is still sleeping on the debit: nothing answered, nothing debited.
    expect(answered).toBe(false)
    expect((await bank.counters()).debitos_aplicados).toBe(before.debitos_aplicados)
    expect((await reply).status()).toBe(200)
    await page.locator("#recibo").waitFor({ timeout: 20_000 })
    expect((await bank.counters()).debitos_aplicados).toBe(before.debitos_aplicados + 1)
    await close()
  })

  it("a personal merchant's page stores nothing in this browser while 'Guardar mis datos' is unchecked", async () => {
    const key = await newMerchant("personal-sin-guardar", "personal")
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
    expect(await page.getByLabel(/Guardar mis datos/).isChecked()).toBe(false)
    await fillPayer(page)
    await page.getByLabel(/Tu nombre/).fill("Ana Pérez")
    await payWith(page, "12345678")
    await page.locator("#recibo").waitFor()
    expect(await stored(page)).toBeNull()
    expect(await page.evaluate<number>("localStorage.length")).toBe(0)
    await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
    expect(await page.locator("#telefono").inputValue()).toBe("")
    expect(await page.getByRole("button", { name: "Olvidar mis datos" }).isVisible()).toBe(false)
    await close()
  })

  it("'Guardar mis datos' checked stores the payer's data, and 'Olvidar mis datos' clears it and the form", async () => {
    const key = await newMerchant("personal-guardar", "personal")
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
    await fillPayer(page)
    await page.getByLabel(/Tu nombre/).fill("Ana Pérez")
    await page.getByLabel(/Guardar mis datos/).check()
    await payWith(page, "12345678")
    await page.locator("#recibo").waitFor()
    expect(JSON.parse((await stored(page)) ?? "{}")).toMatchObject({
      telefono: "04141234567",
      nombre: "Ana Pérez"
    })

    await page.goto(`${stack.url}/l/${await newLink({}, key)}`)
    expect(await page.locator("#telefono").inputValue()).toBe("04141234567")
    await page.getByRole("button", { name: "Olvidar mis datos" }).click()
    expect(await stored(page)).toBeNull()
    for (const field of ["#banco", "#identificacion", "#telefono", "#nombre"])
      expect(await page.locator(field).inputValue()).toBe("")
    expect(await page.getByRole("button", { name: "Olvidar mis datos" }).isVisible()).toBe(false)
    await page.reload()
    expect(await page.locator("#telefono").inputValue()).toBe("")
    await close()
  })

  it("a tip typed the Venezuelan way moves the pay button's total, and processing and success show amount plus tip", async () => {
    const key = await newMerchant("propinas", "empresa", 100)
    const id = await newLink({ monto: 2000 }, key)
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${id}`)
    const propina = page.getByLabel(/Propina/)
    for (const [typed, button] of [
      ["1.234,56", "Pagar Bs 3.234,56"],
      ["1234,56", "Pagar Bs 3.234,56"],
      ["1.234", "Pagar Bs 3.234,00"],
      ["1234.56", "Pagar Bs 3.234,56"],
      ["", "Pagar Bs 2.000,00"],
      ["1.234,56", "Pagar Bs 3.234,56"]
    ] as const) {
      await propina.fill(typed)
      expect(await page.locator("#pagar").textContent()).toBe(button)
    }
    await fillPayer(page)
    const taken = page.waitForResponse((r) => r.url().endsWith("/pagar"))
    await payWith(page, "33333333")
    await page.locator("#procesando").waitFor()
    await expect(page.locator("#procesando").textContent()).resolves.toContain("Bs 3.234,56")
    await taken
    await page.reload()
    await page.locator("#procesando").waitFor()
    await expect(page.locator("#procesando").textContent()).resolves.toContain("Bs 3.234,56")
    await page.locator("#recibo").waitFor({ timeout: 20_000 })
    await expect(page.locator("#recibo-monto").textContent()).resolves.toBe("Bs 3.234,56")
    await expect(page.locator(".monto").textContent()).resolves.toBe("Bs 3.234,56")
    const link = await call(stack.url, "GET", `/switch/v1/links/${id}`, { key })
    expect(link.body).toMatchObject({ monto: 2000, propina: 1234.56, total: 3234.56 })
    await close()
  })

  it("the test-mode banner shows on a test link's open pages only, not once it expired, was cancelled or paid", async () => {
    const { page, close } = await openPage()
    await page.goto(`${stack.url}/l/${await newLink()}`)
    expect(await page.locator(".prueba").isVisible()).toBe(true)
    for (const [resultado, heading] of [
      ["expirado", "Este link de pago expiró"],
      ["cancelado", "Este link de pago fue cancelado"],
      ["pagado", "Pago exitoso"]
    ] as const) {
      const id = await newLink()
      const r =
        resultado === "cancelado"
          ? await call(stack.url, "POST", `/switch/v1/links/${id}/cancelar`, { key: stack.demoKey })
          : await call(stack.url, "POST", `/switch/v1/links/${id}/simular`, {
              key: stack.demoKey,
              body: { resultado }
            })
      expect(r.status).toBe(200)
      await page.goto(`${stack.url}/l/${id}`)
      await page.getByRole("heading", { name: heading }).waitFor()
      expect(await page.locator(".prueba").count()).toBe(0)
    }
    await close()
  })

  it("every control on every page state is a touch target of at least 24×24 CSS px", async () => {
    const small: Record<string, Array<string>> = {}
    await everyState(async (state, page) => {
      const found = await smallTargets(page)
      if (found.length > 0) small[state] = found
    })
    expect(small).toEqual({})
  })

  it("axe-core reports no violations on any page state", async () => {
    const violations: Record<string, Array<string>> = {}
    await everyState(async (state, page, held) => {
      const found = await axeViolations(page, held)
      if (found.length > 0) violations[state] = found
    })
    expect(violations).toEqual({})
  })
})
