import { it as prop } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { PNG } from "pngjs"
import QRCode from "qrcode"
import { describe, expect, it } from "vitest"
import { linkModules, linkQrDataUrl, modulesOf, qrDataUrl, qrPngBytes } from "./QrPng.js"

describe("QR PNG", () => {
  /** Whether the PNG of `text` shows exactly its modules, with a white quiet zone of 4. */
  const showsModules = (text: string) => {
    const png = PNG.sync.read(qrPngBytes(text))
    const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], {
      errorCorrectionLevel: "M",
      maskPattern: 0
    })
    expect(png.width).toBe((modules.size + 8) * 6)
    expect(png.height).toBe(png.width)
    const dark = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 0
    const inside = (m: number) => m >= 0 && m < modules.size
    for (let y = 0; y < modules.size + 8; y++) {
      for (let x = 0; x < modules.size + 8; x++) {
        const [mx, my] = [x - 4, y - 4]
        const expected = inside(mx) && inside(my) && Boolean(modules.get(my, mx))
        expect(dark(x * 6 + 3, y * 6 + 3)).toBe(expected)
      }
    }
    for (let x = 0; x < png.width; x++) expect(dark(x, 2)).toBe(false)
  }

  it("is a PNG whose pixels are the QR modules with a quiet zone, at 6 pixels per module", () => {
    showsModules("http://pagos.test/l/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d")
  })

  // Sizes from 21 to 57 modules: rows of modules start at every offset within a packed word.
  prop.prop(
    "shows the modules of codes of every size up to version 10",
    [fc.string({ minLength: 1, maxLength: 210, size: "max" })],
    ([text]) => showsModules(text),
    { fastCheck: { numRuns: 40 } }
  )

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
    for (const other of [
      id,
      "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6g",
      "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"
    ]) {
      expect(Array.from(linkModules(prefix, other).bits)).toEqual(Array.from(modulesOf(prefix + other).bits))
    }
  })

  it("answer the same data URL as the library path", () => {
    const prefix = "https://pagos.switch.com.ve/l/"
    const id = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"
    expect(linkQrDataUrl(prefix, id)).toBe(qrDataUrl(prefix + id))
  })
})
