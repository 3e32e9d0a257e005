/**
 * A QR code as a PNG data URL, encoded here as a 1-bit grayscale image: the `qrcode` package's
 * own PNG path spends about 6 ms per link in its encoder, which capped link creation at a
 * fraction of what Postgres can take. Module matrix from `qrcode`, compressed image data from
 * ScanlineDeflate.ts, which knows the image's layout (zlib's deflate cost about 80 µs a link).
 *
 * Link QR codes differ only in the link id at the end of the URL, and with a fixed version and
 * mask a QR code is affine in its data bits over GF(2): Reed-Solomon parity is linear, placement
 * is a permutation, the mask and the format bits are constants. So {@link linkQrPng} computes,
 * once per URL prefix, the code of a zero id and what flipping each bit of the id changes, and
 * builds each link's modules by XOR, about a tenth of the library's time.
 */
import { crc32 } from "node:zlib"
import QRCode from "qrcode"
import { deflateScanlines } from "./ScanlineDeflate.js"

const SCALE = 6
const MARGIN = 4

/** Modules packed row by row, one bit each: module (x, y) is bit `y * size + x`. */
export interface Modules {
  readonly size: number
  readonly bits: Uint32Array
}

/** The library's modules of `text`: byte mode, level M and a fixed mask (any mask is readable). */
export const modulesOf = (text: string | Buffer): Modules => {
  // Byte mode and a fixed mask skip the library's segment optimisation and its search over
  // eight masks (most of its time).
  const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], {
    errorCorrectionLevel: "M",
    maskPattern: 0
  })
  const size = modules.size
  const bits = new Uint32Array(Math.ceil((size * size) / 32))
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x
      if (modules.get(y, x)) bits[i >>> 5] = (bits[i >>> 5] ?? 0) | (1 << (i & 31))
    }
  }
  return { size, bits }
}

/**
 * For each module column, the two bytes of a pixel row its pixels may fall in (offset from the
 * row's start, after the filter byte) and the bits to clear in each.
 */
const columnMasks = new Map<number, Int32Array>()
const masksFor = (size: number): Int32Array => {
  let masks = columnMasks.get(size)
  if (masks === undefined) {
    masks = new Int32Array(size * 4)
    for (let mx = 0; mx < size; mx++) {
      const first = (mx + MARGIN) * SCALE
      const byte = first >> 3
      masks[mx * 4] = 1 + byte
      masks[mx * 4 + 2] = 2 + byte
      for (let s = 0; s < SCALE; s++) {
        const x = first + s
        const slot = mx * 4 + (x >> 3 === byte ? 1 : 3)
        masks[slot] = (masks[slot] ?? 0) | (0x80 >> (x & 7))
      }
    }
    columnMasks.set(size, masks)
  }
  return masks
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
const chunk = (type: string, data: Buffer): Buffer => {
  const out = Buffer.allocUnsafe(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "ascii")
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length)
  return out
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const IEND = chunk("IEND", Buffer.alloc(0))

/** PNG bytes of `modules`: black modules on white, a 4-module quiet zone, 6 pixels per module. */
export const pngOf = (modules: Modules): Buffer => {
  const { size, bits } = modules
  const masks = masksFor(size)
  const dim = (size + 2 * MARGIN) * SCALE
  const stride = Math.ceil(dim / 8) + 1
  // The first pixel row of each row of modules (filter "none", white, dark modules cleared);
  // its other pixel rows repeat it (ScanlineDeflate.ts).
  const rows = new Uint8Array(stride * (size + 2 * MARGIN)).fill(0xff)
  for (let r = 0; r < size + 2 * MARGIN; r++) rows[r * stride] = 0
  for (let my = 0; my < size; my++) {
    const at = (my + MARGIN) * stride
    for (let mx = 0, i = my * size; mx < size; mx++, i++) {
      if ((((bits[i >>> 5] ?? 0) >>> (i & 31)) & 1) === 0) continue
      const m = mx * 4
      const a = at + (masks[m] ?? 0)
      rows[a] = (rows[a] ?? 0) & ~(masks[m + 1] ?? 0)
      const b = at + (masks[m + 2] ?? 0)
      rows[b] = (rows[b] ?? 0) & ~(masks[m + 3] ?? 0)
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(dim, 0)
  header.writeUInt32BE(dim, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // grayscale
  const idat = deflateScanlines(rows, stride, SCALE)
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", Buffer.from(idat.buffer, idat.byteOffset, idat.length)),
    IEND
  ])
}

/** PNG bytes of the QR code of `text`. */
export const qrPngBytes = (text: string): Buffer => pngOf(modulesOf(text))

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`

/** The QR code of `text` as a `data:image/png;base64,...` URL. */
export const qrDataUrl = (text: string): string => dataUrl(qrPngBytes(text))

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ZERO_ID = "00000000-0000-0000-0000-000000000000"

/** The code of `prefix` + the zero id, and per id byte and bit what flipping it changes. */
interface Basis {
  readonly zero: Modules
  readonly flips: ReadonlyArray<Uint32Array>
}

const bases = new Map<string, Basis>()

const basisFor = (prefix: string): Basis => {
  let basis = bases.get(prefix)
  if (basis === undefined) {
    const text = Buffer.from(prefix + ZERO_ID)
    const zero = modulesOf(text)
    const flips: Array<Uint32Array> = []
    const start = text.length - ZERO_ID.length
    for (let p = 0; p < ZERO_ID.length; p++) {
      for (let b = 0; b < 8; b++) {
        const flipped = Buffer.from(text)
        flipped[start + p] = (flipped[start + p] ?? 0) ^ (1 << b)
        const bits = modulesOf(flipped).bits
        for (let w = 0; w < bits.length; w++) bits[w] = (bits[w] ?? 0) ^ (zero.bits[w] ?? 0)
        flips.push(bits)
      }
    }
    if (bases.size >= 8) bases.clear()
    basis = { zero, flips }
    bases.set(prefix, basis)
  }
  return basis
}

/** The modules of the QR code of `prefix + id` for a lower-case UUID `id`, by XOR from the basis. */
export const linkModules = (prefix: string, id: string): Modules => {
  const { zero, flips } = basisFor(prefix)
  const bits = Uint32Array.from(zero.bits)
  for (let p = 0; p < ZERO_ID.length; p++) {
    let diff = id.charCodeAt(p) ^ ZERO_ID.charCodeAt(p)
    for (let b = 0; diff !== 0; b++, diff >>>= 1) {
      if ((diff & 1) === 0) continue
      const flip = flips[p * 8 + b]
      if (flip === undefined) continue
      for (let w = 0; w < bits.length; w++) bits[w] = (bits[w] ?? 0) ^ (flip[w] ?? 0)
    }
  }
  return { size: zero.size, bits }
}

/** The QR data URL of a link's URL, `prefix` followed by its id; any other id takes the long way. */
export const linkQrDataUrl = (prefix: string, id: string): string =>
  dataUrl(pngOf(ID.test(id) ? linkModules(prefix, id) : modulesOf(prefix + id)))
