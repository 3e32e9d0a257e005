/**
 * The zlib stream (RFC 1950/1951) of a PNG image whose rows come in groups: a row written as
 * given, then `repeat - 1` copies of it, each written with filter "up" (a 2 and zeros). A QR
 * code scaled up is such an image, one group per row of modules.
 *
 * zlib's own deflate spends most of a link's QR time setting up its state and searching for
 * matches this layout already knows: a copy row is the previous group's copy rows again
 * (or, in the first group, a 2 then a run of zeros), and a given row often repeats the previous
 * given row or its own last byte. One block with the fixed Huffman code holds all of it.
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

/** Per match length (3 to 258): its symbol's code and length, then its extra bits, packed. */
const LENGTH_CODE = new Int32Array(MAX_MATCH + 1)
const LENGTH_BITS = new Int32Array(MAX_MATCH + 1)
for (let length = MIN_MATCH; length <= MAX_MATCH; length++) {
  const l = slot(LENGTH_BASE, length)
  const extra = LENGTH_EXTRA[l] ?? 0
  const symbolLength = FIXED_LENGTH[257 + l] ?? 0
  LENGTH_CODE[length] = (FIXED_CODE[257 + l] ?? 0) | ((length - (LENGTH_BASE[l] ?? 0)) << symbolLength)
  LENGTH_BITS[length] = symbolLength + extra
}

/** A distance's code (5 bits, reversed) and its extra bits, packed, and their bit count. */
const distanceCode = (distance: number): readonly [number, number] => {
  const d = slot(DIST_BASE, distance)
  return [reverse(d, 5) | ((distance - (DIST_BASE[d] ?? 0)) << 5), 5 + (DIST_EXTRA[d] ?? 0)]
}

class BitWriter {
  private bits = 0
  private count = 0
  private at = 0
  constructor(readonly out: Uint8Array) {}

  put(value: number, length: number) {
    this.bits |= value << this.count
    this.count += length
    while (this.count >= 8) {
      this.out[this.at++] = this.bits & 0xff
      this.bits >>>= 8
      this.count -= 8
    }
  }

  symbol(symbol: number) {
    this.put(FIXED_CODE[symbol] ?? 0, FIXED_LENGTH[symbol] ?? 0)
  }

  literal(byte: number) {
    this.symbol(byte)
  }

  match(length: number, distance: readonly [number, number]) {
    this.put(LENGTH_CODE[length] ?? 0, LENGTH_BITS[length] ?? 0)
    this.put(distance[0], distance[1])
  }

  /** A run of `length` bytes copied from `distance` back, in matches of at most 258. */
  copy(length: number, distance: readonly [number, number]) {
    let left = length
    while (left > 0) {
      const n = left > MAX_MATCH ? (left - MAX_MATCH < MIN_MATCH ? left - MIN_MATCH : MAX_MATCH) : left
      this.match(n, distance)
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

const sameAsPrevious = (rows: Uint8Array, at: number, stride: number) => {
  for (let i = 0; i < stride; i++) if (rows[at + i] !== rows[at - stride + i]) return false
  return true
}

/** A given row: literals, or copies of the byte before or of the previous group's row. */
const ONE = distanceCode(1)

const writeRow = (
  writer: BitWriter,
  rows: Uint8Array,
  at: number,
  stride: number,
  group: readonly [number, number]
) => {
  for (let i = 0; i < stride; ) {
    let run = 0
    if (i > 0) {
      const previous = rows[at + i - 1]
      while (i + run < stride && rows[at + i + run] === previous) run++
    }
    let up = 0
    if (at > 0) while (i + up < stride && rows[at + i + up] === rows[at - stride + i + up]) up++
    if (Math.max(run, up) < MIN_MATCH) {
      writer.literal(rows[at + i] ?? 0)
      i++
    } else if (run >= up) {
      writer.copy(run, ONE)
      i += run
    } else {
      writer.copy(up, group)
      i += up
    }
  }
}

/**
 * The zlib stream of `rows` (each `stride` bytes, filter byte first), each followed by
 * `repeat - 1` filter-up copies. `stride` must be at least 4, `repeat` at least 2, and
 * `stride * repeat` at most 32,768 (deflate's window).
 */
export const deflateScanlines = (rows: Uint8Array, stride: number, repeat: number): Uint8Array => {
  const groups = rows.length / stride
  const group = stride * repeat
  const toGroup = distanceCode(group)
  // A given row's bytes take at most 9 bits each, as literals or in matches (at most 31 bits
  // for 3 bytes or more); a group's copies take at most 2 matches per 256 bytes, 4 bytes each.
  const out = new Uint8Array(8 + Math.ceil((rows.length * 9) / 8) + groups * 8 * (1 + Math.ceil(group / 256)))
  out[0] = 0x78 // deflate, 32 KB window
  out[1] = 0x01 // no dictionary, fastest; (0x78 * 256 + 0x01) % 31 === 0
  const writer = new BitWriter(out.subarray(2))
  writer.put(1, 1) // last block
  writer.put(1, 2) // fixed Huffman code
  let a = 1
  let b = 0
  for (let g = 0; g < groups; g++) {
    const at = g * stride
    if (g > 0 && sameAsPrevious(rows, at, stride)) writer.copy(group, toGroup)
    else {
      writeRow(writer, rows, at, stride, toGroup)
      // The copies: the previous group's again, or a 2, then zeros copied from distance 1.
      if (g > 0) writer.copy(stride * (repeat - 1), toGroup)
      else {
        writer.literal(2)
        writer.literal(0)
        if (stride - 2 >= MIN_MATCH) writer.copy(stride - 2, ONE)
        else for (let k = 2; k < stride; k++) writer.literal(0)
        if (repeat > 2) writer.copy(stride * (repeat - 2), distanceCode(stride))
      }
    }
    for (let i = 0; i < stride; i++) {
      a = (a + (rows[at + i] ?? 0)) % ADLER_MOD
      b = (b + a) % ADLER_MOD
    }
    // Each copy is a 2 and zeros: `a` gains 2 once, `b` gains `a` for every byte.
    for (let r = 1; r < repeat; r++) {
      a = (a + 2) % ADLER_MOD
      b = (b + a * stride) % ADLER_MOD
    }
  }
  writer.symbol(256) // end of block
  const length = 2 + writer.end()
  if (length + 4 > out.length) throw new Error("scanline deflate: output bound exceeded")
  const adler = ((b << 16) | a) >>> 0
  out[length] = adler >>> 24
  out[length + 1] = (adler >>> 16) & 0xff
  out[length + 2] = (adler >>> 8) & 0xff
  out[length + 3] = adler & 0xff
  return out.subarray(0, length + 4)
}
