import { inflateSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { deflateScanlines } from "./ScanlineDeflate.js"

/** The image data the stream stands for: each row, then `repeat - 1` rows of a 2 and zeros. */
const expand = (rows: Uint8Array, stride: number, repeat: number) => {
  const out: Array<number> = []
  for (let at = 0; at < rows.length; at += stride) {
    out.push(...rows.subarray(at, at + stride))
    for (let r = 1; r < repeat; r++) out.push(2, ...new Array<number>(stride - 1).fill(0))
  }
  return Buffer.from(out)
}

/** Rows like a QR code's: runs of 0x00 and 0xff, some other bytes, rows that repeat. */
const image = fc
  .integer({ min: 4, max: 2000 })
  .chain((stride) =>
    fc.tuple(
      fc.constant(stride),
      fc.integer({ min: 2, max: Math.min(64, Math.floor(32_768 / stride)) }),
      fc.array(
        fc.oneof(
          fc.array(fc.constantFrom(0x00, 0xff, 0x0f, 0xf0, 0x3c), { minLength: stride, maxLength: stride }),
          fc.array(fc.integer({ min: 0, max: 255 }), { minLength: stride, maxLength: stride }),
          fc.constant(new Array<number>(stride).fill(0xff))
        ),
        { minLength: 1, maxLength: 12 }
      )
    )
  )

describe("scanline deflate", () => {
  it.prop(
    "inflates (adler-32 checked) to exactly the rows and their copies",
    [image],
    ([[stride, repeat, list]]) => {
      const rows = Uint8Array.from(list.flatMap((row, k) => (k % 3 === 2 ? (list[k - 1] ?? row) : row)))
      const stream = deflateScanlines(rows, stride, repeat)
      expect(inflateSync(stream).equals(expand(rows, stride, repeat))).toBe(true)
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("fits the largest groups deflate's window allows", () => {
    for (const [stride, repeat] of [
      [140, 16],
      [200, 8],
      [500, 6],
      [2000, 2],
      [4, 8192],
      [16_384, 2]
    ] as const) {
      const rows = Uint8Array.from({ length: stride * 3 }, (_, i) => (i % 7 === 0 ? 0x5a : 0xff))
      expect(inflateSync(deflateScanlines(rows, stride, repeat)).equals(expand(rows, stride, repeat))).toBe(
        true
      )
    }
  })

  it("is smaller than the image it stands for", () => {
    const stride = 35
    const rows = new Uint8Array(stride * 45).fill(0xff)
    expect(deflateScanlines(rows, stride, 6).length).toBeLessThan(200)
  })
})
