/** `links create|list|get|cancel|simulate`. */

import { type Link, type LinkListParams, LinkStates } from "@switch/sdk"
import type { Command } from "commander"
import QRCode from "qrcode"
import {
  action,
  argumentWithValues,
  collectPair,
  oneOf,
  optionWithValues,
  parseAmount,
  parseInteger
} from "../Action.js"
import type { Context } from "../Context.js"
import { bs, type Column } from "../Output.js"

export const estadoColor = (context: Context, estado: string) => {
  const o = context.output
  if (estado === "pagado") return o.green(estado)
  if (estado === "cancelado" || estado === "expirado") return o.dim(estado)
  if (estado === "pendiente") return estado
  return o.yellow(estado)
}

const LINK_COLUMNS = (context: Context): ReadonlyArray<Column<Link>> => [
  { title: "id", value: (l) => l.id },
  { title: "estado", value: (l) => estadoColor(context, l.estado) },
  { title: "monto", value: (l) => bs(l.monto) },
  { title: "concepto", value: (l) => l.concepto, max: 40 },
  { title: "creado", value: (l) => l.created_at.slice(0, 16).replace("T", " ") },
  { title: "recibo", value: (l) => l.codigo_verificacion }
]

const showLink = (context: Context, link: Link) =>
  context.output.fields([
    ["id", link.id],
    ["url", link.url],
    ["qr", link.qr_png],
    ["estado", estadoColor(context, link.estado)],
    ["monto", bs(link.monto)],
    ...(link.propina ? ([["propina", bs(link.propina)]] as const) : []),
    ["concepto", link.concepto],
    ["modo", link.mode],
    ["expira", link.expires_at],
    ["creado", link.created_at],
    ...(link.paid_at ? ([["pagado", link.paid_at]] as const) : []),
    ...(link.codigo_verificacion ? ([["recibo", link.codigo_verificacion]] as const) : []),
    ...(link.txn_id ? ([["transacción", link.txn_id]] as const) : []),
    ...(link.metadata && Object.keys(link.metadata).length > 0
      ? ([["metadata", link.metadata]] as const)
      : [])
  ])

/** What `links simulate` can make of a test link. */
export const SIMULACIONES = ["pagado", "rechazado", "expirado"] as const

interface CreateOptions {
  monto: number
  concepto: string
  expiraHoras?: number
  successUrl?: string
  failureUrl?: string
  metadata?: Record<string, string>
  idempotencyKey?: string
  qr?: boolean
}

interface ListOptions {
  estado?: string
  desde?: string
  hasta?: string
  q?: string
  min?: number
  max?: number
  limit?: number
  all?: boolean
}

