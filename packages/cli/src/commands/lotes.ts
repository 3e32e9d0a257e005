/** `lotes create --csv`, `lotes list|get|cancel`. */
import { readFileSync, writeFileSync } from "node:fs"
import { basename, dirname, extname, join } from "node:path"
import type { Lote, LoteSummary } from "@switch/sdk"
import type { Command } from "commander"
import { action, parseInteger } from "../Action.js"
import type { Context } from "../Context.js"
import * as Csv from "../Csv.js"
import { bs, Progress, UsageError } from "../Output.js"
import { collect, estadoColor, pageSize } from "./links.js"

interface CreateOptions {
  csv: string
  nombre?: string
  expiraHoras?: number
  out?: string
}

/** Where the output CSV goes by default: beside the input, `pedidos.csv` -> `pedidos.links.csv`. */
export const defaultOut = (input: string) => {
  const ext = extname(input)
  return join(dirname(input), `${basename(input, ext)}.links${ext === "" ? ".csv" : ext}`)
}

const readTable = (path: string) => {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    throw new UsageError(`no se pudo leer ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`)
  }
  try {
    const { text, bom } = Csv.decode(bytes)
    return { table: Csv.parse(text, bom), hash: Csv.fileHash(bytes) }
  } catch (error) {
    if (error instanceof Csv.CsvError)
      throw new UsageError(`${path}: ${error.message}`, { code: "csv_invalido" })
    throw error
  }
}

const createFromCsv = async (context: Context, options: CreateOptions) => {
  const o = context.output
  const { table, hash } = readTable(options.csv)
  const { items, errors } = Csv.validate(table, hash)
  if (errors.length > 0) {
    const shown = errors.slice(0, 50)
    const lines = shown.map(
      (e) => `  fila ${e.fila}${e.columna === null ? "" : `, columna ${e.columna}`}: ${e.mensaje}`
    )
    const more = errors.length > shown.length ? [`  ... y ${errors.length - shown.length} errores más`] : []
    throw new UsageError(
      `${options.csv}: ${errors.length} ${errors.length === 1 ? "error" : "errores"}; no se creó nada\n${[...lines, ...more].join("\n")}`,
      { code: "csv_invalido", data: { errores: errors } }
    )
  }
  const unknown = Csv.unknownColumns(table).filter((name) => !["link_id", "url"].includes(name.toLowerCase()))
  if (unknown.length > 0 && !o.json) {
    o.note(o.dim(`Columnas que no van al lote (se conservan en la salida): ${unknown.join(", ")}`))
  }
  const client = context.client()
  const chunks = Csv.chunk(items)
  const progress = new Progress(o, items.length, chunks.length > 1 ? `${chunks.length} lotes` : "lote")
  progress.update(0)
  const links = new Map<string, { link_id: string; url: string }>()
  const lotes: Array<{ id: string; items: number; nuevo: boolean }> = []
  let done = 0
  for (const [i, part] of chunks.entries()) {
    let lote: Lote
    try {
      lote = await client.lotes.create({
        ...(options.nombre === undefined
          ? {}
          : { nombre: chunks.length > 1 ? `${options.nombre} (${i + 1}/${chunks.length})` : options.nombre }),
        ...(options.expiraHoras === undefined ? {} : { expira_horas: options.expiraHoras }),
        idempotency_key: Csv.loteKey(hash, i + 1, chunks.length),
        items: part.map((item) => ({
          monto: item.monto,
          concepto: item.concepto,
          ...(item.referencia_externa === undefined ? {} : { referencia_externa: item.referencia_externa }),
          ...(item.cliente === undefined ? {} : { cliente: item.cliente }),
          idempotency_key: item.idempotency_key
        }))
      })
    } catch (error) {
      progress.done()
      if (lotes.length > 0) {
        o.note(
          `${lotes.length} de ${chunks.length} lotes ya se crearon (${lotes.map((l) => l.id).join(", ")}); ` +
            "vuelve a ejecutar el mismo comando con el mismo archivo: no repetirá nada"
        )
      }
      throw error
    }
    for (const item of lote.items) links.set(item.idempotency_key, { link_id: item.link_id, url: item.url })
    lotes.push({ id: lote.id, items: lote.items.length, nuevo: lote.idempotent_replay !== true })
    done += part.length
    progress.update(done, ` · lote ${i + 1}/${chunks.length}`)
  }
  progress.done()
  const csv = Csv.writeWithLinks(table, items, links)
  const out = options.out ?? defaultOut(options.csv)
  if (out === "-") context.streams.out.write(csv)
  else writeFileSync(out, csv)
  const creados = lotes.filter((l) => l.nuevo).reduce((n, l) => n + l.items, 0)
  const summary = {
    lotes,
    links: items.length,
    links_nuevos: creados,
    links_existentes: items.length - creados,
    salida: out === "-" ? null : out
  }
  if (out === "-") {
    if (o.json) o.note(JSON.stringify(summary))
  } else {
    o.result(summary, () => {
      o.line(
        `${o.green("✓")} ${items.length} links en ${lotes.length} ${lotes.length === 1 ? "lote" : "lotes"}: ` +
          `${creados} nuevos, ${items.length - creados} ya existían`
      )
      for (const lote of lotes)
        o.line(`  ${lote.id}  ${lote.items} links${lote.nuevo ? "" : o.dim(" (ya existía)")}`)
      o.line(`CSV con link_id y url: ${out}`)
    })
  }
  return 0
}

