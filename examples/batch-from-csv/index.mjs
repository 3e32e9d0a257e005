// Creates one batch of links from a CSV (referencia_externa,monto,concepto,nombre,telefono)
// and prints each payer's link. Running it twice on the same file returns the same batch.
// SWITCH_KEY=demo:sk_test_... npm start -w examples/batch-from-csv [-- file.csv]
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { Switch, ValidationError } from "@switch/sdk"

const key = process.env.SWITCH_KEY
if (!key) {
  console.error("Set SWITCH_KEY to the key `npm start` printed (demo:sk_test_...).")
  process.exit(1)
}
const file = process.argv[2] ?? new URL("./pedidos.csv", import.meta.url)
const text = readFileSync(file, "utf8")

/** RFC 4180 rows: quoted fields may hold commas and doubled quotes. */
const parseCsv = (input) => {
  const rows = []
  let row = []
  let field = ""
  let quoted = false
  for (let i = 0; i < input.length; i++) {
    const c = input[i]
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++
      row.push(field)
      if (row.some((f) => f !== "")) rows.push(row)
      row = []
      field = ""
    } else field += c
  }
  row.push(field)
  if (row.some((f) => f !== "")) rows.push(row)
  return rows
}

const [header, ...rows] = parseCsv(text)
const col = (name) => header.indexOf(name)
const items = rows.map((r) => ({
  monto: Number(r[col("monto")]),
  concepto: r[col("concepto")],
  ...(r[col("referencia_externa")] ? { referencia_externa: r[col("referencia_externa")] } : {}),
  cliente: {
    ...(r[col("nombre")] ? { nombre: r[col("nombre")] } : {}),
    ...(r[col("telefono")] ? { telefono: r[col("telefono")] } : {})
  }
}))

const sw = new Switch({ key, baseUrl: process.env.SWITCH_BASE_URL ?? "http://localhost:8080" })
// The key comes from the file's content: re-running after a crash cannot create a second batch.
const idempotencyKey = `csv-${createHash("sha256").update(text).digest("hex").slice(0, 40)}`

try {
  const lote = await sw.lotes.create(
    { nombre: `CSV ${new Date().toISOString().slice(0, 10)}`, items },
    { idempotencyKey }
  )
  console.log(
    `Lote ${lote.id}${lote.idempotent_replay ? " (ya existía)" : ""}: ${lote.items.length} links, Bs ${lote.monto_total}`
  )
  for (const item of lote.items) {
    console.log(`${item.referencia_externa ?? "-"}\t${item.monto}\t${item.estado}\t${item.url}`)
  }
} catch (error) {
  if (error instanceof ValidationError) {
    console.error("El archivo tiene filas inválidas:")
    for (const [field, messages] of Object.entries(error.fieldErrors))
      console.error(`  ${field}: ${messages.join(", ")}`)
    process.exit(1)
  }
  throw error
}
