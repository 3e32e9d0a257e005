/**
 * SPEC's `origen`, each value really produced: `api` (a key), `panel` (a portal session),
 * `boton` (a link opened from the pay button, `boton.js`), `whatsapp` (opened from its WhatsApp
 * share link); `mi_pagina` is covered in src/mipagina/mipagina.test.ts. Only an `api` link takes
 * the origin it is opened from, once; the list filter selects each.
 */

import { randomUUID } from "node:crypto"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

/** A merchant with a test key and an owner's session. */
const merchant = async () => {
  const codigo = `o${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Tienda ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const body = (await reply.json()) as { csrf_token: string }
  const headers = {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
  return { key: `${codigo}:${made.body.api_key}`, headers }
}

/** The href of the button `boton.js` renders for `link`, run against a minimal page. */
const buttonHref = (script: string, link: string, src: string) => {
  const made: Array<Record<string, unknown>> = []
  const tag = {
    src,
    parentNode: { insertBefore: (a: Record<string, unknown>) => made.push(a) },
    nextSibling: null,
    attributes: { "data-link": link } as Record<string, string>,
    getAttribute(name: string) {
      return this.attributes[name] ?? null
    },
    setAttribute(name: string, value: string) {
      this.attributes[name] = value
    }
  }
  const document = {
    querySelectorAll: () => [tag],
    createElement: () => ({ setAttribute: () => {}, addEventListener: () => {} })
  }
  runInNewContext(script, { document, URL, window: {} })
  return String(made[0]?.href)
}

describe("origen", () => {
  it("api, panel, boton and whatsapp are each produced and selected by the list filter", async () => {
    const { key, headers } = await merchant()
    const create = async (auth: { key?: string; headers?: Record<string, string> }, concepto: string) => {
      const made = await call(server.url, "POST", "/switch/v1/links", {
        ...auth,
        body: { monto: 10, concepto }
      })
      expect(made.status).toBe(201)
      return made.body as { id: string; url: string; origen: string; wa_deeplink: string }
    }
    const api = await create({ key }, "api")
    const panel = await create({ headers }, "panel")
    const boton = await create({ key }, "boton")
    const whatsapp = await create({ key }, "whatsapp")
    const panelShared = await create({ headers }, "panel compartido")
    expect([api.origen, panel.origen, boton.origen, whatsapp.origen]).toEqual(["api", "panel", "api", "api"])

    // The pay button opens the link's page with ?origen=boton.
    const script = await (await fetch(`${server.url}/boton.js`)).text()
    const href = buttonHref(script, boton.id, `${server.url}/boton.js`)
    expect(href).toBe(`${server.url}/l/${boton.id}?origen=boton`)
    expect((await fetch(href)).status).toBe(200)
    // The WhatsApp share link's text carries the address with ?origen=whatsapp.
    const text = decodeURIComponent(whatsapp.wa_deeplink.replace("https://wa.me/?text=", ""))
    const shared = /Paga aquí: (\S+)/.exec(text)?.[1] ?? ""
    expect(shared).toBe(`${whatsapp.url}?origen=whatsapp`)
    expect((await fetch(shared.replace(server.settings.baseUrl, server.url))).status).toBe(200)
    // Opened later from the other one: the first opening wins. A portal link keeps panel; a
    // value that is no origin changes nothing.
    await fetch(`${server.url}/l/${boton.id}?origen=whatsapp`)
    await fetch(`${server.url}/l/${panelShared.id}?origen=boton`)
    await fetch(`${server.url}/l/${api.id}?origen=mi_pagina`)
    await fetch(`${server.url}/l/${api.id}?origen=panel`)

    const listed = async (origen: string) =>
      (
        (await call(server.url, "GET", `/switch/v1/links?origen=${origen}`, { key })).body as Array<{
          concepto: string
          origen: string
        }>
      ).map((l) => `${l.concepto}:${l.origen}`)
    expect(await listed("api")).toEqual(["api:api"])
    expect(await listed("panel")).toEqual(["panel compartido:panel", "panel:panel"])
    expect(await listed("boton")).toEqual(["boton:boton"])
    expect(await listed("whatsapp")).toEqual(["whatsapp:whatsapp"])
    expect(await listed("mi_pagina")).toEqual([])
    // A link's own get shows it too.
    expect((await call(server.url, "GET", `/switch/v1/links/${whatsapp.id}`, { key })).body.origen).toBe(
      "whatsapp"
    )
  })

  it("an unknown or malformed id with ?origen is the plain 404 page", async () => {
    expect((await fetch(`${server.url}/l/${randomUUID()}?origen=boton`)).status).toBe(404)
    expect((await fetch(`${server.url}/l/no-es-un-id?origen=boton`)).status).toBe(404)
  })
})
