/**
 * Batch CSVs: reading (header row, comma, semicolon or tab, quoted cells, UTF-8 with or without
 * BOM), validating every row against SPEC's batch rules before anything is sent, the
 * idempotency keys that make a rerun create nothing new, and the output CSV with `link_id`
 * and `url` added.
 */
import { createHash } from "node:crypto"

/** The columns SPEC names for a batch item. */
export const COLUMNS = [
  "monto",
  "concepto",
  "referencia_externa",
  "cliente_nombre",
  "cliente_telefono",
  "idempotency_key"
] as const
export type ColumnName = (typeof COLUMNS)[number]

/** Items per `POST /lotes` (SPEC limit). */
export const LOTE_MAX_ITEMS = 500

/** A parsed table: the header, the data records and the file row each record starts on. */
export interface Table {
  readonly delimiter: "," | ";" | "\t"
  readonly bom: boolean
  readonly header: ReadonlyArray<string>
  readonly records: ReadonlyArray<{ readonly row: number; readonly cells: ReadonlyArray<string> }>
}

/** One problem in the file, by spreadsheet row (the header is row 1) and column name. */
export interface RowError {
  readonly fila: number
  readonly columna: string | null
  readonly mensaje: string
}

/** A row ready to send. */
export interface Item {
  readonly row: number
  readonly cells: ReadonlyArray<string>
  readonly monto: number
  readonly concepto: string
  readonly referencia_externa?: string
  readonly cliente?: { readonly nombre?: string; readonly telefono?: string }
  readonly idempotency_key: string
}

/** Decodes the file bytes: UTF-8 only (a BOM is dropped); anything else is refused with a hint. */
export const decode = (bytes: Uint8Array): { readonly text: string; readonly bom: boolean } => {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bom ? bytes.subarray(3) : bytes), bom }
  } catch {
    throw new CsvError(
      "el archivo no es UTF-8 válido (¿se guardó como ANSI o Latin-1?); guárdalo como «CSV UTF-8»"
    )
  }
}

/** A file that cannot be read as a table at all. */
export class CsvError extends Error {
  override readonly name = "CsvError"
}

const detectDelimiter = (firstLine: string): Table["delimiter"] => {
  const count = (ch: string) => {
    let n = 0
    let quoted = false
    for (const c of firstLine) {
      if (c === '"') quoted = !quoted
      else if (!quoted && c === ch) n++
    }
    return n
  }
  const counts = { ",": count(","), ";": count(";"), "\t": count("\t") } as const
  if (counts["\t"] > counts[","] && counts["\t"] > counts[";"]) return "\t"
  return counts[";"] > counts[","] ? ";" : ","
}

/** RFC 4180 records: quoted cells may hold the delimiter, `""` and line breaks. */
export const parse = (text: string, bom = false): Table => {
  const firstLine = text.slice(0, text.search(/\r?\n|$/))
  const delimiter = detectDelimiter(firstLine)
  const records: Array<{ row: number; cells: Array<string> }> = []
  let cells: Array<string> = []
  let value = ""
  let quoted = false
  let line = 1
  let recordRow = 1
  let atCellStart = true
  const endCell = () => {
    cells.push(value)
    value = ""
    atCellStart = true
  }
  const endRecord = () => {
    endCell()
    records.push({ row: recordRow, cells })
    cells = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          value += '"'
          i++
        } else quoted = false
      } else {
        if (c === "\n") line++
        value += c
      }
      continue
    }
    if (c === '"' && atCellStart) {
      quoted = true
      atCellStart = false
    } else if (c === delimiter) endCell()
    else if (c === "\r" && text[i + 1] === "\n") continue
    else if (c === "\n" || c === "\r") {
      endRecord()
      line++
      recordRow = line
    } else {
      value += c
      atCellStart = false
    }
  }
  if (quoted) throw new CsvError(`fila ${recordRow}: una comilla abierta no se cierra`)
  if (value !== "" || cells.length > 0) endRecord()
  const [head, ...rest] = records
  if (head === undefined || head.cells.every((cell) => cell.trim() === "")) {
    throw new CsvError("el archivo está vacío: falta la fila de encabezado")
  }
  return {
    delimiter,
    bom,
    header: head.cells.map((cell) => cell.trim()),
    // Blank lines are skipped but keep their row numbers, so rows match the spreadsheet.
    records: rest.filter((record) => record.cells.some((cell) => cell.trim() !== ""))
  }
}

