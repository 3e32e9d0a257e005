/**
 * `/docs` in real Chromium: everything it loads comes from the server itself, and it opens
 * with the `x-switch-key` scheme ready to fill. Build first: `npx turbo run build`.
 */
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Stack, startStack } from "../support/stack.js"

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack()
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

describe("the API reference at /docs", () => {
  it("loads nothing from another host: every request the page makes is same-origin", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const urls: Array<string> = []
    page.on("request", (request) => urls.push(request.url()))
    // Whatever is asked of another host is refused here (no network), but still recorded.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort())
    await page.goto(`${stack.url}/docs`, { waitUntil: "networkidle" })
    await page.getByText("Crear un link de pago").first().waitFor()
    // Fonts and lazy chunks are asked for once the reference has rendered.
    await page.waitForTimeout(1500)
    const origin = new URL(stack.url).origin
    const foreign = urls.filter(
      (url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin
    )
    expect(foreign).toEqual([])
    expect(urls).toContain(`${origin}/docs`)
    await context.close()
  })

  it("opens with the x-switch-key header scheme selected and a value ready to fill", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort())
    await page.goto(`${stack.url}/docs`, { waitUntil: "networkidle" })
    await page.getByText("Authentication", { exact: true }).first().waitFor()
    const selected = page.getByText("Selected Auth Type:").first().locator("xpath=..")
    await expect.poll(() => selected.textContent()).toContain("x-switch-key")
    await page
      .getByRole("textbox")
      .filter({ hasText: /^x-switch-key$/ })
      .first()
      .waitFor()
    const value = page.getByLabel("Value", { exact: true }).first()
    expect(await value.inputValue()).toBe("")
    await value.fill("demo:sk_test_abc")
    expect(await value.inputValue()).toBe("demo:sk_test_abc")
    await context.close()
  })
})
