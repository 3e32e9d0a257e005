/**
 * A link's `qr_png` is the URL `{base_url}/l/<id>/qr.png`, served without a key: the PNG of the
 * QR code of the link's url, drawn on its first request (creating a link draws nothing), then
 * cached, immutable. Each image is decoded here for real (pngjs, jsQR).
 */
import { randomUUID } from "node:crypto"
import jsQRModule from "jsqr"
import { PNG } from "pngjs"
import QRCode from "qrcode"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let key: string
let codigo: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  ;({ key, codigo } = await registerMerchant(server.url))
})
afterAll(() => server.close())
afterEach(() => {
  vi.restoreAllMocks()
})

const create = async (k = key, body: unknown = { monto: 12.5, concepto: "QR" }) => {
  const reply = await call(server.url, "POST", "/switch/v1/links", { key: k, body })
  expect(reply.status).toBe(201)
  return reply.body
}

/** What a client fetching `url` (one of ours, under base_url) gets, as raw bytes. */
const fetchQr = async (url: string, headers: Record<string, string> = {}) => {
  const path = url.slice(server.settings.baseUrl.length)
  const response = await fetch(`${server.url}${path}`, { headers })
  return { response, bytes: Buffer.from(await response.arrayBuffer()) }
}

// jsqr is CommonJS whose export is the function, also as its `default` (which its types name).
const jsQR = jsQRModule.default

/** The text the QR code in a PNG decodes to. */
const decode = (bytes: Buffer): string | undefined => {
  const png = PNG.sync.read(bytes)
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

const qrUrlOf = (id: string) => `${server.settings.baseUrl}/l/${id}/qr.png`

describe("qr_png", () => {
  it("is {base_url}/l/<id>/qr.png in create, replay, get and list", async () => {
    const link = await create()
    expect(link.qr_png).toBe(qrUrlOf(link.id))
    const body = { monto: 3, concepto: "Otra vez", idempotency_key: randomUUID() }
    const first = await create(key, body)
    const again = await call(server.url, "POST", "/switch/v1/links", { key, body })
    expect(again.body.idempotent_replay).toBe(true)
    expect(again.body.qr_png).toBe(qrUrlOf(first.id))
    expect((await call(server.url, "GET", `/switch/v1/links/${link.id}`, { key })).body.qr_png).toBe(
      qrUrlOf(link.id)
    )
    const list = (await call(server.url, "GET", "/switch/v1/links?limit=200", { key })).body
    expect(list.length).toBeGreaterThan(0)
    for (const l of list) expect(l.qr_png).toBe(qrUrlOf(l.id))
  })

  it("is not drawn when a link is created, but on its first request, and once", async () => {
    const toBuffer = vi.spyOn(QRCode, "toBuffer")
    const modules = vi.spyOn(QRCode, "create")
    const link = await create()
    expect(toBuffer).not.toHaveBeenCalled()
    expect(modules).not.toHaveBeenCalled()
    const first = await fetchQr(link.qr_png)
    expect(first.response.status).toBe(200)
    expect(toBuffer).toHaveBeenCalledTimes(1)
    const second = await fetchQr(link.qr_png)
    expect(second.response.status).toBe(200)
    expect(second.bytes.equals(first.bytes)).toBe(true)
    expect(toBuffer).toHaveBeenCalledTimes(1)
  })
})

describe("GET /l/<id>/qr.png", () => {
  it("answers without a key a PNG decoding to the link's url, cached for a year, with an ETag", async () => {
    const link = await create()
    const { response, bytes } = await fetchQr(link.qr_png)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("image/png")
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    const etag = response.headers.get("etag")
    expect(etag).toMatch(/^"[\w-]{16,}"$/)
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(decode(bytes)).toBe(link.url)
    expect(link.url).toBe(`${server.settings.baseUrl}/l/${link.id}`)

    const again = await fetchQr(link.qr_png, { "if-none-match": etag ?? "" })
    expect(again.response.status).toBe(304)
    expect(again.bytes.length).toBe(0)
    expect(again.response.headers.get("etag")).toBe(etag)
    const other = await fetchQr(link.qr_png, { "if-none-match": '"otra"' })
    expect(other.response.status).toBe(200)
    expect(other.bytes.equals(bytes)).toBe(true)
  })

  it("gives each link its own code, whatever its mode or state", async () => {
    const cancelled = await create()
    expect(
      (await call(server.url, "POST", `/switch/v1/links/${cancelled.id}/cancelar`, { key })).status
    ).toBe(200)
    const paid = await create()
    const simulated = await call(server.url, "POST", `/switch/v1/links/${paid.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(simulated.status).toBe(200)
    const live = await create(await approveMerchant(server, codigo))
    expect(live.mode).toBe("live")
    const lote = await call(server.url, "POST", "/switch/v1/lotes", {
      key,
      body: { items: [{ monto: 5, concepto: "Del lote" }] }
    })
    expect(lote.status).toBe(201)
    const fromLote = (
      await call(server.url, "GET", `/switch/v1/links/${lote.body.items[0].link_id}`, { key })
    ).body
    for (const link of [cancelled, paid, live, fromLote]) {
      expect(link.qr_png).toBe(qrUrlOf(link.id))
      const { response, bytes } = await fetchQr(link.qr_png)
      expect(response.status, link.id).toBe(200)
      expect(decode(bytes)).toBe(link.url)
    }
    // An id in capitals names the same link, and its code still reads the link's own url.
    const { bytes } = await fetchQr(qrUrlOf(paid.id.toUpperCase()))
    expect(decode(bytes)).toBe(paid.url)
  })

  it("answers 404 not_found for an unknown or malformed id", async () => {
    for (const id of [randomUUID(), "nada", "1234", `${randomUUID()}x`]) {
      const { response, bytes } = await fetchQr(qrUrlOf(id))
      expect(response.status, id).toBe(404)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(JSON.parse(bytes.toString())).toMatchObject({ error: "not_found" })
    }
  })
})

describe("a list of 200 links", () => {
  it("weighs under 150 KB, images left out (479 KB with them inline)", async () => {
    const { key: own } = await registerMerchant(server.url)
    for (let i = 0; i < 200; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => create(own, { monto: 10 + i + j, concepto: `Pedido ${i + j}` }))
      )
    }
    const response = await fetch(`${server.url}/switch/v1/links?limit=200`, {
      headers: { "x-switch-key": own }
    })
    const body = Buffer.from(await response.arrayBuffer())
    expect(JSON.parse(body.toString())).toHaveLength(200)
    console.log(`GET /links?limit=200: ${body.length} bytes`)
    expect(body.length).toBeLessThan(150 * 1024)
  })
})
