/**
 * Two servers behind haproxy, on Debian's Postgres through PgBouncer in transaction mode
 * (support/multi.ts): a link is paid exactly once when 50 payers' submissions are spread over
 * both servers, its one `link.pagado` reaches the webhook receiver once, signed; idempotency
 * holds across the servers; and a key revoked through one server stops working on the other at
 * once (the revocation LISTEN runs on the direct connection, which a transaction pooler cannot
 * keep).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  allEvents,
  type Bank,
  eventually,
  linkOf,
  liveMerchant,
  newLink,
  newWebhook,
  openPage,
  type Receiver,
  signedWith,
  startBank,
  startReceiver
} from "../support/live.js"
import { type Multi, startMulti } from "../support/multi.js"
import { call } from "../support/stack.js"

let multi: Multi
let bank: Bank
let receiver: Receiver

beforeAll(async () => {
  bank = await startBank()
  receiver = await startReceiver()
  multi = await startMulti({
    SWITCH_BANK_URL: bank.url,
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    SWITCH_API_POR_MINUTO: "100000"
  })
})
afterAll(async () => {
  await multi?.stop()
  await receiver?.close()
  await bank?.close()
})

describe("two servers behind a balancer, PgBouncer in transaction mode", () => {
  it("the balancer spreads requests over both servers, each on PgBouncer and its queue direct", async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${multi.url}/healthz`)
      expect(r.status).toBe(200)
    }
    // Which server answered is not in the answer; each server's own /metrics counts its requests.
    for (const server of multi.servers) {
      const text = await (await fetch(`${server.url}/metrics`)).text()
      const healthz = /switch_http_requests_total\{[^}]*route="\/healthz"[^}]*\} (\d+)/.exec(text)
      if (healthz !== null && Number(healthz[1]) > 0) seen.add(server.name)
    }
    expect([...seen].sort()).toEqual(["a", "b"])
    // The API's connections go through PgBouncer, the job queues' and listeners' straight to Postgres.
    const Pg = (await import("pg")).default
    const direct = new Pg.Client({ connectionString: multi.pg.url() })
    await direct.connect()
    const apps = await direct.query<{ application_name: string; n: number }>(
      "select application_name, count(*)::int as n from pg_stat_activity where datname = 'switch' group by 1"
    )
    await direct.end()
    const names = apps.rows.map((r) => r.application_name)
    expect(names).toContain("switch-jobs")
    expect(names).toContain("switch-llaves")
  })

  it("50 concurrent submissions over both servers debit once and emit one link.pagado, delivered once", async () => {
    const m = await liveMerchant(multi.url, "multi_cincuenta")
    const hook = await newWebhook(multi.url, m.liveKey, receiver.url)
    const id = await newLink(multi.url, m.liveKey, 125.5)
    const payer = await bank.payer()
    const otp = await bank.code(payer, 12_550)
    const pages = await Promise.all(Array.from({ length: 50 }, () => openPage(multi.url, id)))
    await bank.fault({ ruta: "debito", tipo: "latencia", ms: 300 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const replies = await Promise.all(pages.map((page) => page.pay(payer, otp)))

    const after = await bank.counters()
    expect(after.solicitudes.debito! - (before.solicitudes.debito ?? 0)).toBe(1)
    expect(after.debitos_aplicados - before.debitos_aplicados).toBe(1)
    expect(await bank.balance(payer)).toBe(saldo - 12_550)
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(replies.map((r) => r.body.estado)).toEqual(Array(50).fill("pagado"))
    expect(new Set(replies.map((r) => r.body.codigo_verificacion)).size).toBe(1)
    await bank.clearFaults()

    expect((await linkOf(multi.url, m.liveKey, id)).estado).toBe("pagado")
    const pagados = (await allEvents(multi.url, m.liveKey)).filter(
      (e) => e.evento === "link.pagado" && e.data.link_id === id
    )
    expect(pagados).toHaveLength(1)
    await eventually("the webhook delivery recorded as delivered", async () => {
      const list = await call(multi.url, "GET", `/switch/v1/webhooks/${hook.id}/deliveries`, {
        key: m.liveKey
      })
      const mine = list.body.filter((d: any) => d.evento === "link.pagado")
      return mine.length === 1 && mine[0].estado === "entregado"
    })
    const notices = receiver.received.filter((n) => n.json?.evento === "link.pagado")
    expect(notices.map((n) => n.json.id)).toEqual([pagados[0].id])
    expect(signedWith(notices[0]!, hook.secret)).toBe(true)
  })

  it("100 concurrent creations with one idempotency key over both servers make one link", async () => {
    const m = await liveMerchant(multi.url, "multi_idem")
    const body = { monto: 12.34, concepto: "Concurrente", idempotency_key: "cien-en-dos-servidores" }
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(multi.servers[i % 2]!.url, "POST", "/switch/v1/links", { key: m.testKey, body })
      )
    )
    expect(replies.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([])
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1)
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
  })

  it("a key revoked through one server is refused by the other at once", async () => {
    const m = await liveMerchant(multi.url, "multi_llave")
    const [a, b] = multi.servers
    const made = await call(a.url, "POST", "/switch/v1/llaves", { key: m.testKey, body: { label: "Caja 2" } })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const second = `${m.codigo}:${made.body.api_key}`
    // Cached on b.
    expect((await call(b.url, "GET", "/switch/v1/links", { key: second })).status).toBe(200)
    const revoked = await call(a.url, "POST", `/switch/v1/llaves/${made.body.id}/revocar`, { key: m.testKey })
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200)
    // Within a second, not the cache's 30 s: b heard the revocation.
    await eventually(
      "b refuses the revoked key",
      async () => (await call(b.url, "GET", "/switch/v1/links", { key: second })).status === 401,
      1_000,
      50
    )
  })
})
