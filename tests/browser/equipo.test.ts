/**
 * Sign-in and team in the portal, real Chromium against the built server in development (its
 * mails kept in the data directory and read back through the development mailbox): an owner who
 * signed up without a password sets it from the mailed link and signs in; "olvidé mi
 * contraseña"; the owner invites a cajero, who sets a password from the invitation and signs in
 * with that role, kept out of the team by the screen and by the API; an approved owner is led
 * from the live switch to enrol TOTP, then signs in with password and code (computed here from
 * the secret shown), a spent code refused; Actividad tells it all as sentences. axe-core on every screen,
 * screenshots at 360 and 1280 px (artifacts/).
 */
import { resolve } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARTIFACTS, axeViolations, launchChromium } from "../support/browser.js"
import { ADMIN_TOKEN, call, OWN_ACCOUNT, type Stack, startStack } from "../support/stack.js"
import { totpNow } from "../support/totp.js"

const PASSWORD = "clave-del-equipo-1"

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
  const page = await context.newPage()
  const errors: Array<string> = []
  // Expected refusals the browser logs: no session yet (401), a cajero's call to the team (403).
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  page.on("dialog", (d) => void d.accept())
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `equipo-${shot}.png`), fullPage: true })
}

/** The path and fragment of the newest one-time link mailed to `to`, from the development mailbox. */
const mailedLink = async (to: string, count = 1): Promise<string> => {
  let link: string | undefined
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${stack.url}/panel/dev/correos?formato=json`)).json()) as Array<{
          to: string
          text: string
        }>
        const mine = mails.filter((mail) => mail.to === to)
        link = /\/panel\/contrasena#token=[\w-]+/.exec(mine[0]?.text ?? "")?.[0]
        return mine.length >= count && link !== undefined
      },
      { timeout: 10_000 }
    )
    .toBe(true)
  return link as string
}

const signIn = async (page: Page, email: string, password = PASSWORD) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(password)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
}

const setPassword = async (page: Page, link: string, shot: string) => {
  await page.goto(`${stack.url}${link}`)
  await screen(page, "Define tu contraseña", shot)
  // The token leaves the address bar once read.
  expect(page.url()).not.toContain("token=")
  await page.getByLabel("Contraseña nueva").fill(PASSWORD)
  await page.getByLabel("Repite la contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Guardar contraseña" }).click()
  await screen(page, "Contraseña definida", `${shot}-hecho`)
}

describe("sign-in and team", () => {
  const codigo = `eq${Date.now().toString(36)}`
  const owner = `${codigo}@tienda.example`
  const cajero = `cajero-${codigo}@tienda.example`

  it("an owner signed up without a password sets it from the mailed link, signs in, and invites a cajero (1280 px)", async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Bodega El Equipo", identificacion: "J-07013380-5", email: owner }
    })
    expect(made.status).toBe(201)
    const { page, errors, close } = await open(1280)
    try {
      await setPassword(page, await mailedLink(owner), "contrasena-1280")
      await page.getByRole("link", { name: "Iniciar sesión" }).click()
      await signIn(page, owner)
      await page.getByRole("link", { name: "Equipo" }).click()
      await screen(page, "Equipo", "equipo-1280")
      await page.getByLabel("Correo").fill(cajero)
      await page.getByLabel("Rol", { exact: true }).selectOption("cajero")
      await page.getByRole("button", { name: "Enviar invitación" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain(`Invitamos a ${cajero}`)
      await expect.poll(() => page.getByText("invitado, aún sin contraseña").count()).toBe(1)
      await screen(page, "Equipo", "equipo-invitado-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the cajero sets a password from the invitation, signs in with that role, and is kept out of the team (360 px)", async () => {
    const { page, errors, close } = await open(360)
    try {
      await setPassword(page, await mailedLink(cajero), "invitacion-360")
      await signIn(page, cajero)
      await expect.poll(() => page.getByText(`${cajero} (cajero)`).count()).toBe(1)
      await page.goto(`${stack.url}/panel/equipo`)
      await screen(page, "Equipo", "equipo-cajero-360")
      await expect
        .poll(() => page.getByText("Solo el propietario del comercio gestiona el equipo.").count())
        .toBe(1)
      // The API refuses too, with the session's own cookie and CSRF token.
      const status = await page.evaluate(async () => (await fetch("/switch/v1/equipo")).status)
      expect(status).toBe(403)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the owner sees the cajero active, at 360 px; 'olvidé mi contraseña' mails a link that works", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page, owner)
      await page.goto(`${stack.url}/panel/equipo`)
      await screen(page, "Equipo", "equipo-360")
      await expect.poll(() => page.getByText("invitado, aún sin contraseña").count()).toBe(0)
      await page.getByRole("button", { name: "Menú" }).click()
      await page.getByRole("button", { name: "Cerrar sesión" }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
      await page.getByRole("link", { name: "Olvidé mi contraseña" }).click()
      await screen(page, "Olvidé mi contraseña", "olvide-360")
      await page.getByLabel("Correo").fill(owner)
      await page.getByRole("button", { name: "Enviarme un enlace" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("Revisa tu correo")
      await screen(page, "Olvidé mi contraseña", "olvide-enviado-360")
      await setPassword(page, await mailedLink(owner, 2), "restablecer-360")
      await signIn(page, owner)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the password screens at 1280 px, and an incomplete link", async () => {
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/panel/olvide`)
      await screen(page, "Olvidé mi contraseña", "olvide-1280")
      await page.goto(`${stack.url}/panel/contrasena`)
      await screen(page, "Enlace incompleto", "enlace-incompleto-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("an approved owner without TOTP is led from the live switch to Seguridad, enrols, goes live, and then signs in with password and code", async () => {
    const approved = await call(stack.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { cuenta_liquidacion: OWN_ACCOUNT }
    })
    expect(approved.status).toBe(200)
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, owner)
      await page.getByRole("button", { name: "Live" }).click()
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("segundo factor")
      await page.getByRole("link", { name: "Activar el segundo factor" }).click()
      await screen(page, "Seguridad", "seguridad-1280")
      await page.getByRole("button", { name: "Activar el segundo factor" }).click()
      const secreto = (await page.getByTestId("totp-secreto").textContent()) ?? ""
      expect(secreto).toMatch(/^[A-Z2-7]{32}$/)
      await screen(page, "Seguridad", "seguridad-inscribir-1280")
      const spent = totpNow(secreto)
      await page.getByLabel("Código de tu app de autenticación").fill(spent)
      await page.getByRole("button", { name: "Confirmar" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("Listo")
      await screen(page, "Seguridad", "seguridad-activo-1280")
      const live = page.getByRole("button", { name: "Live" })
      await live.click()
      await expect.poll(() => live.getAttribute("aria-pressed")).toBe("true")

      // Out, and in again: the password, then the code (the next one: the one used is spent).
      await page.getByRole("button", { name: "Cerrar sesión" }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
      await page.getByLabel("Correo").fill(owner)
      await page.getByLabel("Contraseña").fill(PASSWORD)
      await page.getByRole("button", { name: "Entrar" }).click()
      const code = page.getByLabel("Código de tu app de autenticación")
      await expect.poll(() => code.count()).toBe(1)
      await screen(page, "Iniciar sesión", "ingresar-codigo-1280")
      await code.fill(spent)
      await page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("ya se usó")
      await code.fill(totpNow(secreto, 1))
      await page.getByRole("button", { name: "Entrar" }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")

      // The audit log shows it all: the spent code refused, the sign-ins, the invitation.
      await page.getByRole("link", { name: "Actividad" }).click()
      await screen(page, "Actividad", "actividad-1280")
      // Each entry a sentence: who did what to which object, never a raw path.
      await expect.poll(() => page.getByText(`${owner} escribió un código de ingreso errado`).count()).toBe(1)
      expect(await page.getByText(`${owner} invitó a un usuario al equipo`).count()).toBe(1)
      expect(await page.getByText(`${owner} activó el segundo factor`).count()).toBe(1)
      expect(await page.locator("main").textContent()).not.toContain("/switch/v1")
      expect(await page.content()).not.toContain(PASSWORD)
      await page.setViewportSize({ width: 360, height: 900 })
      await screen(page, "Actividad", "actividad-360")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("Seguridad at 360 px, for a user without TOTP; signing out everywhere ends the session", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page, cajero)
      await page.goto(`${stack.url}/panel/seguridad`)
      await screen(page, "Seguridad", "seguridad-360")
      await page.getByRole("button", { name: "Cerrar todas mis sesiones" }).click()
      await expect.poll(() => page.locator("h1").textContent()).toBe("Iniciar sesión")
      await page.goto(`${stack.url}/panel/seguridad`)
      await page.waitForURL(/\/panel\/ingresar$/)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
