/**
 * The queue's other sources in the console, real Chromium against the built server: split
 * parts in review (a test link whose split the net no longer covers) show with their
 * beneficiary and the bank's latest answer; `tesoreria` asks to mark one part paid and another
 * operator confirms it, then the second asks to close the other and the first confirms (four eyes,
 * SWITCH_CUATRO_OJOS_DESDE unset; the split finishes: `link.acreditado` once), and the bank
 * answers' history opens. axe-core at
 * 1280 px and 360 px (screenshots in artifacts/), no sideways scroll, no console errors.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
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
import { allEvents } from "../support/live.js"
import { simulatePaid, splitBeneficiary, splitMerchant } from "../support/split.js"
import { call, type Stack, startStack } from "../support/stack.js"

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

const open = (width: number) => openWindow(browser, width)

const screen = (page: Page, title: string, shot: string) =>
  expectScreen(page, title, title, `operador-${shot}.png`)

const tesoreria = (rol = "tesoreria") => newOperator(stack.url, PASSWORD, rol)

const signIn = (page: Page, op: Operator) => signInOperator(page, op, PASSWORD)

describe("split parts in review in the console", () => {
  it("shows each part; marking one paid and closing the other each take a second tesoreria operator, the split finishes and the history opens (1280 and 360 px)", async () => {
    const codigo = `rep${Date.now().toString(36)}`
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
    await admin("PATCH", `/admin/v1/comercios/${codigo}`, { comision_pct: 5 })
    await simulatePaid(stack.url, key, linkId)

    const op = await tesoreria()
    // A code is accepted once: the phone signs in as a second tesoreria operator.
    const other = await tesoreria()
    const a = await open(1280)
    const b = await open(360)
    try {
      await a.page.goto(`${stack.url}/operador/revision`)
      await signIn(a.page, op)
      await a.page.getByRole("link", { name: "Dinero en revisión" }).click()
      await expect.poll(() => a.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(2)
      await screen(a.page, "Dinero en revisión", "cola-1280")

      const mark = a.page.getByRole("form", { name: `Marcar pagada ${linkId}:0` })
      await mark.getByLabel("Referencia del banco").fill("EXTRACTO0077")
      await mark.getByRole("button", { name: "Marcar pagada" }).click()
      await confirmDialog(a.page)
      // Four eyes: only asked for; nothing moved, and its requester has no confirm button.
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe(
          'Pedido "marcar pagada": otro operador de tesorería debe confirmarlo; nada cambia hasta entonces.'
        )
      await expect.poll(() => a.page.getByText("Pendiente de confirmación:").count()).toBe(1)
      expect(await a.page.getByRole("form", { name: `Confirmar marcar pagada ${linkId}:0` }).count()).toBe(0)
      expect(await a.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(2)
      await screen(a.page, "Dinero en revisión", "cola-pendiente-1280")

      // Nothing was sent to the bank for this part: its history is empty, and asking says so.
      await a.page.getByRole("button", { name: `Ver respuestas del banco de ${linkId}:1` }).click()
      await expect.poll(() => a.page.getByText("Sin respuestas del banco todavía.").count()).toBe(1)

      await b.page.goto(`${stack.url}/operador/revision`)
      await signIn(b.page, other)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/revision`)
      await expect.poll(() => b.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(2)
      await screen(b.page, "Dinero en revisión", "cola-360")
      // Another operator confirms what the first asked for.
      await b.page
        .getByRole("form", { name: `Confirmar marcar pagada ${linkId}:0` })
        .getByRole("button", { name: "Confirmar marcar pagada" })
        .click()
      await confirmDialog(b.page)
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Marcada pagada con la referencia EXTRACTO0077.")
      await expect.poll(() => b.page.getByText("Parte del reparto de", { exact: false }).count()).toBe(1)
      const close = b.page.getByRole("form", { name: `Cerrar ${linkId}:1` })
      await close.getByLabel("Nota (obligatoria)").fill("La beneficiaria renunció a su parte")
      await close.getByRole("button", { name: "Cerrar sin pagar" }).click()
      await confirmDialog(b.page)
      await expect.poll(() => b.page.getByRole("status").textContent()).toContain('Pedido "cerrar sin pagar"')
      await a.page.reload()
      await a.page
        .getByRole("form", { name: `Confirmar cerrar sin pagar ${linkId}:1` })
        .getByRole("button", { name: "Confirmar cerrar sin pagar" })
        .click()
      await confirmDialog(a.page)
      await expect.poll(() => a.page.getByRole("status").textContent()).toBe("Cerrada sin pagar.")
      await expect.poll(() => a.page.getByText("No hay dinero en revisión.").count()).toBe(1)

      const acreditado = (await allEvents(stack.url, key)).filter(
        (e) => e.evento === "link.acreditado" && e.data.link_id === linkId
      )
      expect(acreditado).toHaveLength(1)
      expect(acreditado[0]?.data.reparto).toMatchObject({ estado: "cerrado", monto_repartido: 60 })
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe("BCV rate, incidents and alerts in the console", () => {
  it("tesoreria sets the rate by hand and sees who set each; opens and closes an incident shown by /estado; the home lists the alerts (1280 and 360 px)", async () => {
    const op = await tesoreria()
    const other = await tesoreria()
    const a = await open(1280)
    const b = await open(360)
    try {
      await a.page.goto(`${stack.url}/operador`)
      await signIn(a.page, op)
      await expect.poll(() => a.page.locator("h1").textContent()).toBe("Inicio")
      // No rate yet: the checks raise the stale-rate alert, which the home lists.
      await expect
        .poll(
          async () => {
            await a.page.reload()
            await expect.poll(() => a.page.locator("h1").textContent()).toBe("Inicio")
            await expect.poll(() => a.page.getByText("Cargando…").count()).toBe(0)
            return a.page.getByRole("list", { name: "Alertas abiertas" }).textContent()
          },
          { timeout: 20_000, interval: 1000 }
        )
        .toContain("La tasa BCV tiene más de 48 h o no existe")
      await screen(a.page, "Inicio", "inicio-alertas-1280")

      await a.page.getByRole("link", { name: "Tasa BCV" }).click()
      await screen(a.page, "Tasa BCV", "tasa-1280")
      const form = a.page.getByRole("form", { name: "Fijar la tasa a mano" })
      await form.getByLabel("Bolívares por dólar").fill("36,5012")
      await form.getByLabel("Nota").fill("Publicada por el BCV")
      await form.getByRole("button", { name: "Fijar tasa" }).click()
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe("Tasa fijada: Bs 36,5012 por dólar.")
      await expect.poll(() => a.page.getByRole("table").textContent()).toContain(op.email)
      expect(await a.page.getByText("Al día").count()).toBe(1)
      // A hundredfold jump is only proposed: its proposer cannot confirm it.
      await form.getByLabel("Bolívares por dólar").fill("3650")
      await form.getByLabel("Nota").fill("")
      await form.getByRole("button", { name: "Fijar tasa" }).click()
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toContain("Tasa propuesta: Bs 3650 por dólar")
      await expect.poll(() => a.page.getByText("La propusiste tú").count()).toBe(1)
      expect(await a.page.getByRole("button", { name: "Confirmar tasa propuesta" }).count()).toBe(0)
      await screen(a.page, "Tasa BCV", "tasa-propuesta-1280")

      await a.page.getByRole("link", { name: "Incidentes" }).click()
      await screen(a.page, "Incidentes", "incidentes-1280")
      const incident = a.page.getByRole("form", { name: "Abrir un incidente" })
      await incident.getByLabel("Código del banco (4 dígitos)").fill("0105")
      await incident.getByLabel("Título").fill("Débitos con demora")
      await incident.getByRole("button", { name: "Abrir incidente" }).click()
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe("Incidente abierto para el banco 0105.")
      const estado = await call(stack.url, "GET", "/estado.json")
      expect(estado.body.incidentes_bancos[0]).toMatchObject({
        banco: "0105",
        titulo: "Débitos con demora",
        activo: true
      })

      await b.page.goto(`${stack.url}/operador/incidentes`)
      await signIn(b.page, other)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/incidentes`)
      await screen(b.page, "Incidentes", "incidentes-360")
      await b.page
        .getByRole("button", { name: "Cerrar incidente del banco 0105: Débitos con demora" })
        .click()
      await confirmDialog(b.page)
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Incidente del banco 0105 cerrado.")
      await b.page.goto(`${stack.url}/operador/tasa-bcv`)
      await screen(b.page, "Tasa BCV", "tasa-360")
      // Another tesoreria operator confirms the proposed rate.
      expect(await b.page.getByRole("heading", { name: "Tasa por confirmar" }).count()).toBe(1)
      await b.page.getByRole("button", { name: "Confirmar tasa propuesta" }).click()
      await confirmDialog(b.page)
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Tasa confirmada: Bs 3650 por dólar.")
      await expect.poll(() => b.page.getByRole("table").textContent()).toContain(other.email)
      await b.page.goto(`${stack.url}/operador`)
      await screen(b.page, "Inicio", "inicio-360")
      expect((await call(stack.url, "GET", "/estado.json")).body.incidentes_bancos[0].activo).toBe(false)
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe("operators in the console", () => {
  it("riesgo resets another operator's TOTP without seeing a secret; that operator enrols at its next sign-in; riesgo deactivates it (1280 and 360 px)", async () => {
    const riesgo = await tesoreria("riesgo")
    const target = await tesoreria("soporte")
    const a = await open(1280)
    const b = await open(360)
    try {
      await a.page.goto(`${stack.url}/operador/operadores`)
      await signIn(a.page, riesgo)
      await a.page.getByRole("link", { name: "Operadores" }).click()
      await expect.poll(() => a.page.getByText(target.email).count()).toBe(1)
      await screen(a.page, "Operadores", "operadores-1280")
      await a.page.getByRole("button", { name: `Restablecer TOTP de ${target.email}` }).click()
      await confirmDialog(a.page)
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe(`TOTP de ${target.email} restablecido: configurará su autenticador nuevo al volver a entrar.`)
      await expect.poll(() => a.page.getByText("configurará su autenticador al entrar").count()).toBe(1)
      // riesgo is shown no secret.
      expect(await a.page.getByTestId("totp-secreto").count()).toBe(0)
      expect(await a.page.locator("body").textContent()).not.toMatch(/otpauth:|[A-Z2-7]{32}/)

      // The operator concerned: its old code no longer works; after its password it sees the new secret.
      await b.page.goto(`${stack.url}/operador`)
      await signIn(b.page, target)
      await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("incorrectos")
      await b.page.getByRole("button", { name: "Me restablecieron el autenticador" }).click()
      await b.page.getByLabel("Correo").fill(target.email)
      await b.page.getByLabel("Contraseña").fill(PASSWORD)
      await b.page.getByRole("button", { name: "Continuar" }).click()
      await expect.poll(() => b.page.getByTestId("totp-secreto").count()).toBe(1)
      await screen(b.page, "Configurar tu autenticador", "enrolar-totp-360")
      const secret = ((await b.page.getByTestId("totp-secreto").textContent()) ?? "").trim()
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      expect(secret).not.toBe(target.secret)
      await b.page.getByLabel("Código de tu autenticador nuevo").fill(totpCode(secret, totpStep(Date.now())))
      await b.page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/operadores`)
      await screen(b.page, "Operadores", "operadores-360")

      await a.page.reload()
      await expect.poll(() => a.page.getByText("configurará su autenticador al entrar").count()).toBe(0)
      await a.page.getByRole("button", { name: `Desactivar a ${target.email}` }).click()
      await confirmDialog(a.page)
      await expect.poll(() => a.page.getByRole("status").textContent()).toBe(`${target.email} desactivado.`)
      // Deactivated: it cannot sign in.
      const refused = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
        body: { email: target.email, password: PASSWORD, codigo: totpCode(secret, totpStep(Date.now()) + 1) }
      })
      expect(refused.status).toBe(401)
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe("the split's block list in the console (riesgo only)", () => {
  it("riesgo blocks and unblocks an account; tesoreria has no such screen (1280 and 360 px)", async () => {
    const riesgo = await tesoreria("riesgo")
    // A second riesgo operator for the narrow screen: a TOTP code is accepted once.
    const riesgo2 = await tesoreria("riesgo")
    const otro = await tesoreria("tesoreria")
    const a = await open(1280)
    const b = await open(360)
    try {
      await a.page.goto(`${stack.url}/operador`)
      await signIn(a.page, riesgo)
      await expect.poll(() => a.page.locator("h1").textContent()).toBe("Inicio")
      await a.page.getByRole("link", { name: "Cuentas bloqueadas" }).click()
      await screen(a.page, "Cuentas bloqueadas", "cuentas-bloqueadas-1280")
      const form = a.page.getByRole("form", { name: "Bloquear una cuenta" })
      await form.getByLabel("Código del banco (4 dígitos)").fill("0102")
      await form.getByLabel("Número").fill("01020194260000000002")
      await form.getByLabel("Motivo").fill("Fraude reportado")
      await form.getByRole("button", { name: "Bloquear cuenta" }).click()
      await expect
        .poll(() => a.page.getByRole("status").textContent())
        .toBe("Cuenta terminada en 0002 bloqueada.")
      await expect.poll(() => a.page.getByText("Fraude reportado", { exact: false }).count()).toBe(1)
      await screen(a.page, "Cuentas bloqueadas", "cuentas-bloqueadas-lista-1280")

      await b.page.goto(`${stack.url}/operador`)
      await signIn(b.page, riesgo2)
      await expect.poll(() => b.page.locator("h1").textContent()).toBe("Inicio")
      await b.page.goto(`${stack.url}/operador/cuentas-bloqueadas`)
      await screen(b.page, "Cuentas bloqueadas", "cuentas-bloqueadas-360")
      await b.page.getByRole("button", { name: "Desbloquear la cuenta 01020194260000000002" }).click()
      await expect
        .poll(() => b.page.getByRole("status").textContent())
        .toBe("Cuenta terminada en 0002 desbloqueada.")
      await expect.poll(() => b.page.getByText("No hay cuentas bloqueadas.").count()).toBe(1)
      expect(a.errors).toEqual([])
      expect(b.errors).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
    const c = await open(1280)
    try {
      await c.page.goto(`${stack.url}/operador`)
      await signIn(c.page, otro)
      await expect.poll(() => c.page.locator("h1").textContent()).toBe("Inicio")
      expect(await c.page.getByRole("link", { name: "Cuentas bloqueadas" }).count()).toBe(0)
    } finally {
      await c.close()
    }
  })
})
