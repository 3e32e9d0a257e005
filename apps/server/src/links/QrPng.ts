/**
 * A QR code as a PNG data URL, encoded here as a 1-bit grayscale image: the `qrcode` package's
 * own PNG path spends about 6 ms per link in its encoder, which capped link creation at a
 * fraction of what Postgres can take. Module matrix from `qrcode`, compressed image data from
 * QrDeflate.ts, which knows the image's layout (zlib's deflate cost about 80 µs a link).
 *
 * Link QR codes differ only in the link id at the end of the URL, and with a fixed version and
 * mask a QR code is affine in its data bits over GF(2): Reed-Solomon parity is linear, placement
 * is a permutation, the mask and the format bits are constants. So {@link linkQrDataUrl}
 * computes, once per URL prefix, the code of a zero id and what each hex digit at each place of
 * the id changes, and builds each link's modules with one XOR per digit (about 2 µs a link).
 */
import { crc32 } from "node:zlib"
import QRCode from "qrcode"
import { deflateQrImage } from "./QrDeflate.js"

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

/** A PNG chunk: length, type, data and the CRC of type and data. */
const chunk = (type: string, data: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "ascii")
  out.set(data, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length)
  return out
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const IEND = chunk("IEND", Buffer.alloc(0))

/**
 * PNG bytes of `modules`: black modules on white, a 4-module quiet zone, 6 pixels per module.
 * The image goes to QrDeflate.ts as units of 4 modules (the quiet zone's included), each a
 * 4-bit pattern.
 */
export const pngOf = (modules: Modules): Buffer => {
  const { size, bits } = modules
  const across = size + 2 * MARGIN
  // QR codes are 4n + 1 modules wide, so with the quiet zone 4n + 1 too: n units, then the
  // zone's last module.
  const units = (across - 1) >>> 2
  // The quiet zone is one unit wide, so unit u + 1 of a row holds modules 4u to 4u + 3: four
  // bits of the packed row, read from one or two words.
  const patterns = new Uint8Array(units * across)
  for (let my = 0; my < size; my++) {
    const at = (my + MARGIN) * units + 1
    for (let mx = 0, i = my * size; mx < size; mx += 4, i += 4) {
      const shift = i & 31
      let four = (bits[i >>> 5] ?? 0) >>> shift
      if (shift > 28) four |= (bits[(i >>> 5) + 1] ?? 0) << (32 - shift)
      // The row's last unit may run past its end: keep only its own modules.
      patterns[at + (mx >>> 2)] = four & (mx + 4 > size ? (1 << (size - mx)) - 1 : 15)
    }
  }
  const dim = across * SCALE
  const header = Buffer.alloc(13)
  header.writeUInt32BE(dim, 0)
  header.writeUInt32BE(dim, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // grayscale
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateQrImage(patterns, units)),
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

/**
 * The code of `prefix` + the zero id, and per position of the id and hex digit there what that
 * digit changes: the XOR of the flips of the bits where the digit differs from "0".
 */
interface Basis {
  readonly zero: Modules
  /** Position `p`, digit `d`: words `(p * 16 + d) * words` onward; hyphens stay as they are. */
  readonly digits: Uint32Array
}

const HEX = "0123456789abcdef"
const bases = new Map<string, Basis>()

const basisFor = (prefix: string): Basis => {
  let basis = bases.get(prefix)
  if (basis === undefined) {
    const text = Buffer.from(prefix + ZERO_ID)
    const zero = modulesOf(text)
    const words = zero.bits.length
    const start = text.length - ZERO_ID.length
    const flipOf = (p: number, b: number) => {
      const flipped = Buffer.from(text)
      flipped[start + p] = (flipped[start + p] ?? 0) ^ (1 << b)
      const bits = modulesOf(flipped).bits
      for (let w = 0; w < words; w++) bits[w] = (bits[w] ?? 0) ^ (zero.bits[w] ?? 0)
      return bits
    }
    const digits = new Uint32Array(ZERO_ID.length * 16 * words)
    for (let p = 0; p < ZERO_ID.length; p++) {
      if (ZERO_ID[p] === "-") continue
      const flips = Array.from({ length: 8 }, (_, b) => flipOf(p, b))
      for (let d = 0; d < 16; d++) {
        const at = (p * 16 + d) * words
        let diff = HEX.charCodeAt(d) ^ ZERO_ID.charCodeAt(p)
        for (let b = 0; diff !== 0; b++, diff >>>= 1) {
          if ((diff & 1) === 0) continue
          const flip = flips[b]
          if (flip === undefined) continue
          for (let w = 0; w < words; w++) digits[at + w] = (digits[at + w] ?? 0) ^ (flip[w] ?? 0)
        }
      }
    }
    if (bases.size >= 8) bases.clear()
    basis = { zero, digits }
    bases.set(prefix, basis)
  }
  return basis
}

/** A hex digit's value, from its character code (lower case only; the id was checked). */
const digitOf = (code: number) => (code <= 57 ? code - 48 : code - 87)

/**
 * The modules of the QR code of `prefix + id`: for a lower-case UUID `id` by XOR from the basis,
 * for any other id from the library.
 */
export const linkModules = (prefix: string, id: string): Modules => {
  if (!ID.test(id)) return modulesOf(prefix + id)
  const { zero, digits } = basisFor(prefix)
  const words = zero.bits.length
  const bits = zero.bits.slice()
  for (let p = 0; p < ZERO_ID.length; p++) {
    if (ZERO_ID.charCodeAt(p) === 45) continue // "-"
    const at = (p * 16 + digitOf(id.charCodeAt(p))) * words
    for (let w = 0; w < words; w++) bits[w] = (bits[w] ?? 0) ^ (digits[at + w] ?? 0)
  }
  return { size: zero.size, bits }
}

/** The QR data URL of a link's URL, `prefix` followed by its id. */
export const linkQrDataUrl = (prefix: string, id: string): string => dataUrl(pngOf(linkModules(prefix, id)))
