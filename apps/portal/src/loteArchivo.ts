/**
 * A batch file (CSV, or the rows of an .xlsx read by xlsx.ts) as the items of `POST /lotes`,
 * checked row by row against SPEC's batch rules before anything is created: `monto` greater
 * than 0 with at most 2 decimals, `concepto` 1 to 140 characters, `referencia_externa` up to
 * 64, `cliente` `nombre` up to 120 and `telefono` up to 20, `idempotency_key` up to 64 and not
 * repeated. A batch holds at most 500 items, so a larger file becomes several batches.
 */
import { parseBolivares } from "./format.js"

/** Items per batch (SPEC "Create a batch"). */
export const LOTE_MAX_ITEMS = 500
/** Rows per file: SPEC's bulk actions reach 5,000. */
export const ARCHIVO_MAX_FILAS = 5000

export interface LoteFilaItem {
  readonly monto: number
  readonly concepto: string
  readonly referencia_externa?: string
  readonly cliente?: { readonly nombre?: string; readonly telefono?: string }
  readonly idempotency_key?: string
}

/** A data row of the file: its number as a spreadsheet shows it (the header is row 1). */
export type LoteFila =
  | { readonly fila: number; readonly item: LoteFilaItem; readonly errores?: undefined }
  | { readonly fila: number; readonly item?: undefined; readonly errores: ReadonlyArray<string> }

export interface LoteArchivo {
  /** Valid and invalid rows, in file order (blank rows left out). */
  readonly filas: ReadonlyArray<LoteFila>
  /** What is wrong with the file as a whole (no header, no `monto` column, too many rows). */
  readonly error?: string
}

type Columna =
  | "monto"
  | "concepto"
  | "referencia_externa"
  | "cliente_nombre"
  | "cliente_telefono"
  | "idempotency_key"

/** The headers each column answers to, lower-cased and without accents or spaces. */
const HEADERS: Record<string, Columna> = {
  monto: "monto",
  montobs: "monto",
  concepto: "concepto",
  referencia: "referencia_externa",
  referencia_externa: "referencia_externa",
  referenciaexterna: "referencia_externa",
  cliente: "cliente_nombre",
  nombre: "cliente_nombre",
  cliente_nombre: "cliente_nombre",
  nombre_cliente: "cliente_nombre",
  telefono: "cliente_telefono",
  cliente_telefono: "cliente_telefono",
  telefono_cliente: "cliente_telefono",
  idempotency_key: "idempotency_key",
  clave: "idempotency_key"
}

const normalise = (header: string) =>
  header
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_")
    .replace(/[()]/g, "")

/** Characters as a person counts them (code points), as the server counts them. */
const characters = (value: string): number => {
  let count = 0
  for (const _ of value) count++
  return count
}

/** The separator of a CSV: `;` when the header has more of them than commas (Excel in Spanish), else `,`. */
const separatorOf = (text: string): string => {
  const firstLine = text.slice(0, text.search(/\r?\n|$/))
  const count = (ch: string) => firstLine.split(ch).length - 1
  if (count(";") > count(",")) return ";"
  if (count("\t") > count(",")) return "\t"
  return ","
}

/** RFC 4180 CSV (quotes, doubled quotes, line breaks inside quotes) into rows of cells. */
export const parseCsv = (input: string): Array<Array<string>> => {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const sep = separatorOf(text)
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else cell += ch
    } else if (ch === '"' && cell === "") quoted = true
    else if (ch === sep) {
      row.push(cell)
      cell = ""
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ""
    } else cell += ch
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

