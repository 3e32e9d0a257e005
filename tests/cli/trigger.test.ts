/**
 * The built `switch` for every event the service emits (`trigger`, each through real API calls
 * in test mode, the notice then found in the merchant's events or at its webhook), the webhook
 * commands `update`, `delete` and `test`, and `delete` for any route.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Events } from "@switch/api"
import { EventNames, Switch } from "@switch/sdk"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"
import { makeCli, until } from "./support.js"

let stack: Stack
let cli: ReturnType<typeof makeCli>
let merchant: Awaited<ReturnType<typeof merchantWithLiveKey>>
let receiver: {
  url: string
  server: Server
  received: Array<{ body: string; headers: Record<string, string> }>
}

beforeAll(async () => {
  // Webhooks on loopback (development switch), so a local receiver gets the deliveries.
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1", SWITCH_API_POR_MINUTO: "100000" })
  merchant = await merchantWithLiveKey(stack, `trig${Date.now().toString(36)}`)
  cli = makeCli(stack.url, { SWITCH_KEY: merchant.testKey })
  const received: Array<{ body: string; headers: Record<string, string> }> = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => {
      body += chunk
    })
    req.on("end", () => {
      received.push({ body, headers: req.headers as Record<string, string> })
      res.writeHead(200).end("{}")
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  receiver = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, received }
}, 240_000)
afterAll(async () => {
  receiver?.server.close()
  cli?.cleanup()
  await stack?.stop()
})

const live = () => ({ env: { SWITCH_KEY: merchant.liveKey } })

/** The merchant's notices of `evento` in test mode, newest first. */
const eventsOf = async (evento: string) =>
  (await cli.json(["events", "list", "--evento", evento, "--limit", "20"])) as Array<{
    id: string
    evento: string
    data: Record<string, unknown>
  }>

