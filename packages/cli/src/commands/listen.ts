/** `listen [--forward-to URL] [--events ...] [--print-secret]`. */
import { EventNames } from "@switch/sdk"
import type { Command } from "commander"
import { action, collectList, optionWithValues, parseInteger } from "../Action.js"
import { keyParts, listenSecret } from "../Config.js"
import type { Context } from "../Context.js"
import { userAgent } from "../Context.js"
import { listen } from "../Listen.js"
import { UsageError } from "../Output.js"
import { checkEvents } from "./webhooks.js"

interface ListenOptions {
  forwardTo?: string
  events?: ReadonlyArray<string>
  printSecret?: boolean
  idleTimeout?: number
}

const time = () => new Date().toISOString().slice(11, 19)

const run = async (context: Context, options: ListenOptions): Promise<number> => {
  const o = context.output
  const client = context.client()
  const { key, baseUrl } = context.resolved()
  const { comercio, mode } = keyParts(key!)
  const secret = listenSecret(context.env, comercio)
  if (options.printSecret) {
    o.result({ secret }, () => o.line(secret))
    return 0
  }
  if (options.forwardTo !== undefined) {
    try {
      const url = new URL(options.forwardTo)
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error()
    } catch {
      throw new UsageError(`--forward-to "${options.forwardTo}" no es una URL http(s)`)
    }
  }
  const events = options.events === undefined ? undefined : new Set(checkEvents(options.events))
  // Start right after the newest notice that exists now (seq 0 when none): every notice from
  // here on is delivered, with no race against the stream's first poll.
  const newest = await client.eventos.list({ limit: 1 })
  const startAfter = newest[0]?.id ?? "0"
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  try {
    await listen({
      baseUrl,
      key: key!,
      secret,
      forwardTo: options.forwardTo,
      events,
      signal: controller.signal,
      fetch: context.fetch,
      userAgent,
      startAfter,
      ...(options.idleTimeout === undefined ? {} : { idleTimeoutMs: options.idleTimeout * 1000 }),
      onReady: ({ reconnected, resumedAfter }) => {
        if (reconnected) {
          o.note(`${o.green("Reconectado")}; retomando después del evento ${resumedAfter ?? "(inicio)"}`, {
            estado: "reconectado",
            despues_de: resumedAfter ?? null
          })
          return
        }
        const target = options.forwardTo === undefined ? "" : ` → ${o.cyan(options.forwardTo)}`
        const listening = {
          estado: "listo",
          comercio,
          mode,
          eventos: events === undefined ? null : [...events],
          forward_to: options.forwardTo ?? null,
          secret
        }
        if (o.json) {
          o.note("Escuchando; Ctrl-C para salir", listening)
          return
        }
        o.note(
          `${o.green("Listo.")} Escuchando eventos ${mode} de ${comercio}` +
            `${events === undefined ? "" : ` (${[...events].join(", ")})`}${target}`
        )
        o.note(`Secreto de firma: ${o.bold(secret)}  (switch listen --print-secret lo imprime)`)
        o.note(o.dim("Ctrl-C para salir."))
      },
      onDisconnect: ({ reason, retryInMs, attempt }) =>
        o.note(
          o.yellow(
            `Conexión perdida (${reason}); reintento ${attempt} en ${(retryInMs / 1000).toFixed(1)} s, sin perder eventos`
          ),
          { estado: "desconectado", motivo: reason, reintento: attempt, en_ms: retryInMs }
        ),
      onNotice: (notice) => {
        if (o.json) {
          if (options.forwardTo === undefined) o.line(JSON.stringify({ event: notice.event }))
          return
        }
        o.line(`${time()}  --> ${o.bold(notice.event.evento)} [${notice.event.id}]`)
      },
      onForwarded: (notice, result) => {
        if (o.json) {
          o.line(JSON.stringify({ event: notice.event, forward: result }))
          return
        }
        const ok = result.status !== null && result.status >= 200 && result.status < 300
        const status =
          result.status === null
            ? o.red(`[${result.error}]`)
            : ok
              ? o.green(`[${result.status}]`)
              : o.red(`[${result.status}]`)
        o.line(
          `${time()}  <-- ${status} POST ${options.forwardTo} [${notice.event.id}] ${result.ms} ms` +
            (result.attempts > 1 ? ` (${result.attempts} intentos)` : "")
        )
      }
    })
  } finally {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
  }
  return 0
}

export const registerListen = (program: Command) => {
  program
    .command("listen")
    .description("recibe los eventos en vivo y los reenvía firmados a una URL local; se reconecta solo")
    .option("--forward-to <url>", "URL a la que reenviar cada evento (POST firmado como un webhook)")
    .addOption(
      optionWithValues("--events <lista>", "solo estos eventos, separados por comas", EventNames, collectList)
    )
    .option("--print-secret", "imprime el secreto de firma local y sale (para scripts)")
    .option(
      "--idle-timeout <segundos>",
      "silencio tras el que la conexión se da por muerta (45)",
      parseInteger(5, 3600)
    )
    .action(action(run))
}