/**
 * Reads a decimal amount written with a decimal comma or point: `150`, `150.5`, `150,50`,
 * `1.234,56`, `1,234.56`. Thousands separators only group by three. Answers cents, or a
 * Spanish message.
 */
export const parseMonto = (input: string): { cents: number } | { error: string } => {
  const text = input.trim().replace(/^bs\.?\s*/i, "")
  const invalid = { error: `"${input.trim()}" no es un monto válido` }
  if (text === "") return { error: "es obligatorio" }
  if (text.startsWith("-")) return { error: "debe ser mayor que 0" }
  if (!/^[\d.,]+$/.test(text)) return invalid
  const commas = text.split(",").length - 1
  const dots = text.split(".").length - 1
  let whole: string
  let fraction = ""
  if (commas > 0 && dots > 0) {
    const decimal = text.lastIndexOf(",") > text.lastIndexOf(".") ? "," : "."
    const thousands = decimal === "," ? "." : ","
    const at = text.lastIndexOf(decimal)
    whole = text.slice(0, at)
    fraction = text.slice(at + 1)
    if (text.split(decimal).length !== 2) return invalid
    if (!new RegExp(`^\\d{1,3}(\\${thousands}\\d{3})+$`).test(whole)) return invalid
    whole = whole.split(thousands).join("")
  } else if (commas + dots > 1) {
    // Only one kind of separator, repeated: thousands groups (`1.234.567`), no decimals.
    const sep = commas > 0 ? "," : "."
    if (!new RegExp(`^\\d{1,3}(\\${sep}\\d{3})+$`).test(text)) return invalid
    whole = text.split(sep).join("")
  } else if (commas + dots === 1) {
    const at = text.search(/[.,]/)
    whole = text.slice(0, at)
    fraction = text.slice(at + 1)
    if (fraction.length === 3) {
      const n = `${whole}${fraction}`
      return {
        error: `"${input.trim()}" es ambiguo (admite 2 decimales); para ${n} bolívares escribe ${n} o ${n},00`
      }
    }
  } else whole = text
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) return invalid
  if (fraction.length > 2) return { error: "admite como máximo 2 decimales" }
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"))
  if (!Number.isSafeInteger(cents) || cents > 99_999_999_999_999) return { error: "es demasiado grande" }
  if (cents === 0) return { error: "debe ser mayor que 0" }
  return { cents }
}

const LIMITS: Record<Exclude<ColumnName, "monto">, number> = {
  concepto: 140,
  referencia_externa: 64,
  cliente_nombre: 120,
  cliente_telefono: 20,
  idempotency_key: 64
}