const showLote = (context: Context, lote: Lote) => {
  const o = context.output
  o.fields([
    ["id", lote.id],
    ["nombre", lote.nombre],
    ["modo", lote.mode],
    ["creado", lote.created_at],
    ["expira", lote.expires_at],
    ["total", `${bs(lote.monto_total)} (pagado ${bs(lote.monto_pagado)})`],
    [
      "pagados",
      `${lote.pagados} de ${lote.items.length}, ${lote.abiertos} abiertos${lote.completo ? ", completo" : ""}`
    ],
    [
      "por estado",
      Object.entries(lote.por_estado)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")
    ]
  ])
  o.line()
  o.table(lote.items, [
    { title: "link_id", value: (i) => i.link_id },
    { title: "estado", value: (i) => estadoColor(context, i.estado) },
    { title: "monto", value: (i) => bs(i.monto) },
    { title: "referencia", value: (i) => i.referencia_externa },
    { title: "concepto", value: (i) => i.concepto, max: 40 }
  ])
}

export const registerLotes = (program: Command) => {
  const lotes = program.command("lotes").description("lotes de links desde un CSV")

  lotes
    .command("create")
    .description("crea links desde un CSV (más de 500 filas: varios lotes); repetirlo no crea nada nuevo")
    .requiredOption(
      "--csv <archivo>",
      "CSV con encabezado: monto, concepto[, referencia_externa, cliente_nombre, cliente_telefono, idempotency_key]"
    )
    .option("--nombre <texto>", "nombre del lote")
    .option("--expira-horas <n>", "validez de los links en horas, de 1 a 720", parseInteger(1, 720))
    .option(
      "--out <archivo>",
      "CSV de salida con link_id y url (`-`: stdout); por defecto <archivo>.links.csv"
    )
    .action(action(createFromCsv))

  lotes
    .command("list")
    .description("lista los lotes con su resumen")
    .option("--limit <n>", "cuántos mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todos")
    .action(
      action(async (context, options: { limit?: number; all?: boolean }) => {
        const rows = await collect(context.client().lotes.list({ limit: pageSize(options) }), options)
        context.output.result(rows, () =>
          context.output.table<LoteSummary>(
            rows,
            [
              { title: "id", value: (l) => l.id },
              { title: "nombre", value: (l) => l.nombre, max: 30 },
              { title: "links", value: (l) => Object.values(l.por_estado).reduce((a, b) => a + b, 0) },
              { title: "pagados", value: (l) => l.pagados },
              { title: "abiertos", value: (l) => l.abiertos },
              { title: "total", value: (l) => bs(l.monto_total) },
              { title: "creado", value: (l) => l.created_at.slice(0, 16).replace("T", " ") }
            ],
            "(ningún lote)"
          )
        )
        return 0
      })
    )

  lotes
    .command("get <id>")
    .description("muestra un lote con sus links")
    .action(
      action(async (context, id: string) => {
        const lote = await context.client().lotes.get(id)
        context.output.result(lote, () => showLote(context, lote))
        return 0
      })
    )

  lotes
    .command("cancel <id>")
    .description("cancela los links del lote que siguen pendientes")
    .action(
      action(async (context, id: string) => {
        const result = await context.client().lotes.cancel(id)
        context.output.result(result, () =>
          context.output.line(
            `${context.output.green("✓")} ${result.cancelados} cancelados, ${result.no_cancelables} no cancelables`
          )
        )
        return 0
      })
    )
}
