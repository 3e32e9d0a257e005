/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: fixtures refer to earlier answers as ${name:field} */
/**
 * `trigger <evento>`: makes a real event flow, with a test key, by running a fixture: the API
 * calls that produce it in test mode, as `switch fixtures` runs a file (the Stripe CLI's way).
 *
 * - `link.pagado`, `link.acreditado`: a test link, simulated `pagado` (SPEC: `link.acreditado`
 *   follows when the merchant settles at once).
 * - `transaccion.aprobada`, `transaccion.liquidada` (emitted together), `transaccion.rechazada`:
 *   a direct-API collection, `POST /cobrar/token` then `POST /cobrar`, with the sandbox bank's
 *   code that approves (`12345678`) or rejects (`11111111`); the bodies are the contract's
 *   examples (packages/api `direct.cobrarToken`, `direct.cobrar`).
 * - `webhook.test`: `POST /webhooks/{id}/probar` to `--webhook` or the first active webhook.
 * - `link.devuelto` comes only from a refund in the portal, which no key can make; with
 *   `--forward-to`, a test link is paid as above and its `link.devuelto` notice is built for it
 *   and sent there, signed as `switch listen` signs.
 */
import { randomUUID } from "node:crypto"
import { EventNames } from "@switch/sdk"
import { Argument, type Command } from "commander"
import { action, parseAmount } from "../Action.js"
import { keyParts, listenSecret } from "../Config.js"
import type { Context } from "../Context.js"
import { userAgent } from "../Context.js"
import { forward } from "../Listen.js"
import { UsageError } from "../Output.js"
import { type Fixture, type FixtureResult, runFixtures } from "./api.js"

/** Every event the service emits: each one `trigger` can make flow. */
export const TRIGGERS = EventNames

type Evento = (typeof EventNames)[number]

/** The payer and the collector of a direct-API collection in test mode (the contract's example). */
const cobroBody = (monto: number, otp?: string) => ({
  idempotency_key: randomUUID(),
  monto: { valor: monto, moneda: "VES" },
  concepto: "switch trigger",
  canal: "whatsapp",
  cobrador: {
    tipo: "telefono",
    valor: "04141234567",
    banco: "0105",
    identificacion: "J-07013380-5",
    tipo_doc: "J",
    nombre: "Panaderia Ana"
  },
  pagador: {
    tipo: "telefono",
    valor: "04241234567",
    banco: "0102",
    identificacion: "12345678",
    tipo_doc: "V",
    nombre: "Maria Perez"
  },
  ...(otp === undefined ? {} : { otp })
})

const paidLink = (evento: Evento, monto: number): ReadonlyArray<Fixture> => [
  {
    name: "link",
    path: "/switch/v1/links",
    method: "post",
    params: { monto, concepto: `switch trigger ${evento}`, metadata: { origen: "switch trigger" } }
  },
  {
    name: "simulado",
    path: "/switch/v1/links/${link:id}/simular",
    method: "post",
    params: { resultado: "pagado" }
  }
]

const collection = (monto: number, otp: string): ReadonlyArray<Fixture> => {
  const token = cobroBody(monto)
  return [
    { name: "token", path: "/switch/v1/cobrar/token", method: "post", params: token },
    {
      name: "cobro",
      path: "/switch/v1/cobrar",
      method: "post",
      params: { ...cobroBody(monto, otp), idempotency_key: token.idempotency_key }
    }
  ]
}

/** The fixture that makes `evento` flow in test mode. */
export const fixtureFor = (
  evento: Evento,
  options: { monto: number; webhook?: string }
): ReadonlyArray<Fixture> => {
  switch (evento) {
    case "link.pagado":
    case "link.acreditado":
    case "link.devuelto":
      return paidLink(evento, options.monto)
    case "transaccion.aprobada":
    case "transaccion.liquidada":
      return collection(options.monto, "12345678")
    case "transaccion.rechazada":
      return collection(options.monto, "11111111")
    case "webhook.test":
      return [
        {
          name: "prueba",
          path: `/switch/v1/webhooks/${encodeURIComponent(options.webhook ?? "")}/probar`,
          method: "post"
        }
      ]
  }
}

/** The first active webhook of the merchant, for `webhook.test` without `--webhook`. */
const firstWebhook = async (context: Context): Promise<string> => {
  const webhooks = await context.client().webhooks.list()
  const active = webhooks.find((w) => w.estado === "activo")
  if (active === undefined) {
    throw new UsageError(
      "webhook.test necesita un webhook activo: créalo con `switch webhooks create --url ...` (llave live) o indica --webhook ID"
    )
  }
  return active.id
}