/** `A`, `B`, ... `AA`: the spreadsheet letter of a 0-based column. */
export const columnLetter = (index: number): string => {
  let n = index + 1
  let out = ""
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

/** SHA-256 of the file's bytes: the seed of every derived idempotency key. */
export const fileHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/** The key of a row without its own: the file and the row, so a rerun of the same file repeats it. */
export const itemKey = (hash: string, row: number): string => `csv-${hash.slice(0, 40)}-f${row}`

/** The key of the n-th batch (1-based) of a file; the server answers the same batch on a rerun. */
export const loteKey = (hash: string, index: number, count: number): string =>
  `csv-${hash.slice(0, 40)}-lote-${index}-de-${count}`

/**
 * Checks every row and returns the items, or every problem found (by row and column). Nothing
 * is sent unless this returns no errors.
 */
export const validate = (
  table: Table,
  hash: string
): { readonly items: ReadonlyArray<Item>; readonly errors: ReadonlyArray<RowError> } => {
  const errors: Array<RowError> = []
  const index = new Map<string, number>()
  table.header.forEach((name, i) => {
    const normalized = name.toLowerCase()
    if (index.has(normalized)) errors.push({ fila: 1, columna: name, mensaje: "la columna está repetida" })
    else index.set(normalized, i)
  })
  for (const required of ["monto", "concepto"] as const) {
    if (!index.has(required)) {
      errors.push({ fila: 1, columna: required, mensaje: "falta la columna en el encabezado" })
    }
  }
  if (errors.length > 0) return { items: [], errors }
  if (table.records.length === 0) {
    return { items: [], errors: [{ fila: 2, columna: null, mensaje: "el archivo no tiene filas de datos" }] }
  }
  const columnOf = (name: ColumnName) => {
    const i = index.get(name)
    return i === undefined ? name : `${name} (${columnLetter(i)})`
  }
  const items: Array<Item> = []
  const keys = new Map<string, number>()
  for (const record of table.records) {
    const get = (name: ColumnName) => {
      const i = index.get(name)
      return i === undefined ? "" : (record.cells[i] ?? "").trim()
    }
    const rowErrors: Array<RowError> = []
    const fail = (name: ColumnName | null, mensaje: string) =>
      rowErrors.push({ fila: record.row, columna: name === null ? null : columnOf(name), mensaje })
    if (record.cells.length > table.header.length) {
      fail(
        null,
        `tiene ${record.cells.length} columnas y el encabezado ${table.header.length}` +
          ` (¿un texto con "${table.delimiter}" sin comillas?)`
      )
    }
    const monto = parseMonto(get("monto"))
    if ("error" in monto) fail("monto", monto.error)
    for (const name of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
      const value = get(name)
      if (name === "concepto" && value === "") fail(name, "es obligatorio")
      const length = [...value].length
      if (length > LIMITS[name]) fail(name, `admite como máximo ${LIMITS[name]} caracteres (tiene ${length})`)
    }
    const ownKey = get("idempotency_key")
    const key = ownKey === "" ? itemKey(hash, record.row) : ownKey
    const seenAt = keys.get(key)
    if (seenAt !== undefined) fail("idempotency_key", `repite la clave de la fila ${seenAt}`)
    keys.set(key, record.row)
    if (rowErrors.length > 0 || "error" in monto) {
      errors.push(...rowErrors)
      continue
    }
    const nombre = get("cliente_nombre")
    const telefono = get("cliente_telefono")
    const referencia = get("referencia_externa")
    items.push({
      row: record.row,
      cells: record.cells,
      monto: monto.cents / 100,
      concepto: get("concepto"),
      ...(referencia === "" ? {} : { referencia_externa: referencia }),
      ...(nombre === "" && telefono === ""
        ? {}
        : {
            cliente: { ...(nombre === "" ? {} : { nombre }), ...(telefono === "" ? {} : { telefono }) }
          }),
      idempotency_key: key
    })
  }
  return { items: errors.length > 0 ? [] : items, errors }
}

/** Columns of the file that the batch does not use (kept in the output, reported once). */
export const unknownColumns = (table: Table): ReadonlyArray<string> =>
  table.header.filter(
    (name) => !(COLUMNS as ReadonlyArray<string>).includes(name.toLowerCase()) && name !== ""
  )

/** Splits the items into batches of at most {@link LOTE_MAX_ITEMS}. */
export const chunk = <T>(items: ReadonlyArray<T>, size = LOTE_MAX_ITEMS): ReadonlyArray<ReadonlyArray<T>> => {
  const out: Array<ReadonlyArray<T>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

const quote = (value: string, delimiter: string) =>
  value.includes('"') || value.includes(delimiter) || /[\r\n]/.test(value) || /^\s|\s$/.test(value)
    ? `"${value.replaceAll('"', '""')}"`
    : value

/**
 * The input rows with `link_id` and `url` added (or filled, when the file already had those
 * columns), with the input's delimiter and BOM, so the file opens as the original did.
 */
export const writeWithLinks = (
  table: Table,
  items: ReadonlyArray<Item>,
  links: ReadonlyMap<string, { readonly link_id: string; readonly url: string }>
): string => {
  const lower = table.header.map((name) => name.toLowerCase())
  const header = [...table.header]
  let linkCol = lower.indexOf("link_id")
  if (linkCol === -1) linkCol = header.push("link_id") - 1
  let urlCol = lower.indexOf("url")
  if (urlCol === -1) urlCol = header.push("url") - 1
  const lines = [header.map((cell) => quote(cell, table.delimiter)).join(table.delimiter)]
  for (const item of items) {
    const cells = Array.from({ length: header.length }, (_, i) => item.cells[i] ?? "")
    const link = links.get(item.idempotency_key)
    cells[linkCol] = link?.link_id ?? ""
    cells[urlCol] = link?.url ?? ""
    lines.push(cells.map((cell) => quote(cell, table.delimiter)).join(table.delimiter))
  }
  return `${table.bom ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`
}
