/**
 * Webhook routes and delivery: a real receiver on loopback (SWITCH_WEBHOOK_ALLOW_PRIVATE on),
 * both signatures, retries at DESIGN's backoff (scaled down), 3xx as failure, 6 attempts.
 */
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import {
  eventually,
  paySimulated,
  query,
  type Receiver,
  signaturesValid,
  startReceiver,
  writeEvent
} from "../../test/webhooksReceiver.js"
import * as Sealed from "../platform/Sealed.js"

let server: TestServer
let receiver: Receiver
let codigo: string
let testKey: string
let liveKey: string

beforeAll(async () => {
  server = await startServer({
    settings: { webhookAllowPrivate: true, webhookBackoffEscala: 0.0001, apiPorMinuto: 100_000 }
  })
  receiver = await startReceiver()
  const merchant = await registerMerchant(server.url)
  codigo = merchant.codigo
  testKey = merchant.key
  liveKey = await approveMerchant(server, codigo)
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
})

const createHook = async (key: string, url: string, eventos: Array<string> = ["*"]) => {
  const reply = await call(server.url, "POST", "/switch/v1/webhooks", { key, body: { url, eventos } })
  expect(reply.status).toBe(201)
  return reply.body as { id: string; secret: string }
}

const deliveries = async (key: string, id: string) =>
  (await call(server.url, "GET", `/switch/v1/webhooks/${id}/deliveries`, { key })).body as Array<any>

describe("webhook routes", () => {
  it("creating needs a live key; the secret is shown once and never in get or list", async () => {
    const denied = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: testKey,
      body: { url: receiver.url, eventos: ["link.pagado"] }
    })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe("requiere_llave_live")

    const created = await createHook(liveKey, `${receiver.url}?routes`, ["link.pagado"])
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32)

    const one = await call(server.url, "GET", `/switch/v1/webhooks/${created.id}`, { key: testKey })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ id: created.id, eventos: ["link.pagado"], estado: "activo" })
    expect(one.body.secret).toBeUndefined()
    const list = await call(server.url, "GET", "/switch/v1/webhooks", { key: testKey })
    expect(list.body[0].id).toBe(created.id)
    expect(list.body.every((w: any) => w.secret === undefined)).toBe(true)
  })

  it("editing and deleting need a live key; delete answers ok and id, then 404", async () => {
    const created = await createHook(liveKey, `${receiver.url}?edit`, ["link.pagado"])
    const path = `/switch/v1/webhooks/${created.id}`
    expect(
      (await call(server.url, "PATCH", path, { key: testKey, body: { estado: "inactivo" } })).status
    ).toBe(403)
    const edited = await call(server.url, "PATCH", path, {
      key: liveKey,
      body: { estado: "inactivo", eventos: ["link.acreditado"] }
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ estado: "inactivo", eventos: ["link.acreditado"] })
    const bad = await call(server.url, "PATCH", path, { key: liveKey, body: { estado: "roto" } })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.fieldErrors.estado).toBeDefined()
    expect((await call(server.url, "DELETE", path, { key: testKey })).status).toBe(403)
    const deleted = await call(server.url, "DELETE", path, { key: liveKey })
    expect(deleted.body).toEqual({ ok: true, id: created.id })
    expect((await call(server.url, "GET", path, { key: liveKey })).status).toBe(404)
    expect((await call(server.url, "DELETE", path, { key: liveKey })).status).toBe(404)
  })

  it("validates the body: url required, known event names only", async () => {
    const reply = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: "", eventos: ["link.inventado"] }
    })
    expect(reply.status).toBe(400)
    expect(Object.keys(reply.body.detail.fieldErrors).sort()).toEqual(["eventos.0", "url"])
  })

  it("a merchant has at most 10 webhooks (409 limite_webhooks), even when created at once", async () => {
    const other = await registerMerchant(server.url)
    const key = await approveMerchant(server, other.codigo)
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(server.url, "POST", "/switch/v1/webhooks", {
          key,
          body: { url: `${receiver.url}?n=${i}`, eventos: ["*"] }
        })
      )
    )
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10)
    const refused = replies.filter((r) => r.status === 409)
    expect(refused).toHaveLength(2)
    expect(refused[0]?.body.error).toBe("limite_webhooks")
  })

  it("another merchant's webhook is 404 on every route", async () => {
    const created = await createHook(liveKey, `${receiver.url}?mine`)
    const stranger = await registerMerchant(server.url)
    const strangerLive = await approveMerchant(server, stranger.codigo)
    const path = `/switch/v1/webhooks/${created.id}`
    for (const [method, suffix, key] of [
      ["GET", "", stranger.key],
      ["PATCH", "", strangerLive],
      ["DELETE", "", strangerLive],
      ["GET", "/deliveries", strangerLive],
      ["POST", "/probar", strangerLive]
    ] as const) {
      const reply = await call(server.url, method, `${path}${suffix}`, {
        key,
        body: method === "PATCH" ? {} : undefined
      })
      expect(reply.status, `${method} ${suffix}`).toBe(404)
    }
    const list = await call(server.url, "GET", "/switch/v1/webhooks", { key: stranger.key })
    expect(list.body).toEqual([])
  })
})

