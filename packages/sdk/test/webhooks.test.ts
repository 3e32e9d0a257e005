/**
 * Verification of notices. With the server's webhook routes in place, a real notice is
 * delivered to a receiver on loopback; until then, notices are signed here exactly as DESIGN
 * §5 describes (node:crypto, independent of the SDK's WebCrypto code).
 */
import { createHmac } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { Switch, WebhookVerificationError } from "../src/index.js"
import { eventually, hasRoute, newLiveMerchant } from "./support.js"

interface Received {
  readonly raw: Buffer
  readonly headers: IncomingHttpHeaders
}

/** A notice and the secret it was signed with: delivered by the server when it can, else signed here. */
const obtainNotice = async (): Promise<{ notice: Received; secret: string; real: boolean }> => {
  if (await hasRoute("GET", "/switch/v1/webhooks")) {
    const received: Array<Received> = []
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        received.push({ raw: Buffer.concat(chunks), headers: req.headers })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    try {
      const merchant = await newLiveMerchant("wh")
      const { port } = server.address() as AddressInfo
      const webhook = await merchant.live.webhooks.create({
        url: `http://127.0.0.1:${port}/hook`,
        eventos: ["link.pagado"]
      })
      const link = await merchant.sw.links.create({ monto: 42, concepto: "aviso real" })
      await merchant.sw.links.simulate(link.id, "pagado")
      const notice = await eventually(async () =>
        received.find((r) => JSON.parse(r.raw.toString()).data?.link_id === link.id)
      )
      return { notice, secret: webhook.secret, real: true }
    } finally {
      server.closeAllConnections()
      server.close()
    }
  }
  const secret = "whsec_c2VjcmV0by1kZS1wcnVlYmEtZGUtMzItYnl0ZXMhIQ=="
  const raw = Buffer.from(
    JSON.stringify({
      id: "evt_0b6b1f0e-9a59-4a7e-8f35-0c3f1c7f9d21",
      evento: "link.pagado",
      creado_en: new Date().toISOString(),
      data: {
        link_id: "l-1",
        monto: 42,
        propina: 0,
        total: 42,
        mode: "test",
        pagador: { alta_cliente: false }
      }
    })
  )
  const t = Math.floor(Date.now() / 1000)
  const v1 = createHmac("sha256", secret).update(`${t}.`).update(raw).digest("hex")
  return {
    notice: {
      raw,
      headers: {
        "x-service-event": "link.pagado",
        "x-service-timestamp": String(t),
        "x-service-signature": `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`,
        "x-service-signature-v2": `t=${t},v1=${v1}`
      }
    },
    secret,
    real: false
  }
}

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (e: unknown) => (e instanceof WebhookVerificationError ? e.reason : `other: ${String(e)}`)
  )

describe("Switch.webhooks.verify on a notice", () => {
  it("accepts the notice and rejects a tampered body, a wrong secret and a stale timestamp", async () => {
    const { notice, secret, real } = await obtainNotice()
    console.info(real ? "verifying a notice the server delivered" : "verifying a notice signed per DESIGN §5")
    const event = await Switch.webhooks.verify(notice.raw, notice.headers, secret, { toleranceSec: 300 })
    expect(event.evento).toBe("link.pagado")
    expect(event.id).toMatch(/^evt_/)
    if (event.evento === "link.pagado") expect(event.data.monto).toBe(42)
    // The same bytes as text verify too.
    expect((await Switch.webhooks.verify(notice.raw.toString("utf8"), notice.headers, secret)).id).toBe(
      event.id
    )

    const parsed = JSON.parse(notice.raw.toString())
    const tampered = Buffer.from(JSON.stringify({ ...parsed, data: { ...parsed.data, monto: 4200 } }))
    expect(tampered.equals(notice.raw)).toBe(false)
    expect(await reason(Switch.webhooks.verify(tampered, notice.headers, secret))).toBe("bad_signature")
    expect(await reason(Switch.webhooks.verify(notice.raw, notice.headers, "whsec_otro"))).toBe(
      "bad_signature"
    )
    expect(
      await reason(Switch.webhooks.verify(notice.raw, notice.headers, secret, { now: Date.now() + 600_000 }))
    ).toBe("stale_timestamp")
    expect(
      await reason(Switch.webhooks.verify(JSON.parse(notice.raw.toString()), notice.headers, secret))
    ).toBe("parsed_body")
  })
})
