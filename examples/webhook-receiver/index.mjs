// A node:http server that verifies Switch notices before acting on them.
//   SWITCH_WEBHOOK_SECRET=whsec_... npm start -w examples/webhook-receiver
// or let it register itself (needs a live key and a server started with
// SWITCH_WEBHOOK_ALLOW_PRIVATE=1, since it listens on plain http on loopback):
//   SWITCH_LIVE_KEY=micomercio:sk_live_... npm start -w examples/webhook-receiver
import { createServer } from "node:http"
import { Switch, WebhookVerificationError } from "@switch/sdk"

const port = Number(process.env.PORT ?? 4242)
const baseUrl = process.env.SWITCH_BASE_URL ?? "http://localhost:8080"
let secret = process.env.SWITCH_WEBHOOK_SECRET
const seen = new Set() // delivery ids already handled (a real receiver keeps them in its database)

const handle = (event) => {
  switch (event.evento) {
    case "link.pagado":
      console.log(
        `pagado: link ${event.data.link_id} Bs ${event.data.total} (${event.data.mode}) ref ${event.data.referencia}`
      )
      break
    case "link.acreditado":
      console.log(`acreditado: Bs ${event.data.monto_acreditado} (${event.data.mode})`)
      break
    case "transaccion.liquidada":
      // Deliver goods only for collections.
      if (event.data.operacion === "cobro") console.log(`cobro liquidado (${event.data.mode})`)
      break
    default:
      console.log(`${event.evento} (${event.id})`)
  }
}

const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/webhooks/switch") {
    res.writeHead(404).end()
    return
  }
  const chunks = []
  req.on("data", (chunk) => chunks.push(chunk))
  req.on("end", async () => {
    // Verify the raw bytes exactly as received: never JSON.parse then re-stringify.
    const raw = Buffer.concat(chunks)
    try {
      const event = await Switch.webhooks.verify(raw, req.headers, secret, { toleranceSec: 300 })
      const delivery = req.headers["x-service-delivery"] ?? event.id
      if (!seen.has(delivery)) {
        seen.add(delivery)
        handle(event)
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}')
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        console.warn(`rechazado (${error.reason}): ${error.message}`)
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: error.reason }))
        return
      }
      console.error(error)
      res.writeHead(500).end()
    }
  })
})

server.listen(port, "127.0.0.1", async () => {
  const url = `http://127.0.0.1:${server.address().port}/webhooks/switch`
  if (!secret && process.env.SWITCH_LIVE_KEY) {
    const sw = new Switch({ key: process.env.SWITCH_LIVE_KEY, baseUrl })
    const webhook = await sw.webhooks.create({ url, eventos: ["*"] })
    secret = webhook.secret
    console.log(`registrado el webhook ${webhook.id}`)
    const stop = async () => {
      await sw.webhooks.delete(webhook.id).catch(() => undefined)
      process.exit(0)
    }
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
  }
  if (!secret) {
    console.error("Set SWITCH_WEBHOOK_SECRET (whsec_...) or SWITCH_LIVE_KEY to register this receiver.")
    process.exit(1)
  }
  console.log(`escuchando en ${url}`)
})
