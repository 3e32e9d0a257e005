/**
 * The zlib stream (RFC 1950/1951) of a QR code's PNG image data: 1 bit per pixel, 6 by 6 pixels
 * per module. The image is given as units of 4 modules side by side, which span exactly 3 bytes
 * of a pixel row, so a unit is one of 16 patterns; a row of modules is `units` of them, then
 * one last white module, the quiet zone's (a QR code with its 4-module quiet zone is always
 * 4n + 1 modules wide).
 *
 * Each row of modules is one pixel row written as given (filter "none") and five copies of it
 * written with filter "up" (a 2 and zeros). A given row is coded unit by unit: a run of units
 * equal to the one before, or to the ones above, is one back-reference; any other unit is its
 * three bytes as literals from a table. A row equal to the one above is one back-reference, and
 * so are the copies. zlib's own deflate, searching for what this layout already knows, cost
 * about 80 µs a link; a byte-level coder of the same layout about 24 µs.
 */

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258
]
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577
]
const DIST_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
]
const MAX_MATCH = 258
const MIN_MATCH = 3
const ADLER_MOD = 65521
/** Pixel rows per row of modules: the given row and its copies. */
const REPEAT = 6
/** Units a row of modules may hold: 185 modules wide at most (version 40 and its quiet zone). */
export const MAX_UNITS = 46

const reverse = (code: number, length: number) => {
  let out = 0
  for (let i = 0; i < length; i++) out = (out << 1) | ((code >>> i) & 1)
  return out
}

/** The fixed code of each literal/length symbol, bit-reversed for LSB-first output, and its length. */
const FIXED_CODE = new Int32Array(288)
const FIXED_LENGTH = new Int32Array(288)
for (let symbol = 0; symbol < 288; symbol++) {
  const [code, length] =
    symbol < 144
      ? [0x30 + symbol, 8]
      : symbol < 256
        ? [0x190 + symbol - 144, 9]
        : symbol < 280
          ? [symbol - 256, 7]
          : [0xc0 + symbol - 280, 8]
  FIXED_CODE[symbol] = reverse(code, length)
  FIXED_LENGTH[symbol] = length
}

const slot = (bases: ReadonlyArray<number>, value: number) => {
  let i = bases.length - 1
  while ((bases[i] ?? 0) > value) i--
  return i
}

/** Per match length (3 to 258): its symbol's code and extra bits packed, and their bit count. */
const LENGTH_CODE = new Int32Array(MAX_MATCH + 1)
const LENGTH_BITS = new Int32Array(MAX_MATCH + 1)
for (let length = MIN_MATCH; length <= MAX_MATCH; length++) {
  const l = slot(LENGTH_BASE, length)
  const symbolLength = FIXED_LENGTH[257 + l] ?? 0
  LENGTH_CODE[length] = (FIXED_CODE[257 + l] ?? 0) | ((length - (LENGTH_BASE[l] ?? 0)) << symbolLength)
  LENGTH_BITS[length] = symbolLength + (LENGTH_EXTRA[l] ?? 0)
}

/** A distance's code (5 bits, reversed) and extra bits packed, and their bit count. */
interface Distance {
  readonly code: number
  readonly bits: number
}
const distance = (value: number): Distance => {
  const d = slot(DIST_BASE, value)
  return { code: reverse(d, 5) | ((value - (DIST_BASE[d] ?? 0)) << 5), bits: 5 + (DIST_EXTRA[d] ?? 0) }
}
const ONE = distance(1)
const UNIT = distance(3)

/**
 * Per pattern: its 3 bytes (bit j set: module j of the unit, from the left, is dark), coded as
 * literals in two parts (the first two bytes, then the third) so a part never passes 18 bits,
 * and their Adler-32 terms: the bytes' sum, and 3, 2 and 1 times them for the running sum.
 */
const PAIR_CODE = new Int32Array(16)
const PAIR_BITS = new Int32Array(16)
const LAST_CODE = new Int32Array(16)
const LAST_BITS = new Int32Array(16)
const SUM = new Int32Array(16)
const WEIGHTED = new Int32Array(16)
for (let pattern = 0; pattern < 16; pattern++) {
  let pixels = 0xffffff
  for (let j = 0; j < 4; j++) if ((pattern >> j) & 1) pixels &= ~(0x3f << (18 - 6 * j))
  const [x1, x2, x3] = [pixels >>> 16, (pixels >>> 8) & 0xff, pixels & 0xff]
  PAIR_CODE[pattern] = (FIXED_CODE[x1] ?? 0) | ((FIXED_CODE[x2] ?? 0) << (FIXED_LENGTH[x1] ?? 0))
  PAIR_BITS[pattern] = (FIXED_LENGTH[x1] ?? 0) + (FIXED_LENGTH[x2] ?? 0)
  LAST_CODE[pattern] = FIXED_CODE[x3] ?? 0
  LAST_BITS[pattern] = FIXED_LENGTH[x3] ?? 0
  SUM[pattern] = x1 + x2 + x3
  WEIGHTED[pattern] = 3 * x1 + 2 * x2 + x3
}

/** Bits out, least significant first, into a buffer sized for the worst case. */
class BitWriter {
  private bits = 0
  private count = 0
  private at = 0
  constructor(readonly out: Uint8Array) {}

  /** At most 25 bits: 7 may be pending. */
  put(value: number, length: number) {
    this.bits |= value << this.count
    this.count += length
    while (this.count >= 8) {
      this.out[this.at++] = this.bits & 0xff
      this.bits >>>= 8
      this.count -= 8
    }
  }

