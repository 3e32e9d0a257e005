/**
 * What the browser suites share: Chromium launched with the project's flags, a window that
 * collects console errors, axe-core's violations, the screen check (title, nothing loading,
 * axe, no sideways scroll, a screenshot in browser/artifacts/) and a console operator signed in.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call } from "./stack.js"

export const ARTIFACTS = resolve(__dirname, "../browser/artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** Headless Chromium as the suites run it; makes the artifacts directory too. */
export const launchChromium = async (): Promise<Browser> => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  mkdirSync(ARTIFACTS, { recursive: true })
  return browser
}

/** A request with the admin token. */
export const adminCall = (base: string, method: string, path: string, body?: unknown) =>
  call(base, method, path, {
    headers: { "x-admin-token": ADMIN_TOKEN },
    ...(body === undefined ? {} : { body })
  })

/** axe-core's violations on the page as it is now (WCAG 2.2 target size on), one line each. */
export const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(
    `axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`
  )
}

/** A new context `width` px wide; `errors` collects console errors (but 401/403) and page errors. */
export const openWindow = async (browser: Browser, width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors, close: () => context.close() }
}

/**
 * The screen titled `title` once loaded: no axe violations and no sideways scroll (messages
 * prefixed with `label`), then a full-page screenshot to artifacts/`file`.
 */
export const expectScreen = async (page: Page, title: string, label: string, file: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.getByText("Cargando…").count()).toBe(0)
  expect(await axeViolations(page), `${label}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${label}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, file), fullPage: true })
}

export interface Operator {
  readonly email: string
  readonly secret: string
}

/** A new console operator with role `rol` (created through the admin API). */
export const newOperator = async (base: string, password: string, rol = "tesoreria"): Promise<Operator> => {
  const email = `tes-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@switch.example`
  const reply = await adminCall(base, "POST", "/admin/v1/operadores", { email, password, rol })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string }
}

/** Fills the console's sign-in form on `page` (already open) for `op` and submits it. */
export const signInOperator = async (page: Page, op: Operator, password: string) => {
  await page.getByLabel("Correo").fill(op.email)
  await page.getByLabel("Contraseña").fill(password)
  await page.getByLabel("Código de tu autenticador").fill(totpCode(op.secret, totpStep(Date.now())))
  await page.getByRole("button", { name: "Entrar" }).click()
}

/**
 * Answers the console's open confirmation dialog (an irreversible action asks first, issue 45)
 * with its confirming button, and waits for it to close.
 */
export const confirmDialog = async (page: Page) => {
  const dialog = page.getByRole("alertdialog")
  await dialog.waitFor()
  await dialog
    .getByRole("button")
    .filter({ hasNotText: /^Volver$/ })
    .click()
  await dialog.waitFor({ state: "detached" })
}
