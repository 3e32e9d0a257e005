/**
 * A split from the portal's link detail to the console's resolution (issue 42), real Chromium
 * against the built server: a link with a split paid after immediate settlement was turned off
 * goes to review; the owner sees each part's state (masked account) in the link's detail;
 * `tesoreria` marks one part paid and a second operator closes the other in the console's queue;
 * the link's detail then shows the parts paid and closed. axe-core at 1280 px and 360 px
 * (screenshots in artifacts/), no sideways scroll, no console errors.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const PASSWORD = "clave-del-reparto-larga"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  // Four eyes is not this suite's subject (browser/operadorCola.test.ts): one operator resolves a part.
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000", SWITCH_CUATRO_OJOS_DESDE: "1000000" })
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  mkdirSync(ARTIFACTS, { recursive: true })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const admin = (method: string, path: string, body?: unknown) =>
  call(stack.url, method, path, {
    headers: { "x-admin-token": ADMIN_TOKEN },
    ...(body === undefined ? {} : { body })
  })

const ACCOUNTS: Record<number, string> = { 1: "01020194280000000001", 2: "01020194260000000002" }
const beneficiary = (n: number) => ({
  tipo: "cuenta",
  valor: ACCOUNTS[n],
  banco: "0102",
  identificacion: "V-12345678",
  nombre: `Beneficiaria ${n}`
})

const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(
    `axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`
  )
}

const open = async (width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.getByText("Cargando…").count()).toBe(0)
  expect(await axeViolations(page), `${shot}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${shot}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `reparto-${shot}.png`), fullPage: true })
}

const operator = async () => {
  const email = `tes-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
  const reply = await admin("POST", "/admin/v1/operadores", { email, password: PASSWORD, rol: "tesoreria" })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string }
}

describe("a split from the portal's link detail to the console", () => {
  it("the owner sees each part in review, tesoreria resolves them, the detail shows them paid and closed (1280 and 360 px)", async () => {
    const codigo = `split${Date.now().toString(36)}`
    const email = `${codigo}@tienda.example`
    const registered = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: `Bodega ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
    })
    expect(registered.status).toBe(201)
    const key = `${codigo}:${registered.body.api_key}`
    expect(
      (
        await admin("PATCH", `/admin/v1/comercios/${codigo}`, {
          split_habilitado: true,
          liquidacion_inmediata: true
        })
      ).status
    ).toBe(200)
    for (const n of [1, 2])
      await admin("POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, beneficiary(n))
    const created = await call(stack.url, "POST", "/switch/v1/links", {
      key,
      body: {
        monto: 100,
        concepto: "Pedido con reparto",
        split: [
          { cuenta: beneficiary(1), porcentaje: 30 },
          { cuenta: beneficiary(2), monto: 20 }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const linkId = created.body.id as string
    // Immediate settlement turned off before the payment: the split goes to review.
    await admin("PATCH", `/admin/v1/comercios/${codigo}`, { liquidacion_inmediata: false })
    expect(
      (
        await call(stack.url, "POST", `/switch/v1/links/${linkId}/simular`, {
          key,
          body: { resultado: "pagado" }
        })
      ).status
    ).toBe(200)

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
      expect(await reparto.textContent()).toContain(`···${ACCOUNTS[1]?.slice(-4)}`)
      expect(await owner.page.content()).not.toContain(ACCOUNTS[1])
      await screen(owner.page, "Detalle del link", "detalle-revision-1280")

      const op = await operator()
      const other = await operator()
      await a.page.goto(`${stack.url}/operador/revision`)
      await a.page.getByLabel("Correo").fill(op.email)
      await a.page.getByLabel("Contraseña").fill(PASSWORD)
      await a.page.getByLabel("Código de tu autenticador").fill(totpCode(op.secret, totpStep(Date.now())))
      await a.page.getByRole("button", { name: "Entrar" }).click()
      await a.page.getByRole("link", { name: "Dinero en revisión" }).click()
      await expect.poll(() => a.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(2)
      expect(await a.page.getByText("la liquidación inmediata del comercio está desactivada").count()).toBe(2)
      await screen(a.page, "Dinero en revisión", "cola-1280")
      const mark = a.page.getByRole("form", { name: `Marcar pagada ${linkId}:0` })
      await mark.getByLabel("Referencia del banco").fill("EXTRACTO4242")
      await mark.getByRole("button", { name: "Marcar pagada" }).click()
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe("Marcada pagada con la referencia EXTRACTO4242.")

      await b.page.goto(`${stack.url}/operador/revision`)
      await b.page.getByLabel("Correo").fill(other.email)
      await b.page.getByLabel("Contraseña").fill(PASSWORD)
      await b.page.getByLabel("Código de tu autenticador").fill(totpCode(other.secret, totpStep(Date.now())))
      await b.page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/revision`)
      await expect.poll(() => b.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(1)
      await screen(b.page, "Dinero en revisión", "cola-360")
      const close = b.page.getByRole("form", { name: `Cerrar ${linkId}:1` })
      await close.getByLabel("Nota (obligatoria)").fill("El beneficiario renunció a su parte")
      await close.getByRole("button", { name: "Cerrar sin pagar" }).click()
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
