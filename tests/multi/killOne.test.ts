/**
 * kill -9 of one of two servers mid-traffic (support/multi.ts: haproxy in front, PgBouncer in
 * transaction mode, Debian's Postgres): clients keep creating live links (each with its
 * idempotency key, retried on a 502 as the SDK retries) and paying them on the page, through the
 * balancer, while server `a` is killed with SIGKILL with debits at the bank and deliveries in
 * flight. Once haproxy has seen `a` down, every request is served by `b`. Afterwards: one link per
 * idempotency key, no link in flight, every link the bank debited `pagado` with exactly one
 * `link.pagado`, every other one open with none, nothing debited twice, and every notice
 * delivered (those `a` held are freed by `b` once `a`'s heartbeats stop).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  allEvents,
  type Bank,
  eventually,
  liveMerchant,
  newWebhook,
  openPage,
  type Payer,
  type Receiver,
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
    SWITCH_BANK_TIMEOUT_MS: "3000",
    SWITCH_CONCILIAR_SEGUNDOS: "0.5",
    SWITCH_CONCILIAR_ABANDONO_SEGUNDOS: "6",
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.1",
    SWITCH_API_POR_MINUTO: "100000",
    SWITCH_VERIFICAR_POR_MINUTO: "100000"
  })
})
afterAll(async () => {
  await multi?.stop()
  await receiver?.close()
  await bank?.close()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Sale {
  readonly key: string
  id: string | null
  payer: Payer | null
  cents: number
  /** When the payment was sent, and what came back (null: the connection failed). */
  paid?: { at: number; status: number | null }
}

describe("kill -9 of one server of two, mid-traffic", () => {
  it("the balancer keeps serving from the other; every link ends as the bank did it, notified once", async () => {
    const m = await liveMerchant(multi.url, "multi_matar")
    await newWebhook(multi.url, m.liveKey, receiver.url)
    // Debits take 400 ms at the bank, so the kill finds some there.
    await bank.fault({ ruta: "debito", tipo: "latencia", ms: 400 })

    const sales: Array<Sale> = []
    /** Requests answered (status) after `a` is down and haproxy has seen it, and those that failed. */
    const afterDown: Array<{ what: string; status: number | null }> = []
    let killedAt = Number.POSITIVE_INFINITY
    // haproxy checks every 300 ms and takes a server out after 2 failures.
    const settled = () => Date.now() > killedAt + 1_500
    let running = true

    /** POST /links with the sale's idempotency key, again on a 502/503 or a cut connection. */
    const create = async (sale: Sale) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const r = await call(multi.url, "POST", "/switch/v1/links", {
          key: m.liveKey,
          body: { monto: sale.cents / 100, concepto: "Venta", expira_horas: 24, idempotency_key: sale.key }
        }).catch(() => null)
        const late = settled()
        if (late) afterDown.push({ what: "crear", status: r?.status ?? null })
        if (r !== null && (r.status === 201 || r.status === 200)) return r.body.id as string
        if (r !== null && r.status < 500) throw new Error(`link: ${r.status} ${JSON.stringify(r.body)}`)
        await sleep(100)
      }
      throw new Error(`link ${sale.key} not created`)
    }

    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const sale: Sale = { key: `venta-${n}-${i}`, id: null, payer: null, cents: 1000 + n * 100 + i }
        sales.push(sale)
        sale.id = await create(sale)
        sale.payer = await bank.payer(10_000_000, "0102")
        const otp = await bank.code(sale.payer, sale.cents)
        const page = await openPage(multi.url, sale.id).catch(() => null)
        if (page === null) {
          if (settled()) afterDown.push({ what: "pagina", status: null })
          continue
        }
        const at = Date.now()
        const reply = await page.pay(sale.payer, otp).catch(() => null)
        sale.paid = { at, status: reply?.status ?? null }
        if (at > killedAt + 1_500) afterDown.push({ what: "pagar", status: reply?.status ?? null })
      }
    }

    const clients = Promise.all(Array.from({ length: 6 }, (_, n) => client(n)))
    await sleep(4_000)
    const [a] = multi.servers
    killedAt = Date.now()
    await a.kill9()
    await sleep(6_000)
    running = false
    await clients

    // The balancer kept serving: after it saw `a` down, nothing failed.
    expect(afterDown.length).toBeGreaterThan(10)
    expect(afterDown.filter((r) => r.status === null || r.status >= 500)).toEqual([])
    // The kill caught payments mid-flight: some were sent to `a` and never answered.
    const cut = sales.filter((s) => s.paid !== undefined && (s.paid.status === null || s.paid.status >= 502))
    expect(cut.length).toBeGreaterThan(0)

    const sold = sales.filter((s) => s.id !== null && s.payer !== null)
    // One link per idempotency key, none made twice by a retry.
    const links: Array<any> = []
    for (let offset = 0; ; offset += 200) {
      const page = await call(multi.url, "GET", `/switch/v1/links?limit=200&offset=${offset}`, {
        key: m.liveKey
      })
      links.push(...page.body)
      if (page.body.length < 200) break
    }
    expect(links.length).toBe(sales.filter((s) => s.id !== null).length)
    expect(new Set(sold.map((s) => s.id)).size).toBe(sold.length)

    // No link stays in flight; each ends as the bank did it.
    const states = await eventually(
      "no link in flight",
      async () => {
        const now = await Promise.all(
          sold.map((s) => call(multi.url, "GET", `/switch/v1/links/${s.id}`, { key: m.liveKey }))
        )
        const estados = now.map((r) => r.body.estado as string)
        return estados.every((e) => e === "pagado" || e === "pendiente") ? estados : null
      },
      60_000,
      500
    )
    const counters = await bank.counters()
    const paid = sold.filter((_, i) => states[i] === "pagado")
    expect(paid.length).toBeGreaterThan(10)
    for (const [i, s] of sold.entries()) {
      const balance = await bank.balance(s.payer as Payer)
      expect(balance, `${s.id} ${states[i]}`).toBe(states[i] === "pagado" ? 10_000_000 - s.cents : 10_000_000)
    }
    expect(counters.debitos_aplicados).toBe(paid.length)
    console.log(
      `kill -9 of a: ${sold.length} sales, ${paid.length} paid, ${cut.length} payments cut by the kill, ${afterDown.length} requests after haproxy saw a down, none failed`
    )

    // Exactly one link.pagado per paid link, none for the others.
    const events = await allEvents(multi.url, m.liveKey)
    const pagados = events.filter((e) => e.evento === "link.pagado")
    expect(pagados.map((e) => e.data.link_id).sort()).toEqual(paid.map((s) => s.id).sort())

    // Every notice delivered: those `a` held are freed once its heartbeats stop (30 s).
    await eventually(
      "every link.pagado at the receiver",
      () => {
        const got = new Set(receiver.received.map((n) => n.json?.id))
        return pagados.every((e) => got.has(e.id))
      },
      90_000,
      500
    )
  })
})