  literal(byte: number) {
    this.put(FIXED_CODE[byte] ?? 0, FIXED_LENGTH[byte] ?? 0)
  }

  unit(pattern: number) {
    this.put(PAIR_CODE[pattern] ?? 0, PAIR_BITS[pattern] ?? 0)
    this.put(LAST_CODE[pattern] ?? 0, LAST_BITS[pattern] ?? 0)
  }

  /** A run of `length` bytes (3 or more) copied from `from` back, in matches of at most 258. */
  copy(length: number, from: Distance) {
    let left = length
    while (left > 0) {
      const n = left > MAX_MATCH ? (left - MAX_MATCH < MIN_MATCH ? left - MIN_MATCH : MAX_MATCH) : left
      this.put(LENGTH_CODE[n] ?? 0, LENGTH_BITS[n] ?? 0)
      this.put(from.code, from.bits)
      left -= n
    }
  }

  /** Pads to a byte; the number of bytes written. */
  end(): number {
    if (this.count > 0) this.out[this.at++] = this.bits & 0xff
    this.bits = 0
    this.count = 0
    return this.at
  }
}

const sameRow = (patterns: Uint8Array, at: number, units: number) => {
  for (let u = 0; u < units; u++) if (patterns[at + u] !== patterns[at - units + u]) return false
  return true
}

/** A given row after its filter byte: its units, then the last module's byte (white, 0xff). */
const writeUnits = (writer: BitWriter, patterns: Uint8Array, at: number, units: number, above: Distance) => {
  let u = 0
  while (u < units) {
    let left = 0
    if (u > 0) {
      const before = patterns[at + u - 1]
      while (u + left < units && patterns[at + u + left] === before) left++
    }
    let up = 0
    if (at > 0) while (u + up < units && patterns[at + u + up] === patterns[at - units + u + up]) up++
    if (left === 0 && up === 0) {
      writer.unit(patterns[at + u] ?? 0)
      u++
    } else if (up >= left) {
      u += up
      // A run above that reaches the row's end takes the last byte too, the same above.
      if (u === units) return writer.copy(3 * up + 1, above)
      writer.copy(3 * up, above)
    } else {
      writer.copy(3 * left, UNIT)
      u += left
    }
  }
  writer.literal(0xff)
}

/**
 * The zlib stream of the image whose rows of modules are `patterns`: `units` patterns (0 to 15)
 * per row, row after row. Each pixel row is `3 * units + 2` bytes: the filter byte, the units,
 * and the byte of the last module.
 */
export const deflateQrImage = (patterns: Uint8Array, units: number): Uint8Array => {
  if (!Number.isInteger(units) || units < 1 || units > MAX_UNITS || patterns.length % units !== 0)
    throw new Error("QR deflate: units must be 1 to 46 and divide the patterns")
  const rows = patterns.length / units
  const stride = 3 * units + 2
  const group = distance(stride * REPEAT)
  // A given row takes at most 9 bits a byte, and its copies (or a copy of the whole row of
  // modules, at most 840 bytes) at most 4 matches of 31 bits: 16 bytes.
  const out = new Uint8Array(16 + rows * (Math.ceil((stride * 9) / 8) + 16))
  out[0] = 0x78 // deflate, 32 KB window
  out[1] = 0x01 // no dictionary, fastest; (0x78 * 256 + 0x01) % 31 === 0
  const writer = new BitWriter(out.subarray(2))
  writer.put(1, 1) // last block
  writer.put(1, 2) // fixed Huffman code
  let a = 1
  let b = 0
  for (let r = 0; r < rows; r++) {
    const at = r * units
    if (r > 0 && sameRow(patterns, at, units)) writer.copy(stride * REPEAT, group)
    else {
      writer.literal(0)
      writeUnits(writer, patterns, at, units, group)
      // The copies: the previous row's copies again, or a 2, then zeros copied from distance 1.
      if (r > 0) writer.copy(stride * (REPEAT - 1), group)
      else {
        writer.literal(2)
        writer.literal(0)
        writer.copy(stride - 2, ONE)
        writer.copy(stride * (REPEAT - 2), distance(stride))
      }
    }
    // Adler-32 of the given row (the filter byte 0, the units, 0xff), reduced once per row:
    // a row adds under 2^24 to either sum.
    b += a
    for (let u = 0; u < units; u++) {
      const pattern = patterns[at + u] ?? 0
      b += 3 * a + (WEIGHTED[pattern] ?? 0)
      a += SUM[pattern] ?? 0
    }
    a = (a + 0xff) % ADLER_MOD
    b = (b + a) % ADLER_MOD
    // Each copy is a 2 and zeros: `a` gains 2 once, `b` gains `a` for every byte.
    for (let c = 1; c < REPEAT; c++) {
      a = (a + 2) % ADLER_MOD
      b = (b + a * stride) % ADLER_MOD
    }
  }
  writer.put(FIXED_CODE[256] ?? 0, FIXED_LENGTH[256] ?? 0) // end of block
  const length = 2 + writer.end()
  if (length + 4 > out.length) throw new Error("QR deflate: output bound exceeded")
  const adler = ((b << 16) | a) >>> 0
  out[length] = adler >>> 24
  out[length + 1] = (adler >>> 16) & 0xff
  out[length + 2] = (adler >>> 8) & 0xff
  out[length + 3] = adler & 0xff
  return out.subarray(0, length + 4)
}
