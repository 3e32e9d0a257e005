/**
 * CORS in real Chromium: a page served from another origin (a second server on another
 * loopback port) may read the public receipt check, and may not call an authenticated route.
 * Build first: `npx turbo run build`.
 */
import { createServer, type Server } from "node:http"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let browser: Browser
let shop: Server
let shopUrl: string

beforeAll(async () => {
  stack = await startStack()
  shop = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end("<!doctype html><title>tienda</title><p>tienda</p>")
  })
  await new Promise<void>((done) => shop.listen(0, "127.0.0.1", () => done()))
  const address = shop.address()
  shopUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
})
afterAll(async () => {
  await browser?.close()
  await new Promise((done) => shop?.close(done))
  await stack?.stop()
})

/** A page of the shop, on an origin other than the API's. */
const shopPage = async () => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${shopUrl}/`)
  expect(new URL(page.url()).origin).not.toBe(new URL(stack.url).origin)
  return { page, close: () => context.close() }
}

describe("CORS", () => {
  it("a page on another origin reads the receipt check of a real paid link", async () => {
    const link = await call(stack.url, "POST", "/switch/v1/links", {
      key: stack.demoKey,
      body: { monto: 321.5, concepto: "Pedido CORS" }
    })
    expect(link.status).toBe(201)
    const paid = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: stack.demoKey,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
    const codigo = (await call(stack.url, "GET", `/switch/v1/links/${link.body.id}`, { key: stack.demoKey }))
      .body.codigo_verificacion as string
    expect(codigo).toMatch(/^SW-/)

    const { page, close } = await shopPage()
    const read = await page.evaluate(async (url) => {
      const response = await fetch(url)
      return { status: response.status, body: await response.json() }
    }, `${stack.url}/switch/v1/verificar/${codigo}`)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ valido: true, codigo, monto: 321.5 })
    await close()
  })

  it("the same page cannot call an authenticated route, even with a key", async () => {
    const { page, close } = await shopPage()
    const outcome = await page.evaluate(
      async ({ url, key }) => {
        try {
          const response = await fetch(url, { headers: { "x-switch-key": key } })
          return `answered ${response.status}`
        } catch (error) {
          return `refused: ${String(error)}`
        }
      },
      { url: `${stack.url}/switch/v1/links`, key: stack.demoKey }
    )
    expect(outcome).toMatch(/^refused: TypeError/)
    // A simple request (no custom header, so no preflight) goes out, but its answer is not readable.
    const simple = await page.evaluate(async (url) => {
      try {
        const response = await fetch(url)
        return `answered ${response.status}`
      } catch (error) {
        return `refused: ${String(error)}`
      }
    }, `${stack.url}/switch/v1/transacciones`)
    expect(simple).toMatch(/^refused: TypeError/)
    await close()
  })
})
