/**
 * The operators' console (/operador) in real Chromium against the built server: an operator
 * without its TOTP code gets no session; `soporte` sees merchants but no action, and the API
 * refuses it too; `riesgo` approves a pending merchant (settlement account in its own name),
 * reviews and suspends it, and the audit log shows each action. axe-core on every screen, at
 * 1280 px and 360 px (screenshots in artifacts/), and no console errors (a CSP refusal is one).
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { confirmDialog, expectScreen, launchChromium, openWindow } from "../support/browser.js"
import {
  allEvents,
  type Bank,
  eventually,
  liveMerchant,
  newLink,
  openPage,
  startBank
} from "../support/live.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-operador-larga"

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

const operador = async (rol: "soporte" | "riesgo" | "tesoreria") => {
  const email = `${rol}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
  const reply = await call(stack.url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { email, password: PASSWORD, rol }
  })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string }
}

const pendingMerchant = async () => {
  const codigo = `op${Date.now().toString(36)}`
  const reply = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Bodega ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@tienda.example`
    }
  })
  expect(reply.status).toBe(201)
  return { codigo, nombre: `Bodega ${codigo}` }
}

// The console asks whether a session exists (401 before sign-in) and a refused sign-in is a 401 too:
// openWindow leaves 401 and 403 out of the errors.
const open = (width: number) => openWindow(browser, width)

const screen = (page: Page, title: string, shot: string) =>
  expectScreen(page, title, title, `operador-${shot}.png`)

const signIn = async (page: Page, op: { email: string; secret: string }, codigo?: string) => {
  await page.getByLabel("Correo").fill(op.email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByLabel("Código de tu autenticador").fill(codigo ?? totpCode(op.secret, totpStep(Date.now())))
  await page.getByRole("button", { name: "Entrar" }).click()
}

describe("the console as served", () => {
  it("is never cached and carries a strict CSP", async () => {
    const response = await fetch(`${stack.url}/operador/comercios`)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(await response.text()).toContain("/panel/assets/operador-")
  })
})

describe("operators in the console", () => {
  it("without the TOTP code there is no session; soporte sees merchants but cannot approve (UI and API) (1280 px)", async () => {
    const soporte = await operador("soporte")
    const merchant = await pendingMerchant()
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/operador`)
      await screen(page, "Consola de operadores", "ingresar-1280")
      // The code is required: the form does not go out without it.
      await page.getByLabel("Correo").fill(soporte.email)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      expect(
        await page
          .getByLabel("Código de tu autenticador")
          .evaluate((e) => (e as unknown as { validity: { valid: boolean } }).validity.valid)
      ).toBe(false)
      // A wrong code is refused by the service.
      await signIn(page, soporte, "000000")
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("incorrectos")
      await screen(page, "Consola de operadores", "ingresar-error-1280")
      // And the API never opens a session without a code.
      const noCode = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
        body: { email: soporte.email, password: PASSWORD }
      })
      expect(noCode.status).toBe(401)

      await signIn(page, soporte)
      await screen(page, "Inicio", "inicio-soporte-1280")
      await page.getByRole("link", { name: "Comercios", exact: true }).click()
      await screen(page, "Comercios", "comercios-soporte-1280")
      await expect
        .poll(() => page.getByRole("heading", { name: new RegExp(merchant.nombre) }).count())
        .toBe(1)
      expect(await page.getByRole("button", { name: "Aprobar" }).count()).toBe(0)
      expect(await page.getByText("solo puede consultar").count()).toBe(1)
      // The server refuses the action to soporte even with a valid session and CSRF token.
      const refused = await page.evaluate(async (codigo) => {
        const sesion = (await (await fetch("/admin/v1/operador/sesion")).json()) as { csrf_token: string }
        const response = await fetch(`/admin/v1/operador/comercios/${codigo}/aprobar`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrf-token": sesion.csrf_token },
          body: "{}"
        })
        return { status: response.status, body: await response.json() }
      }, merchant.codigo)
      expect(refused).toEqual({
        status: 403,
        body: { error: "rol_insuficiente", detail: "El rol soporte no puede hacer esta acción." }
      })
      await page.getByRole("link", { name: "Auditoría" }).click()
      await screen(page, "Auditoría", "auditoria-soporte-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("riesgo approves a pending merchant, reviews and suspends it; the audit log shows each action (1280 px)", async () => {
    const riesgo = await operador("riesgo")
    const merchant = await pendingMerchant()
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/operador/comercios`)
      await signIn(page, riesgo)
      await screen(page, "Inicio", "inicio-riesgo-1280")
      await page.getByRole("link", { name: "Comercios", exact: true }).click()
      await screen(page, "Comercios", "comercios-riesgo-1280")
      const form = page.getByRole("form", { name: `Aprobar ${merchant.nombre}` })
      await form.getByLabel("Cuenta de liquidación (20 dígitos)").fill("01050194651194079423")
      await form.getByLabel("Nota (auditoría)").fill("KYC completo")
      await form.getByRole("button", { name: "Aprobar" }).click()
      await confirmDialog(page)
      await expect
        .poll(() => page.getByRole("status").textContent())
        .toBe(`${merchant.nombre} quedó aprobado.`)

      await page.getByRole("link", { name: "Activos" }).click()
      await screen(page, "Comercios", "comercios-activos-1280")
      await page
        .getByRole("form", { name: `Marcar revisado ${merchant.nombre}` })
        .getByRole("button")
        .click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("marcar revisado hecho")
      const suspend = page.getByRole("form", { name: `Suspender ${merchant.nombre}` })
      await suspend.getByLabel("Nota").fill("Contracargos")
      await suspend.getByRole("button", { name: "Suspender" }).click()
      await confirmDialog(page)
      await expect.poll(() => page.getByRole("status").textContent()).toContain("suspender hecho")

      const view = await call(stack.url, "GET", `/admin/v1/comercios/${merchant.codigo}`, {
        headers: { "x-admin-token": ADMIN_TOKEN }
      })
      expect(view.body).toMatchObject({ estado: "suspendido", revisado: true })

      await page.getByRole("link", { name: "Auditoría" }).click()
      await screen(page, "Auditoría", "auditoria-riesgo-1280")
      const rows = page.locator("tbody tr", { hasText: merchant.codigo })
      await expect.poll(() => rows.count()).toBe(3)
      expect(await rows.nth(0).textContent()).toContain("comercio.suspender")
      expect(await rows.nth(0).textContent()).toContain("Contracargos")
      expect(await rows.nth(2).textContent()).toContain("KYC completo")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("works on a 360-px phone: every screen fits, passes axe, and is saved as a screenshot", async () => {
    const riesgo = await operador("riesgo")
    await pendingMerchant()
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/operador`)
      await screen(page, "Consola de operadores", "ingresar-360")
      await signIn(page, riesgo)
      await screen(page, "Inicio", "inicio-360")
      await page.goto(`${stack.url}/operador/comercios?estado=pendiente`)
      await screen(page, "Comercios", "comercios-360")
      await page.goto(`${stack.url}/operador/auditoria`)
      await screen(page, "Auditoría", "auditoria-360")
      await page.getByRole("button", { name: "Salir" }).click()
      await screen(page, "Consola de operadores", "salir-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})

describe("money in review in the console", () => {
  let live: Stack
  let bank: Bank
  beforeAll(async () => {
    bank = await startBank()
    live = await startStack({
      SWITCH_BANK_URL: bank.url,
      SWITCH_CIERRE_BANCARIO: "0",
      SWITCH_API_POR_MINUTO: "100000"
    })
  }, 120_000)
  afterAll(async () => {
    await live?.stop()
    await bank?.close()
  })

  const operadorEn = async (rol: "soporte" | "tesoreria") => {
    const email = `${rol}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
    const reply = await call(live.url, "POST", "/admin/v1/operadores", {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { email, password: PASSWORD, rol }
    })
    expect(reply.status).toBe(201)
    return { email, secret: reply.body.totp_secret as string }
  }

  it("settlements a bank never answered reach the queue; tesoreria marks one paid, closes one, and pays one, each with four eyes", async () => {
    const { liveKey, codigo } = { ...(await liveMerchant(live.url, "consola")), codigo: "consola" }
    const patched = await call(live.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { liquidacion_inmediata: true }
    })
    expect(patched.status).toBe(200)
    // The bank takes the payers' debits but answers every credit with a 503: settlements go to review.
    await bank.fault({ ruta: "transferencia", tipo: "error_5xx", veces: 100 })
    const links: Array<string> = []
    for (let i = 0; i < 3; i++) {
      const payer = await bank.payer()
      const id = await newLink(live.url, liveKey, 50 + i)
      const otp = await bank.code(payer, (50 + i) * 100)
      const paid = await (await openPage(live.url, id)).pay(payer, otp)
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
      links.push(id)
    }
    const watcher = await operadorEn("soporte")
    const signed = await call(live.url, "POST", "/admin/v1/operador/sesion", {
      body: {
        email: watcher.email,
        password: PASSWORD,
        codigo: totpCode(watcher.secret, totpStep(Date.now()))
      }
    })
    const cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    const queue = async () =>
      (await call(live.url, "GET", "/admin/v1/operador/revision", { headers: { cookie } })).body
        .data as Array<{
        tipo: string
        id: string
        link_id: string
      }>
    await eventually(
      "three settlements in review",
      async () => (await queue()).filter((i) => i.tipo === "liquidacion").length === 3,
      40_000,
      250
    )
    const txnOf = async (link: string) => (await queue()).find((i) => i.link_id === link)?.id ?? ""
    const [t0, t1, t2] = [
      await txnOf(links[0] ?? ""),
      await txnOf(links[1] ?? ""),
      await txnOf(links[2] ?? "")
    ]
    await bank.clearFaults()
    const creditsBefore = (await bank.counters()).solicitudes.transferencia ?? 0

    const first = await operadorEn("tesoreria")
    const second = await operadorEn("tesoreria")
    const a = await open(1280)
    const b = await open(360)
    try {
      await a.page.goto(`${live.url}/operador/revision`)
      await signIn(a.page, first)
      await a.page.getByRole("link", { name: "Dinero en revisión" }).click()
      await screen(a.page, "Dinero en revisión", "revision-1280")

      const mark = a.page.getByRole("form", { name: `Marcar pagada ${t0}` })
      await mark.getByLabel("Referencia del banco").fill("EXTRACTO0042")
      await mark.getByRole("button", { name: "Marcar pagada" }).click()
      await confirmDialog(a.page)
      // SWITCH_CUATRO_OJOS_DESDE unset: marking paid and closing wait for a second operator too.
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toContain('Pedido "marcar pagada": otro operador de tesorería debe confirmarlo')

      const close = a.page.getByRole("form", { name: `Cerrar ${t1}` })
      await close.getByLabel("Nota (obligatoria)").fill("El pagador recibió un reverso del banco")
      await close.getByRole("button", { name: "Cerrar sin pagar" }).click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toContain('Pedido "cerrar sin pagar": otro operador de tesorería debe confirmarlo')
      await expect.poll(() => a.page.getByText("Pendiente de confirmación:").count()).toBe(2)

      await a.page
        .getByRole("form", { name: `Pagar ${t2}` })
        .getByRole("button")
        .click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toContain("otro operador de tesorería debe confirmarlo")
      // Four eyes: the operator who asked cannot confirm.
      await a.page
        .getByRole("form", { name: `Confirmar pago ${t2}` })
        .getByRole("button")
        .click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("alert").textContent())
        .toBe("Otro operador de tesorería debe confirmar este pago.")
      expect((await bank.counters()).solicitudes.transferencia ?? 0).toBe(creditsBefore)

      await b.page.goto(`${live.url}/operador/revision`)
      await signIn(b.page, second)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${live.url}/operador/revision`)
      await screen(b.page, "Dinero en revisión", "revision-360")
      await b.page
        .getByRole("form", { name: `Confirmar marcar pagada ${t0}` })
        .getByRole("button")
        .click()
      await confirmDialog(b.page)
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Marcada pagada con la referencia EXTRACTO0042.")
      await b.page
        .getByRole("form", { name: `Confirmar cerrar sin pagar ${t1}` })
        .getByRole("button")
        .click()
      await confirmDialog(b.page)
      await expect.poll(() => b.page.getByRole("status").textContent()).toBe("Cerrada sin pagar.")
      await b.page
        .getByRole("form", { name: `Confirmar pago ${t2}` })
        .getByRole("button")
        .click()
      await confirmDialog(b.page)
      // The bank takes the credit (ACEPTADA or already LIQUIDADA); asking it again settles it, sending nothing more.
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toMatch(/^(Pagada: referencia \S+|El banco responde: ACEPTADA)\.$/)
      await eventually(
        "the bank confirms the credit",
        async () => {
          const ask = b.page.getByRole("form", { name: `Consultar ${t2}` })
          if ((await ask.count()) === 0) return true
          await ask.getByRole("button").click()
          await b.page.waitForTimeout(500)
          return (await b.page.getByRole("status").textContent()) === "El banco responde: LIQUIDADA."
        },
        20_000,
        250
      )
      expect((await bank.counters()).solicitudes.transferencia ?? 0).toBe(creditsBefore + 1)
      await expect.poll(() => b.page.getByText("No hay dinero en revisión.").count()).toBe(1)

      const acreditado = (await allEvents(live.url, liveKey)).filter((e) => e.evento === "link.acreditado")
      expect(acreditado.map((e) => e.data.link_id).sort()).toEqual([links[0], links[2]].sort())
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })
})
