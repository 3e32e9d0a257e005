/**
 * Real deliveries from the built server, checked by other people's verifiers: the Standard
 * Webhooks library (`webhook-*` headers, the secret as Switch gives it) and stripe-node's
 * (`x-service-signature-v2` is Stripe's `t=...,v1=...` scheme).
 */
import { Webhook } from "standardwebhooks"
import Stripe from "stripe"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually, newWebhook, type Receiver, startReceiver } from "../support/live.js"
import { call, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let receiver: Receiver
let secret: string
let webhookId: string
let testKey: string

beforeAll(async () => {
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1", SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.0001" })
  receiver = await startReceiver()
  const merchant = await merchantWithLiveKey(stack, "receptores")
  testKey = merchant.testKey
  const hook = await newWebhook(stack.url, merchant.liveKey, receiver.url)
  secret = hook.secret
  webhookId = hook.id
})

afterAll(async () => {
  await receiver?.close()
  await stack?.stop()
})

const plain = (headers: Record<string, string | Array<string> | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])
  )

describe("webhook notices verify with other libraries", () => {
  it("a paid link's notice, first refused then retried, verifies with standardwebhooks and stripe-node, and webhook-id stays the same across retries", async () => {
    receiver.respond = (notice, _index) => {
      const first = receiver.received.filter((n) => n.json?.evento === "link.pagado")[0]
      return { status: notice.json?.evento === "link.pagado" && notice === first ? 500 : 200 }
    }
    const link = await call(stack.url, "POST", "/switch/v1/links", {
      key: testKey,
      body: { monto: 125.5, concepto: "Pedido firmado" }
    })
    expect(link.status).toBe(201)
    const paid = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: testKey,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
    const attempts = await eventually("two attempts of link.pagado", () => {
      const seen = receiver.received.filter((n) => n.json?.evento === "link.pagado")
      return seen.length >= 2 ? seen : null
    })

    const ids = attempts.map((n) => n.headers["webhook-id"])
    expect(ids[0]).toBeTruthy()
    expect(ids[1]).toBe(ids[0])
    expect(ids[0]).toBe(attempts[0]?.headers["x-service-delivery"])

    const wh = new Webhook(secret)
    for (const notice of attempts) {
      const headers = plain(notice.headers)
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      const event = wh.verify(notice.body, headers) as { evento: string; data: { link_id: string } }
      expect(event.evento).toBe("link.pagado")
      expect(event.data.link_id).toBe(link.body.id)

      const viaStripe = Stripe.webhooks.constructEvent(
        notice.body,
        headers["x-service-signature-v2"] ?? "",
        secret
      )
      expect((viaStripe as unknown as { evento: string }).evento).toBe("link.pagado")

      // A changed body fails both.
      expect(() => wh.verify(`${notice.body} `, headers)).toThrow()
      expect(() =>
        Stripe.webhooks.constructEvent(`${notice.body} `, headers["x-service-signature-v2"] ?? "", secret)
      ).toThrow()
    }
  })

  it("a portal test notice (webhook.test) carries the same verifiable headers", async () => {
    receiver.respond = () => ({ status: 200 })
    const probe = await call(stack.url, "POST", `/switch/v1/webhooks/${webhookId}/probar`, { key: testKey })
    expect(probe.status).toBe(200)
    const notice = await eventually("webhook.test", () =>
      receiver.received.find((n) => n.json?.evento === "webhook.test")
    )
    const headers = plain(notice.headers)
    expect((new Webhook(secret).verify(notice.body, headers) as { evento: string }).evento).toBe(
      "webhook.test"
    )
    expect(
      Stripe.webhooks.constructEvent(notice.body, headers["x-service-signature-v2"] ?? "", secret)
    ).toBeTruthy()
    // Another webhook's secret does not verify it.
    expect(() =>
      new Webhook("whsec_b3Ryby1zZWNyZXRvLWRlLTMyLWJ5dGVzLXBhcmEtaG1hYyE=").verify(notice.body, headers)
    ).toThrow()
  })
})