const last = (results: ReadonlyArray<FixtureResult>, name: string) =>
  results.find((r) => r.name === name)?.body as Record<string, unknown> | undefined

export const registerTrigger = (program: Command) => {
  program
    .command("trigger")
    .description("hace fluir un evento real con llamadas de prueba a la API (llave de prueba)")
    .addArgument(new Argument("<evento>", "el evento a disparar").choices(TRIGGERS))
    .option("--monto <monto>", "monto del link o del cobro de prueba", parseAmount, 100)
    .option("--webhook <id>", "webhook.test: el webhook que lo recibe (el primero activo si se omite)")
    .option("--forward-to <url>", "link.devuelto: a dónde enviar el aviso, firmado como switch listen")
    .action(
      action(
        async (context, evento: Evento, options: { monto: number; webhook?: string; forwardTo?: string }) => {
          if (evento === "link.devuelto" && options.forwardTo === undefined) {
            throw new UsageError(
              "link.devuelto solo lo produce una devolución desde el portal, que ninguna llave puede hacer; " +
                "con --forward-to URL se paga un link de prueba y su aviso link.devuelto se envía firmado a esa URL"
            )
          }
          const client = context.client()
          if (client.mode !== "test") {
            throw new UsageError("trigger necesita una llave de prueba (sk_test_): simular no existe en live")
          }
          const o = context.output
          if (evento === "link.acreditado") {
            const config = await client.config.get()
            if (config.frecuencia_liquidacion !== "inmediata") {
              o.note(
                o.yellow(
                  "Aviso: link.acreditado solo se emite con liquidación inmediata, y este comercio liquida " +
                    `${config.frecuencia_liquidacion}; se emitirá solo link.pagado`
                )
              )
            }
          }
          const webhook =
            evento === "webhook.test" ? (options.webhook ?? (await firstWebhook(context))) : undefined
          const results = await runFixtures(
            context,
            fixtureFor(evento, { monto: options.monto, ...(webhook === undefined ? {} : { webhook }) })
          )
          const link = last(results, "link")
          const simulado = last(results, "simulado")
          const cobro = last(results, "cobro")
          const prueba = last(results, "prueba")
          const summary = {
            evento,
            ...(link === undefined ? {} : { link_id: link.id, estado: simulado?.estado }),
            ...(cobro === undefined ? {} : { operacion_id: cobro.id, estado: cobro.estado }),
            ...(prueba === undefined ? {} : { webhook_id: webhook, entrega: prueba }),
            llamadas: results.map(({ method, path, status }) => ({ method, path, status }))
          }
          if (evento === "link.devuelto") {
            const { key } = context.resolved()
            const monto = Number(link?.monto ?? options.monto)
            const id = `evt_${randomUUID()}`
            const event = {
              id,
              evento,
              creado_en: new Date().toISOString(),
              data: { link_id: String(link?.id), monto, monto_devuelto: monto, mode: "test" }
            }
            const sent = await forward(
              options.forwardTo as string,
              { seq: undefined, raw: JSON.stringify(event), event: event as never },
              listenSecret(context.env, keyParts(key as string).comercio),
              context.fetch,
              new AbortController().signal,
              userAgent
            )
            o.result({ ...summary, aviso: event, forward: sent }, () =>
              o.line(
                `<-- ${sent.status === null ? o.red(`[${sent.error}]`) : `[${sent.status}]`} POST ${options.forwardTo} [${id}] ${sent.ms} ms`
              )
            )
            return sent.status !== null && sent.status < 300 ? 0 : 1
          }
          const delivered = prueba === undefined || prueba.estado === "entregado"
          o.result(summary, () =>
            o.line(
              `${delivered ? o.green("✓") : o.red("✗")} ${evento}: ` +
                (link !== undefined
                  ? `link ${link.id} creado y simulado (${simulado?.estado})`
                  : cobro !== undefined
                    ? `cobro ${cobro.id} ${cobro.estado}`
                    : `webhook ${webhook}: ${prueba?.estado}${prueba?.codigo_http == null ? "" : ` (HTTP ${prueba.codigo_http})`}`)
            )
          )
          return delivered ? 0 : 1
        }
      )
    )
}
