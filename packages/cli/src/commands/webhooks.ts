/** `webhooks list|create|update|delete|test|deliveries`. */
import { EventNames, type Webhook, type WebhookCreateParams, type WebhookUpdateParams } from "@switch/sdk"
import type { Command } from "commander"
import { action, collectList, oneOf, optionWithValues } from "../Action.js"
import type { Context } from "../Context.js"
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

/** The states a webhook can be put in. */
export const WEBHOOK_ESTADOS = ["activo", "inactivo"] as const

const showWebhook = (context: Context, webhook: Webhook) =>
  context.output.fields([
    ["id", webhook.id],
    ["url", webhook.url],
    ["estado", webhook.estado],
    ["eventos", webhook.eventos.join(", ")],
    ["actualizado", webhook.updated_at]
  ])

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
    .addOption(
      optionWithValues(
        "--eventos <lista>",
        "eventos separados por comas, o * (por defecto *)",
        EventNames,
        collectList
      )
    )
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
    .command("update <id>")
    .description("cambia la url, los eventos o el estado de un webhook (requiere llave live)")
    .option("--url <url>", "nueva dirección https del endpoint")
    .addOption(
      optionWithValues(
        "--eventos <lista>",
        "nuevos eventos separados por comas, o *",
        EventNames,
        collectList
      )
    )
    .addOption(
      optionWithValues(
        "--estado <estado>",
        "uno inactivo no recibe avisos",
        WEBHOOK_ESTADOS,
        oneOf(WEBHOOK_ESTADOS)
      )
    )
    .action(
      action(
        async (
          context,
          id: string,
          options: {
            url?: string
            eventos?: ReadonlyArray<string>
            estado?: (typeof WEBHOOK_ESTADOS)[number]
          }
        ) => {
          const params: WebhookUpdateParams = {
            ...(options.url === undefined ? {} : { url: options.url }),
            ...(options.eventos === undefined
              ? {}
              : { eventos: checkEvents(options.eventos) as WebhookUpdateParams["eventos"] }),
            ...(options.estado === undefined ? {} : { estado: options.estado })
          }
          if (Object.keys(params).length === 0) {
            throw new UsageError("nada que cambiar: indica --url, --eventos o --estado")
          }
          const updated = await context.client().webhooks.update(id, params)
          context.output.result(updated, () => {
            context.output.line(`${context.output.green("✓")} Webhook ${updated.id} actualizado`)
            showWebhook(context, updated)
          })
          return 0
        }
      )
    )

  webhooks
    .command("delete <id>")
    .description("elimina un webhook (requiere llave live); sus entregas pendientes se cancelan")
    .action(
      action(async (context, id: string) => {
        const deleted = await context.client().webhooks.delete(id)
        context.output.result(deleted, () =>
          context.output.line(`${context.output.green("✓")} Webhook ${deleted.id} eliminado`)
        )
        return 0
      })
    )

  webhooks
    .command("test <id>")
    .description("envía ahora un aviso webhook.test firmado al webhook y muestra cómo le fue")
    .action(
      action(async (context, id: string) => {
        const delivery = await context.client().webhooks.probar(id)
        const o = context.output
        const ok = delivery.estado === "entregado"
        o.result(delivery, () => {
          o.line(
            `${ok ? o.green("✓") : o.red("✗")} webhook.test → ${id}: ${delivery.estado}` +
              `${delivery.codigo_http === null ? "" : ` (HTTP ${delivery.codigo_http})`}`
          )
          if (delivery.error !== null) o.line(`  error: ${delivery.error}`)
        })
        return ok ? 0 : 1
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
