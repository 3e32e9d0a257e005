import { inflateSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { deflateQrImage, MAX_UNITS } from "./QrDeflate.js"

/** The image data the stream stands for, written out pixel by pixel from the patterns. */
const expand = (patterns: ReadonlyArray<number>, units: number) => {
  const out: Array<number> = []
  const stride = 3 * units + 2
  for (let at = 0; at < patterns.length; at += units) {
    const pixels: Array<number> = []
    for (let u = 0; u < units; u++)
      for (let j = 0; j < 4; j++)
        for (let p = 0; p < 6; p++) pixels.push(((patterns[at + u] ?? 0) >> j) & 1 ? 0 : 1)
    for (let p = 0; p < 8; p++) pixels.push(1) // the last module and the row's 2 padding bits
    const row = [0]
    for (let byte = 0; byte < stride - 1; byte++) {
      let value = 0
      for (let bit = 0; bit < 8; bit++) value = (value << 1) | (pixels[byte * 8 + bit] ?? 0)
      row.push(value)
    }
    out.push(...row)
    for (let r = 1; r < 6; r++) out.push(2, ...new Array<number>(stride - 1).fill(0))
  }
  return Buffer.from(out)
}

/** Rows of modules like a QR code's: runs of one pattern, rows that repeat, random ones. */
const image = fc
  .integer({ min: 1, max: MAX_UNITS })
  .chain((units) =>
    fc.tuple(
      fc.constant(units),
      fc.array(
        fc.oneof(
          fc.array(fc.constantFrom(0, 15, 5), { minLength: units, maxLength: units }),
          fc.array(fc.integer({ min: 0, max: 15 }), { minLength: units, maxLength: units }),
          fc.constant(new Array<number>(units).fill(0))
        ),
        { minLength: 1, maxLength: 12 }
      )
    )
  )

describe("QR deflate", () => {
  it.prop(
    "inflates (Adler-32 checked by zlib) to the image the patterns draw",
    [image, fc.boolean()],
    ([[units, rows], repeatRows]) => {
      const all = repeatRows ? rows.flatMap((row) => [row, row]) : rows
      expect(inflateSync(deflateQrImage(Uint8Array.from(all.flat()), units))).toEqual(
        expand(all.flat(), units)
      )
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("takes under a fifth of the pixels' bytes for a QR-like image", () => {
    const units = 10
    const patterns = new Uint8Array(units * 41)
    for (let i = 4 * units; i < 37 * units; i++) patterns[i] = (i * 7919) % 16
    expect(deflateQrImage(patterns, units).length).toBeLessThan(((3 * units + 2) * 41 * 6) / 5)
  })

  it("refuses units it cannot code", () => {
    expect(() => deflateQrImage(new Uint8Array(10), 0)).toThrow()
    expect(() => deflateQrImage(new Uint8Array(10), 3)).toThrow()
    expect(() => deflateQrImage(new Uint8Array(47), MAX_UNITS + 1)).toThrow()
  })
})