describe("webhook delivery", () => {
  // Each test has its own merchant and receiver, so no other webhook's notices mix in.
  const receivers: Array<Receiver> = []
  afterAll(async () => {
    for (const r of receivers) await r.close()
  })
  const fresh = async () => {
    const m = await registerMerchant(server.url)
    const live = await approveMerchant(server, m.codigo)
    const rx = await startReceiver()
    receivers.push(rx)
    return { codigo: m.codigo, testKey: m.key, liveKey: live, rx }
  }

  it("a paid link's notice reaches the receiver with both signatures valid for the secret", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?signed`, ["link.pagado"])
    rx.respond = () => ({ status: 200 })
    const linkId = await paySimulated(server.url, testKey)
    const notice = await eventually(() =>
      rx.received.find((r) => r.body.includes(linkId) && r.headers["x-service-event"] === "link.pagado")
    )
    expect(signaturesValid(notice, hook.secret)).toBe(true)
    expect(signaturesValid(notice, `${hook.secret}x`)).toBe(false)
    // The database holds the secret sealed, never as the merchant can use it.
    const [stored] = await query(server.databaseUrl, "select secret from webhooks where id = $1", [hook.id])
    expect(stored.secret).toMatch(/^v1:/)
    expect(stored.secret).not.toContain(hook.secret.slice(6))
    const body = JSON.parse(notice.body)
    expect(Object.keys(body)).toEqual(["id", "evento", "creado_en", "data"])
    expect(body.id).toMatch(/^evt_[0-9a-f-]{36}$/)
    expect(body.data).toMatchObject({ link_id: linkId, mode: "test", monto: 100, total: 100 })
    expect(body.data.metadata).toBeUndefined()
    const [delivery] = await eventually(async () => {
      const list = await deliveries(liveKey, hook.id)
      return list.filter((d) => d.estado === "entregado").length === 1 ? list : null
    })
    expect(notice.headers["x-service-delivery"]).toBe(delivery.id)
    expect(delivery).toMatchObject({
      evento: "link.pagado",
      mode: "test",
      intentos: 1,
      codigo_http: 200,
      error: null
    })
  })

  it("a 500 then a 200 is two attempts with one delivery id and one success", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?retry`, ["link.pagado"])
    let calls = 0
    rx.respond = () => (calls++ === 0 ? { status: 500 } : { status: 200 })
    const linkId = await paySimulated(server.url, testKey)
    const [delivery] = await eventually(async () => {
      const list = await deliveries(liveKey, hook.id)
      return list[0]?.estado === "entregado" ? list : null
    })
    expect(delivery.intentos).toBe(2)
    const mine = rx.received.filter((r) => r.body.includes(linkId))
    expect(mine).toHaveLength(2)
    expect(new Set(mine.map((r) => r.headers["x-service-delivery"]))).toEqual(new Set([delivery.id]))
    expect(mine[0]?.body).toBe(mine[1]?.body)
  })

  it("a secret sealed under another SWITCH_SECRET fails its delivery at once, with the reason, and sends nothing", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?otro-secreto`, ["link.pagado"])
    const foreign = Sealed.seal(Redacted.make("otro-secreto-del-servidor"), "webhook", hook.id, "whsec_x")
    await query(server.databaseUrl, "update webhooks set secret = $2 where id = $1", [hook.id, foreign])
    await paySimulated(server.url, testKey)
    const [delivery] = await eventually(async () => {
      const list = await deliveries(liveKey, hook.id)
      return list[0]?.estado === "fallido" ? list : null
    })
    expect(delivery.error).toContain("SWITCH_SECRET")
    expect(delivery.intentos).toBe(1)
    expect(rx.received).toHaveLength(0)
  })

  it("a 302 counts as a failure and its Location is not followed", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?redirect`, ["link.pagado"])
    let calls = 0
    rx.respond = () =>
      calls++ === 0 ? { status: 302, headers: { location: `${rx.url}?followed` } } : { status: 200 }
    const linkId = await paySimulated(server.url, testKey)
    const [delivery] = await eventually(async () => {
      const list = await deliveries(liveKey, hook.id)
      return list[0]?.estado === "entregado" ? list : null
    })
    expect(delivery.intentos).toBe(2)
    const mine = rx.received.filter((r) => r.body.includes(linkId))
    expect(mine).toHaveLength(2)
    expect(rx.received.some((r) => r.headers.host && r.body === "")).toBe(false)
  })

  it("a receiver that always fails gets exactly 6 attempts, then the delivery is fallido", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?down`, ["link.pagado"])
    rx.respond = () => ({ status: 503 })
    const linkId = await paySimulated(server.url, testKey)
    const [delivery] = await eventually(async () => {
      const list = await deliveries(liveKey, hook.id)
      return list[0]?.estado === "fallido" ? list : null
    }, 25_000)
    expect(delivery).toMatchObject({
      intentos: 6,
      codigo_http: 503,
      error: "HTTP 503",
      proximo_intento: null
    })
    await new Promise((r) => setTimeout(r, 1500))
    expect(rx.received.filter((r) => r.body.includes(linkId))).toHaveLength(6)
    rx.respond = () => ({ status: 200 })
  })

  it("an inactive webhook receives nothing; the notices of both modes reach an active one", async () => {
    const { codigo, testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?modes`, ["link.pagado"])
    const off = await createHook(liveKey, `${rx.url}?off`, ["link.pagado"])
    await call(server.url, "PATCH", `/switch/v1/webhooks/${off.id}`, {
      key: liveKey,
      body: { estado: "inactivo" }
    })
    await writeEvent(server.databaseUrl, codigo, "live")
    await paySimulated(server.url, testKey)
    const list = await eventually(async () => {
      const all = await deliveries(liveKey, hook.id)
      return all.filter((d) => d.estado === "entregado").length === 2 ? all : null
    })
    expect(list.map((d) => d.mode).sort()).toEqual(["live", "test"])
    // A test key lists only the deliveries of test notices.
    expect((await deliveries(testKey, hook.id)).map((d) => d.mode)).toEqual(["test"])
    expect(await deliveries(liveKey, off.id)).toEqual([])
  })

  it("probar sends webhook.test now with the same signature headers", async () => {
    const { testKey, liveKey, rx } = await fresh()
    const hook = await createHook(liveKey, `${rx.url}?probar`, ["link.pagado"])
    rx.respond = () => ({ status: 200 })
    const reply = await call(server.url, "POST", `/switch/v1/webhooks/${hook.id}/probar`, { key: testKey })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      evento: "webhook.test",
      estado: "entregado",
      intentos: 1,
      mode: "test"
    })
    const notice = rx.received.find((r) => r.headers["x-service-delivery"] === reply.body.id)
    expect(notice).toBeDefined()
    if (notice === undefined) return
    expect(notice.headers["x-service-event"]).toBe("webhook.test")
    expect(signaturesValid(notice, hook.secret)).toBe(true)
    expect(JSON.parse(notice.body)).toMatchObject({ evento: "webhook.test", data: { mode: "test" } })
  })
})

