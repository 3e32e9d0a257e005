/**
 * A link is paid exactly once across processes: 50 concurrent submissions of the payment page
 * for one live link, spread over two server processes (SWITCH_WORKERS=2) on one database, make
 * exactly one debit at the bank (the simulator's own count), exactly one `link.pagado` (in
 * /eventos and at a webhook receiver), leave the link `pagado`, and tell every submitter the
 * same receipt.
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
import { call, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let bank: Bank
let receiver: Receiver

beforeAll(async () => {
  bank = await startBank()
  receiver = await startReceiver()
  stack = await startStack({
    SWITCH_WORKERS: "2",
    SWITCH_BANK_URL: bank.url,
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    SWITCH_API_POR_MINUTO: "100000"
  })
})
afterAll(async () => {
  await stack?.stop()
  await receiver?.close()
  await bank?.close()
})

describe("one link, 50 payers' submissions, two processes", () => {
  it("50 concurrent submissions debit once, emit one link.pagado and leave the link pagado", async () => {
    const m = await liveMerchant(stack.url, "cincuenta")
    const hook = await newWebhook(stack.url, m.liveKey, receiver.url)
    const id = await newLink(stack.url, m.liveKey, 125.5)
    const payer = await bank.payer()
    const otp = await bank.code(payer, 12_550)
    // Each submission from its own page session (its own cookie), as 50 browsers would send it.
    const pages = await Promise.all(Array.from({ length: 50 }, () => openPage(stack.url, id)))
    // The bank takes 300 ms to debit, so every submission arrives while the first is at the bank.
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

    const link = await linkOf(stack.url, m.liveKey, id)
    expect(link.estado).toBe("pagado")
    const pagados = (await allEvents(stack.url, m.liveKey)).filter(
      (e) => e.evento === "link.pagado" && e.data.link_id === id
    )
    expect(pagados).toHaveLength(1)
    expect(pagados[0].data.codigo_verificacion).toBe(replies[0]?.body.codigo_verificacion)

    // The receiver gets that notice, signed, and no other link.pagado.
    const deliveries = await eventually("the webhook delivery recorded as delivered", async () => {
      const list = await call(stack.url, "GET", `/switch/v1/webhooks/${hook.id}/deliveries`, {
        key: m.liveKey
      })
      const mine = list.body.filter((d: any) => d.evento === "link.pagado")
      return mine.length > 0 && mine.every((d: any) => d.estado === "entregado") ? mine : null
    })
    expect(deliveries).toHaveLength(1)
    const notices = receiver.received.filter((n) => n.json?.evento === "link.pagado")
    expect(notices.map((n) => n.json.id)).toEqual([pagados[0].id])
    expect(signedWith(notices[0]!, hook.secret)).toBe(true)
    expect(notices[0]?.json.data).toMatchObject({ link_id: id, mode: "live", total: 125.5 })
  })
})
