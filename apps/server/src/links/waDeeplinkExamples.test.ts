/**
 * Every `wa_deeplink` the published contract shows (`/openapi.json` examples) is what the server
 * makes for that link: the `wa.me` text with the concept, the amount and the link's url with
 * `?origen=whatsapp` (platform/LinkText.ts), and a link made now answers the same shape.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { waDeeplink } from "../platform/LinkText.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.close()
})

/** Every object under `value` that has a `wa_deeplink`. */
const withDeeplink = (value: unknown, found: Array<Record<string, unknown>> = []) => {
  if (Array.isArray(value)) for (const item of value) withDeeplink(item, found)
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    if (typeof record.wa_deeplink === "string") found.push(record)
    for (const inner of Object.values(record)) withDeeplink(inner, found)
  }
  return found
}

it("every wa_deeplink example opens the link's url with ?origen=whatsapp, as the server makes it", async () => {
  const doc = await call(server.url, "GET", "/openapi.json")
  expect(doc.status).toBe(200)
  const shown = withDeeplink(doc.body.paths)
  expect(shown.length).toBeGreaterThanOrEqual(6)
  for (const example of shown) {
    const text = decodeURIComponent(String(example.wa_deeplink).replace("https://wa.me/?text=", ""))
    expect(text, String(example.wa_deeplink)).toMatch(
      /\nPaga aquí: https:\/\/\S+\/l\/[0-9a-f-]{36}\?origen=whatsapp$/
    )
    if (typeof example.url === "string") expect(text.endsWith(`${example.url}?origen=whatsapp`)).toBe(true)
    if (typeof example.url === "string" && typeof example.monto === "number")
      expect(example.wa_deeplink).toBe(
        waDeeplink(example.url, (example.concepto as string | null) ?? null, Math.round(example.monto * 100))
      )
  }

  const { key } = await registerMerchant(server.url)
  const made = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 150.5, concepto: "Torta de chocolate" }
  })
  expect(made.status).toBe(201)
  expect(made.body.wa_deeplink).toBe(
    `https://wa.me/?text=Torta%20de%20chocolate%20%C2%B7%20Bs%20150%2C50%0APaga%20aqu%C3%AD%3A%20${encodeURIComponent(made.body.url)}%3Forigen%3Dwhatsapp`
  )
})