describe("POST /switch/v1/eventos/{id}/reenviar", () => {
  it("sends a past notice again to the webhooks that receive it, signed the same; another merchant's or mode's is 404", async () => {
    const rx = await startReceiver()
    try {
      const m = await registerMerchant(server.url)
      const live = await approveMerchant(server, m.codigo)
      const hook = await createHook(live, rx.url, ["link.pagado"])
      const other = await createHook(live, `${rx.url}?otro`, ["link.acreditado"])
      const linkId = await paySimulated(server.url, m.key)
      await eventually(() => rx.received.length === 1)
      const notice = JSON.parse(rx.received[0]!.body)
      expect(notice.data.link_id).toBe(linkId)
      const first = await eventually(async () =>
        (await deliveries(live, hook.id)).find((d) => d.evento_id === notice.id && d.estado === "entregado")
      )

      const resent = await call(server.url, "POST", `/switch/v1/eventos/${notice.id}/reenviar`, {
        key: m.key
      })
      expect(resent.status).toBe(200)
      // Only the webhook that receives link.pagado; the same delivery, one more attempt.
      expect(resent.body.map((d: { webhook_id: string }) => d.webhook_id)).toEqual([hook.id])
      expect(resent.body[0]).toMatchObject({ id: first.id, evento_id: notice.id })
      await eventually(() => rx.received.length === 2)
      const again = rx.received[1]!
      expect(again.body).toBe(rx.received[0]!.body)
      expect(signaturesValid(again, hook.secret)).toBe(true)
      expect(again.headers["webhook-id"]).toBe(rx.received[0]!.headers["webhook-id"])
      const after = await eventually(async () =>
        (await deliveries(live, hook.id)).find(
          (d) => d.id === first.id && d.estado === "entregado" && d.intentos === 2
        )
      )
      expect(after.intentos).toBe(2)
      expect((await deliveries(live, other.id)).filter((d) => d.evento_id === notice.id)).toEqual([])

      // The live key is another mode; a stranger merchant and unknown ids see nothing.
      const stranger = await registerMerchant(server.url)
      for (const [key, id] of [
        [live, notice.id],
        [stranger.key, notice.id],
        [m.key, "evt_00000000-0000-0000-0000-000000000000"],
        [m.key, "nada"]
      ] as const) {
        const refused = await call(server.url, "POST", `/switch/v1/eventos/${id}/reenviar`, { key })
        expect(refused.status, `${key} ${id}`).toBe(404)
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(rx.received).toHaveLength(2)
    } finally {
      await rx.close()
    }
  })
})