const check = (fila: number, cells: Record<Columna, string>, seenKeys: Map<string, number>): LoteFila => {
  const errores: Array<string> = []
  const monto = parseBolivares(cells.monto)
  if (cells.monto.trim() === "") errores.push("Falta el monto")
  else if (/^-\s*\d/.test(cells.monto.trim())) errores.push("El monto debe ser mayor que 0")
  else if (monto === undefined)
    errores.push(`Monto «${cells.monto.trim()}» no es un número con hasta 2 decimales`)
  else if (monto <= 0) errores.push("El monto debe ser mayor que 0")
  const concepto = cells.concepto.trim()
  if (concepto === "") errores.push("Falta el concepto")
  else if (characters(concepto) > 140) errores.push("El concepto admite como máximo 140 caracteres")
  const referencia = cells.referencia_externa.trim()
  if (characters(referencia) > 64) errores.push("La referencia admite como máximo 64 caracteres")
  const nombre = cells.cliente_nombre.trim()
  if (characters(nombre) > 120) errores.push("El nombre del cliente admite como máximo 120 caracteres")
  const telefono = cells.cliente_telefono.trim()
  if (characters(telefono) > 20) errores.push("El teléfono admite como máximo 20 caracteres")
  const clave = cells.idempotency_key.trim()
  if (characters(clave) > 64) errores.push("La clave de idempotencia admite como máximo 64 caracteres")
  else if (clave !== "") {
    const earlier = seenKeys.get(clave)
    if (earlier !== undefined) errores.push(`La clave de idempotencia repite la de la fila ${earlier}`)
    else seenKeys.set(clave, fila)
  }
  if (errores.length > 0 || monto === undefined) return { fila, errores }
  const cliente = {
    ...(nombre === "" ? {} : { nombre }),
    ...(telefono === "" ? {} : { telefono })
  }
  return {
    fila,
    item: {
      monto,
      concepto,
      ...(referencia === "" ? {} : { referencia_externa: referencia }),
      ...(nombre === "" && telefono === "" ? {} : { cliente }),
      ...(clave === "" ? {} : { idempotency_key: clave })
    }
  }
}

/** Rows of cells (the first one the header) as checked batch rows. */
export const readRows = (rows: ReadonlyArray<ReadonlyArray<string>>): LoteArchivo => {
  const headerIndex = rows.findIndex((row) => row.some((cell) => cell.trim() !== ""))
  const header = rows[headerIndex]
  if (header === undefined) return { filas: [], error: "El archivo está vacío." }
  const columns = header.map((cell) => HEADERS[normalise(cell)])
  if (!columns.includes("monto") || !columns.includes("concepto"))
    return {
      filas: [],
      error: "La primera fila debe nombrar las columnas; al menos «monto» y «concepto»."
    }
  const filas: Array<LoteFila> = []
  const seenKeys = new Map<string, number>()
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const row = rows[i] ?? []
    if (row.every((cell) => cell.trim() === "")) continue
    const cells: Record<Columna, string> = {
      monto: "",
      concepto: "",
      referencia_externa: "",
      cliente_nombre: "",
      cliente_telefono: "",
      idempotency_key: ""
    }
    columns.forEach((column, index) => {
      if (column !== undefined && cells[column] === "") cells[column] = row[index] ?? ""
    })
    filas.push(check(i + 1, cells, seenKeys))
  }
  if (filas.length === 0) return { filas, error: "El archivo no tiene filas de datos bajo los encabezados." }
  if (filas.length > ARCHIVO_MAX_FILAS)
    return {
      filas: [],
      error: `El archivo tiene ${filas.length.toLocaleString("es-VE")} filas; el máximo es ${ARCHIVO_MAX_FILAS.toLocaleString("es-VE")}.`
    }
  return { filas }
}

/** A CSV file's text as checked batch rows. */
export const readCsv = (text: string): LoteArchivo => readRows(parseCsv(text))

/** The valid items split into batches of at most {@link LOTE_MAX_ITEMS}, each item with its file row. */
export const chunks = (
  filas: ReadonlyArray<LoteFila>
): Array<Array<{ readonly fila: number; readonly item: LoteFilaItem }>> => {
  const valid = filas.flatMap((f) => (f.item === undefined ? [] : [{ fila: f.fila, item: f.item }]))
  const out: Array<Array<{ readonly fila: number; readonly item: LoteFilaItem }>> = []
  for (let i = 0; i < valid.length; i += LOTE_MAX_ITEMS) out.push(valid.slice(i, i + LOTE_MAX_ITEMS))
  return out
}

const csvCell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? "" : String(value)
  // A cell starting with = + - @ would be a formula in a spreadsheet: quote it with a leading '.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return /[",;\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** CSV text (comma separated, with a BOM so Excel reads it as UTF-8) from a header and rows. */
export const toCsv = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>
): string => `\ufeff${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`

/** The result file's columns: each row of the batch with its link. */
export const RESULTADO_COLUMNAS = [
  "fila",
  "lote_id",
  "link_id",
  "url",
  "estado",
  "monto",
  "concepto",
  "referencia_externa",
  "cliente_nombre",
  "cliente_telefono",
  "idempotency_key"
] as const
