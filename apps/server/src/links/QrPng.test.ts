import { it as prop } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { PNG } from "pngjs"
import QRCode from "qrcode"
import { describe, expect, it } from "vitest"
import { linkModules, linkQrDataUrl, modulesOf, qrDataUrl, qrPngBytes } from "./QrPng.js"

describe("QR PNG", () => {
  it("is a PNG whose pixels are the QR modules with a quiet zone, at 6 pixels per module", () => {
    const text = "http://pagos.test/l/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"
    const png = PNG.sync.read(qrPngBytes(text))
    const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], {
      errorCorrectionLevel: "M",
      maskPattern: 0
    })
    expect(png.width).toBe((modules.size + 8) * 6)
    expect(png.height).toBe(png.width)
    const dark = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 0
    for (let my = 0; my < modules.size; my++) {
      for (let mx = 0; mx < modules.size; mx++) {
        expect(dark((mx + 4) * 6 + 3, (my + 4) * 6 + 3)).toBe(Boolean(modules.get(my, mx)))
      }
    }
    for (let x = 0; x < png.width; x++) expect(dark(x, 2)).toBe(false)
  })

  it("is served as a base64 data URL", () => {
    expect(qrDataUrl("x")).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
  })
})

describe("link QR codes built from a basis", () => {
  const hex = fc.constantFrom(..."0123456789abcdef")
  const part = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((cs) => cs.join(""))
  const uuid = fc.tuple(part(8), part(4), part(4), part(4), part(12)).map((parts) => parts.join("-"))
  const prefixes = ["http://localhost:8080/l/", "https://pagos.switch.com.ve/l/", "https://a.example/l/"]

  prop.prop(
    "have exactly the modules the library gives the whole URL",
    [fc.constantFrom(...prefixes), uuid],
    ([prefix, id]) => {
      const built = linkModules(prefix, id)
      const direct = modulesOf(prefix + id)
      expect(built.size).toBe(direct.size)
      expect(Array.from(built.bits)).toEqual(Array.from(direct.bits))
    },
    { fastCheck: { numRuns: 200 } }
  )

  it("fall back to the library for an id that is not a lower-case UUID", () => {
    const prefix = "http://localhost:8080/l/"
    const id = "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D"
    expect(linkQrDataUrl(prefix, id)).toBe(qrDataUrl(prefix + id))
  })

  it("answer the same data URL as the library path", () => {
    const prefix = "https://pagos.switch.com.ve/l/"
    const id = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"
    expect(linkQrDataUrl(prefix, id)).toBe(qrDataUrl(prefix + id))
  })
})
