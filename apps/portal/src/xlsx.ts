/**
 * The first sheet of an Excel (.xlsx) file as rows of text, with no library: an .xlsx is a zip
 * whose entries are inflated by the browser's own `DecompressionStream("deflate-raw")`, and the
 * sheet (`xl/worksheets/sheet1.xml`) and its shared strings (`xl/sharedStrings.xml`) are small,
 * regular XML read here. The Lotes screen loads this module only when a merchant picks an .xlsx.
 */

interface Entry {
  readonly method: number
  readonly compressedSize: number
  readonly localOffset: number
}

const u16 = (view: DataView, at: number) => view.getUint16(at, true)
const u32 = (view: DataView, at: number) => view.getUint32(at, true)

/** The zip's central directory: each entry's name, compression and place. */
const directory = (bytes: Uint8Array): Map<string, Entry> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (u32(view, i) === 0x06054b50) {
      end = i
      break
    }
  }
  if (end < 0) throw new Error("no es un archivo .xlsx (zip) válido")
  const count = u16(view, end + 10)
  let at = u32(view, end + 16)
  const entries = new Map<string, Entry>()
  const decoder = new TextDecoder()
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || u32(view, at) !== 0x02014b50)
      throw new Error("el índice del zip está dañado")
    const nameLength = u16(view, at + 28)
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    entries.set(name, {
      method: u16(view, at + 10),
      compressedSize: u32(view, at + 20),
      localOffset: u32(view, at + 42)
    })
    at += 46 + nameLength + u16(view, at + 30) + u16(view, at + 32)
  }
  return entries
}

const inflate = async (data: Uint8Array): Promise<Uint8Array> => {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** One entry's text; undefined when the zip has no such entry. */
const readEntry = async (bytes: Uint8Array, entries: Map<string, Entry>, name: string) => {
  const entry = entries.get(name)
  if (entry === undefined) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const at = entry.localOffset
  if (u32(view, at) !== 0x04034b50) throw new Error("una entrada del zip está dañada")
  const start = at + 30 + u16(view, at + 26) + u16(view, at + 28)
  const data = bytes.subarray(start, start + entry.compressedSize)
  if (entry.method === 0) return new TextDecoder().decode(data)
  if (entry.method === 8) return new TextDecoder().decode(await inflate(data))
  throw new Error("el zip usa una compresión no admitida")
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }

/** XML text with its entities and character references resolved. */
export const unescapeXml = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#x") || ref.startsWith("#X"))
      return String.fromCodePoint(Number.parseInt(ref.slice(2), 16))
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)))
    return ENTITIES[ref] ?? whole
  })

/** The text of every `<t>` run inside an element (rich text has several). */
const runs = (xml: string): string =>
  [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => unescapeXml(m[1] ?? "")).join("")

const attribute = (attrs: string, name: string): string | undefined =>
  new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1]

/** `C` is column 2 (zero-based), `AA` is 26. */
const columnIndex = (ref: string): number => {
  let n = 0
  for (const ch of ref.replace(/\d+$/, "").toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n - 1
}

/**
 * A numeric cell as a Venezuelan would write it, with a decimal comma, so that the amount
 * reader never takes Excel's 1.234 (one point two three four) for a thousands separator:
 * 1234.5 is `1234,5`, 12.300000000000001 is `12,3`, 1.234 stays three decimals (`1,234`).
 */
const numberText = (raw: string): string => {
  const value = Number(raw)
  if (!Number.isFinite(value)) return raw
  const cents = Math.round(value * 100)
  const text = Math.abs(value * 100 - cents) < 1e-6 ? String(cents / 100) : raw
  return /^-?\d+\.\d+$/.test(text) ? text.replace(".", ",") : text
}

/** A sheet's XML and its shared strings as rows of cell text (a gap in the sheet is an empty row). */
export const sheetRows = (sheet: string, shared: ReadonlyArray<string>): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  for (const rowMatch of sheet.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const rowNumber = Number(attribute(rowMatch[1] ?? "", "r") ?? rows.length + 1)
    const cells: Array<string> = []
    for (const cell of (rowMatch[2] ?? "").matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cell[1] ?? ""
      const body = cell[2] ?? ""
      const ref = attribute(attrs, "r")
      const index = ref === undefined ? cells.length : columnIndex(ref)
      const type = attribute(attrs, "t")
      const value = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1]
      let text = ""
      if (type === "s") text = shared[Number(value)] ?? ""
      else if (type === "inlineStr") text = runs(body)
      else if (type === "b") text = value === "1" ? "VERDADERO" : "FALSO"
      else if (type === "str" || type === "e") text = unescapeXml(value ?? "")
      else if (value !== undefined) text = numberText(value)
      while (cells.length < index) cells.push("")
      cells[index] = text
    }
    while (rows.length < rowNumber - 1) rows.push([])
    rows[rowNumber - 1] = cells
  }
  return rows
}

/** The first sheet of an .xlsx file as rows of cell text. */
export const readXlsx = async (file: ArrayBuffer | Uint8Array): Promise<Array<Array<string>>> => {
  const bytes = file instanceof Uint8Array ? file : new Uint8Array(file)
  const entries = directory(bytes)
  const sheetName = entries.has("xl/worksheets/sheet1.xml")
    ? "xl/worksheets/sheet1.xml"
    : [...entries.keys()].filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n)).sort()[0]
  const sheet = sheetName === undefined ? undefined : await readEntry(bytes, entries, sheetName)
  if (sheet === undefined) throw new Error("el archivo no tiene hojas")
  const sharedXml = (await readEntry(bytes, entries, "xl/sharedStrings.xml")) ?? ""
  const shared = [...sharedXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => runs(m[1] ?? ""))
  return sheetRows(sheet, shared)
}
