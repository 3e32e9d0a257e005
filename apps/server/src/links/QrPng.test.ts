import { PNG } from "pngjs"
import QRCode from "qrcode"
import { describe, expect, it } from "vitest"
import { qrDataUrl, qrPngBytes } from "./QrPng.js"

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
