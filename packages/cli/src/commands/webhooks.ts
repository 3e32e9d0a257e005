/** `webhooks list|create|deliveries`. */
import { EventNames, type WebhookCreateParams } from "@switch/sdk"
import type { Command } from "commander"
import { action, collectList } from "../Action.js"
import { UsageError } from "../Output.js"

export const checkEvents = (events: ReadonlyArray<string>, allowStar = true): ReadonlyArray<string> => {
  const unknown = events.filter(
    (name) => !(EventNames as ReadonlyArray<string>).includes(name) && !(allowStar && name === "*")
  )
  if (unknown.length > 0) {
    throw new UsageError(`eventos desconocidos: ${unknown.join(", ")}; válidos: ${EventNames.join(", ")}, *`)
  }
  return events
}

export const registerWebhooks = (program: Command) => {
  const webhooks = program.command("webhooks").description("webhooks del comercio")

  webhooks
    .command("list")
    .description("lista los webhooks (sin secreto)")
    .action(
      action(async (context) => {
        const rows = await context.client().webhooks.list()
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (w) => w.id },
              { title: "estado", value: (w) => w.estado },
              { title: "url", value: (w) => w.url },
              { title: "eventos", value: (w) => w.eventos.join(",") }
            ],
            "(ningún webhook)"
          )
        )
        return 0
      })
    )

  webhooks
    .command("create")
    .description("registra un endpoint https (requiere llave live); muestra el secreto una sola vez")
    .requiredOption("--url <url>", "dirección https del endpoint")
    .option("--eventos <lista>", "eventos separados por comas, o * (por defecto *)", collectList)
    .action(
      action(async (context, options: { url: string; eventos?: ReadonlyArray<string> }) => {
        const eventos = checkEvents(options.eventos ?? ["*"])
        const created = await context
          .client()
          .webhooks.create({ url: options.url, eventos: eventos as WebhookCreateParams["eventos"] })
        context.output.result(created, () => {
          const o = context.output
          o.line(`${o.green("✓")} Webhook ${created.id} → ${created.url}`)
          o.line(`  eventos: ${created.eventos.join(", ")}`)
          o.line(`  secreto: ${o.bold(created.secret)}`)
          o.note(o.yellow("Guarda el secreto ahora: no se vuelve a mostrar."))
        })
        return 0
      })
    )

  webhooks
    .command("deliveries <id>")
    .description("las últimas 50 entregas de un webhook")
    .action(
      action(async (context, id: string) => {
        const rows = await context.client().webhooks.deliveries(id)
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (d) => d.id },
              { title: "evento", value: (d) => d.evento },
              { title: "estado", value: (d) => d.estado },
              { title: "intentos", value: (d) => d.intentos },
              { title: "http", value: (d) => d.codigo_http },
              { title: "próximo", value: (d) => d.proximo_intento },
              { title: "error", value: (d) => d.error, max: 40 }
            ],
            "(ninguna entrega)"
          )
        )
        return 0
      })
    )
}