export const registerLinks = (program: Command) => {
  const links = program.command("links").description("links de pago")

  links
    .command("create")
    .description("crea un link de pago e imprime su id y su url")
    .requiredOption("--monto <monto>", "monto en bolívares (150.50 o 150,50)", parseAmount)
    .requiredOption("--concepto <texto>", "concepto, hasta 140 caracteres")
    .option("--expira-horas <n>", "validez en horas, de 1 a 720 (24 si se omite)", parseInteger(1, 720))
    .option("--success-url <url>", "a dónde vuelve el pagador tras pagar (https://)")
    .option("--failure-url <url>", "a dónde vuelve si expira, se cancela o desiste (https://)")
    .option("--metadata <clave=valor>", "dato propio del comercio; repetible", collectPair)
    .option("--idempotency-key <clave>", "repetir con la misma clave devuelve el mismo link")
    .option("--qr", "dibuja el código QR de la url en la terminal")
    .action(
      action(async (context, options: CreateOptions) => {
        const link = await context.client().links.create(
          {
            monto: options.monto,
            concepto: options.concepto,
            ...(options.expiraHoras === undefined ? {} : { expira_horas: options.expiraHoras }),
            ...(options.successUrl === undefined ? {} : { success_url: options.successUrl }),
            ...(options.failureUrl === undefined ? {} : { failure_url: options.failureUrl }),
            ...(options.metadata === undefined ? {} : { metadata: options.metadata })
          },
          options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }
        )
        // In colour, dark-on-light blocks; without colour (NO_COLOR, --no-color, a file or a pipe)
        // the same code in half-block characters alone, with no escape codes.
        const qr = options.qr
          ? await QRCode.toString(
              link.url,
              context.output.color ? { type: "terminal", small: true } : { type: "utf8" }
            )
          : undefined
        context.output.result(qr === undefined ? link : { ...link, qr_terminal: qr }, () => {
          const o = context.output
          o.line(`${o.green("✓")} Link ${link.idempotent_replay ? "existente (misma clave)" : "creado"}`)
          o.fields([
            ["id", link.id],
            ["url", o.cyan(link.url)],
            ["qr", link.qr_png],
            ["monto", bs(link.monto)],
            ["expira", link.expires_at],
            ["modo", link.mode]
          ])
          if (qr !== undefined) o.line(qr)
        })
        return 0
      })
    )

  links
    .command("list")
    .description("lista los links, los más recientes primero")
    .addOption(optionWithValues("--estado <estados>", "estados separados por comas", LinkStates))
    .option("--desde <fecha>", "desde (ISO 8601 o epoch ms), inclusive")
    .option("--hasta <fecha>", "hasta (ISO 8601 o epoch ms), exclusive")
    .option("--q <texto>", "cada palabra debe aparecer en concepto, pagador, referencia, id o recibo")
    .option("--min <monto>", "monto mínimo", parseAmount)
    .option("--max <monto>", "monto máximo", parseAmount)
    .option("--limit <n>", "cuántos mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todos, recorriendo todas las páginas")
    .action(
      action(async (context, options: ListOptions) => {
        const params: LinkListParams = {
          ...(options.estado === undefined ? {} : { estado: options.estado }),
          ...(options.desde === undefined ? {} : { desde: options.desde }),
          ...(options.hasta === undefined ? {} : { hasta: options.hasta }),
          ...(options.q === undefined ? {} : { q: options.q }),
          ...(options.min === undefined ? {} : { min: options.min }),
          ...(options.max === undefined ? {} : { max: options.max })
        }
        const rows = await collect(
          context.client().links.list({ ...params, limit: pageSize(options) }),
          options
        )
        context.output.result(rows, () => context.output.table(rows, LINK_COLUMNS(context), "(ningún link)"))
        return 0
      })
    )

  links
    .command("get <id>")
    .description("muestra un link")
    .action(
      action(async (context, id: string) => {
        const link = await context.client().links.get(id)
        context.output.result(link, () => showLink(context, link))
        return 0
      })
    )

  links
    .command("cancel <id>")
    .description("cancela un link pendiente")
    .action(
      action(async (context, id: string) => {
        const result = await context.client().links.cancel(id)
        context.output.result(result, () =>
          context.output.line(`${context.output.green("✓")} ${id} cancelado`)
        )
        return 0
      })
    )

  links
    .command("simulate")
    .description("fuerza el resultado de un link de prueba: pagado, rechazado o expirado")
    .argument("<id>", "el link de prueba")
    .addArgument(argumentWithValues("<resultado>", "qué simular", SIMULACIONES))
    .action(
      action(async (context, id: string, resultado: string) => {
        const outcome = oneOf(SIMULACIONES)(resultado)
        const result = await context.client().links.simulate(id, outcome)
        context.output.result(result, () =>
          context.output.line(
            `${context.output.green("✓")} ${id}: simulado ${outcome}, estado ${estadoColor(context, result.estado)}`
          )
        )
        return 0
      })
    )
}

/** `--limit` or `--all` as a page size: the server's maximum is 200. */
export const pageSize = (options: { limit?: number; all?: boolean }) =>
  options.all ? 200 : Math.min(options.limit ?? 50, 200)

/** The first page, or up to `--limit` items, or every item with `--all`. */
export const collect = async <T>(
  list: PromiseLike<ReadonlyArray<T>> & { toArray(options?: { limit?: number }): Promise<Array<T>> },
  options: { limit?: number; all?: boolean }
): Promise<ReadonlyArray<T>> => {
  if (options.all) return list.toArray({ limit: Number.MAX_SAFE_INTEGER })
  if ((options.limit ?? 50) <= 200) return list
  return list.toArray({ limit: options.limit ?? 50 })
}