describe("trigger", () => {
  it("knows every event the service emits, lists them in its help and refuses others", async () => {
    const help = await cli.run(["trigger", "--help"])
    for (const evento of EventNames) expect(help.stdout).toContain(evento)
    const bad = await cli.run(["trigger", "link.inventado"])
    expect(bad.code).toBe(2)
  })

  it("link.pagado, transaccion.aprobada, transaccion.liquidada and transaccion.rechazada each make their notice flow", async () => {
    const cases = [
      ["link.pagado", (d: Record<string, unknown>, r: any) => d.link_id === r.link_id],
      ["transaccion.aprobada", (d: Record<string, unknown>, r: any) => d.id === r.operacion_id],
      ["transaccion.liquidada", (d: Record<string, unknown>, r: any) => d.id === r.operacion_id],
      ["transaccion.rechazada", (d: Record<string, unknown>, r: any) => d.id === r.operacion_id]
    ] as const
    for (const [evento, mine] of cases) {
      const result = await cli.json(["trigger", evento])
      expect(result.evento).toBe(evento)
      expect(result.llamadas.every((c: { status: number }) => c.status < 300)).toBe(true)
      let found: Record<string, unknown> | undefined
      for (let i = 0; i < 50 && found === undefined; i++) {
        found = (await eventsOf(evento)).find((e) => mine(e.data, result))?.data
        if (found === undefined) await new Promise((r) => setTimeout(r, 200))
      }
      expect(found, evento).toMatchObject({ mode: "test" })
    }
  })

  it("link.acreditado flows when the merchant settles at once", async () => {
    const set = await cli.run([
      "admin",
      "set",
      merchant.codigo,
      "liquidacion_inmediata=true",
      "--admin-token",
      "admin-token-de-prueba"
    ])
    expect(set.code, set.stderr).toBe(0)
    const result = await cli.json(["trigger", "link.acreditado"])
    let found: unknown
    for (let i = 0; i < 50 && found === undefined; i++) {
      found = (await eventsOf("link.acreditado")).find((e) => e.data.link_id === result.link_id)
      if (found === undefined) await new Promise((r) => setTimeout(r, 200))
    }
    expect(found).toBeDefined()
  })

  it("webhook.test reaches the merchant's webhook, signed with its secret", async () => {
    const created = await cli.json(
      ["webhooks", "create", "--url", `${receiver.url}/hook`, "--eventos", "webhook.test"],
      live()
    )
    const before = receiver.received.length
    const result = await cli.json(["trigger", "webhook.test", "--webhook", created.id])
    expect(result.entrega.estado).toBe("entregado")
    await until(() => receiver.received.length > before, "the test notice")
    const got = receiver.received[receiver.received.length - 1]!
    const event = await Switch.webhooks.verify(got.body, got.headers, created.secret)
    expect(event.evento).toBe("webhook.test")
    await cli.json(["webhooks", "delete", created.id], live())
  })

  it("link.devuelto, which only the portal makes, is sent to --forward-to for a paid test link, signed as listen signs, in the contract's shape", async () => {
    const refused = await cli.run(["trigger", "link.devuelto"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("portal")
    const before = receiver.received.length
    const result = await cli.json(["trigger", "link.devuelto", "--forward-to", `${receiver.url}/local`])
    expect(result.forward.status).toBe(200)
    const got = receiver.received[before]!
    const secret = (await cli.run(["listen", "--print-secret"])).stdout.trim()
    const event = await Switch.webhooks.verify(got.body, got.headers, secret)
    expect(event.evento).toBe("link.devuelto")
    expect(() =>
      Schema.decodeUnknownSync(Events.Envelopes["link.devuelto"])(JSON.parse(got.body))
    ).not.toThrow()
    const link = await cli.json(["links", "get", result.link_id])
    expect(link.estado).toBe("pagado")
    expect(JSON.parse(got.body).data).toMatchObject({ link_id: link.id, monto: link.monto, mode: "test" })
  })
})

describe("webhooks update, delete and test", () => {
  it("update changes url, events and state; test sends webhook.test; delete removes it", async () => {
    const created = await cli.json(
      ["webhooks", "create", "--url", `${receiver.url}/a`, "--eventos", "link.pagado"],
      live()
    )
    const updated = await cli.json(
      [
        "webhooks",
        "update",
        created.id,
        "--url",
        `${receiver.url}/b`,
        "--eventos",
        "link.pagado,webhook.test",
        "--estado",
        "inactivo"
      ],
      live()
    )
    expect(updated).toMatchObject({
      url: `${receiver.url}/b`,
      eventos: ["link.pagado", "webhook.test"],
      estado: "inactivo"
    })
    const nothing = await cli.run(["webhooks", "update", created.id], live())
    expect(nothing.code).toBe(2)
    expect((await cli.json(["webhooks", "update", created.id, "--estado", "activo"], live())).estado).toBe(
      "activo"
    )

    const before = receiver.received.length
    const tested = await cli.run(["webhooks", "test", created.id])
    expect(tested.code, tested.stderr).toBe(0)
    expect(tested.stdout).toContain("entregado")
    await until(() => receiver.received.length > before, "the test notice")
    const got = receiver.received[receiver.received.length - 1]!
    const event = await Switch.webhooks.verify(got.body, got.headers, created.secret)
    expect(event.evento).toBe("webhook.test")

    const deleted = await cli.run(["webhooks", "delete", created.id], live())
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toContain("eliminado")
    const list = await cli.json(["webhooks", "list"], live())
    expect(list.some((w: { id: string }) => w.id === created.id)).toBe(false)
  })
})

describe("delete", () => {
  it("sends DELETE to any route with the run's key and prints the answer", async () => {
    const created = await cli.json(["webhooks", "create", "--url", `${receiver.url}/c`], live())
    const result = await cli.run(["delete", `/switch/v1/webhooks/${created.id}`], live())
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, id: created.id })
    const again = await cli.run(["delete", `webhooks/${created.id}`], live())
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("HTTP 404")
  })
})
