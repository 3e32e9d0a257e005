/**
 * A QR code as a PNG data URL, encoded here as a 1-bit grayscale image: the `qrcode` package's
 * own PNG path spends about 6 ms per link in its encoder, which capped link creation at a
 * fraction of what Postgres can take. Module matrix from `qrcode`, image from zlib at its
 * fastest level (about a third of the default's time for some 100 more bytes).
 */
import { crc32, deflateSync } from "node:zlib"
import QRCode from "qrcode"

const SCALE = 6
const MARGIN = 4

const chunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, "ascii")
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0)
  return Buffer.concat([head, data, crc])
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const IEND = chunk("IEND", Buffer.alloc(0))

/** PNG bytes of the QR code of `text`: black modules on white, a 4-module quiet zone. */
export const qrPngBytes = (text: string): Buffer => {
  // Byte mode and a fixed mask skip the library's segment optimisation and its search over
  // eight masks (most of its time); any mask gives a valid, readable code.
  const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], {
    errorCorrectionLevel: "M",
    maskPattern: 0
  })
  const size = modules.size
  const dim = (size + 2 * MARGIN) * SCALE
  const rowBytes = Math.ceil(dim / 8)
  const raw = Buffer.alloc((rowBytes + 1) * dim, 0xff)
  const row = Buffer.alloc(rowBytes + 1, 0xff)
  for (let my = -MARGIN; my < size + MARGIN; my++) {
    row.fill(0xff)
    row[0] = 0 // filter type: none
    if (my >= 0 && my < size) {
      for (let mx = 0; mx < size; mx++) {
        if (!modules.get(my, mx)) continue
        for (let s = 0; s < SCALE; s++) {
          const x = (mx + MARGIN) * SCALE + s
          const at = 1 + (x >> 3)
          row[at] = (row[at] ?? 0) & ~(0x80 >> (x & 7))
        }
      }
    }
    const y0 = (my + MARGIN) * SCALE
    row.copy(raw, y0 * (rowBytes + 1))
    // The module's other pixel rows repeat the first: filter "up" turns them into zeros.
    for (let s = 1; s < SCALE; s++) {
      const at = (y0 + s) * (rowBytes + 1)
      raw.fill(0, at, at + rowBytes + 1)
      raw[at] = 2
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(dim, 0)
  header.writeUInt32BE(dim, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // grayscale
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 1 })),
    IEND
  ])
}

/** The QR code of `text` as a `data:image/png;base64,...` URL. */
export const qrDataUrl = (text: string): string =>
  `data:image/png;base64,${qrPngBytes(text).toString("base64")}`
