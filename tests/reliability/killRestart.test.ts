/**
 * kill -9 loses no payment and no notice: the built server (two worker processes, embedded
 * Postgres) is killed with SIGKILL, Postgres included, while debits are at the bank and webhook
 * deliveries are mid-attempt or waiting for a retry, then started again on the same data
 * directory and ports. Afterwards no link stays in flight: every link the bank debited is
 * `pagado` with exactly one `link.pagado`, every link it did not debit is open again with no
 * notice, nothing was debited twice or sent twice, and every notice reaches the receiver, signed,
 * with every delivery recorded as delivered.
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
  type Payer,
  type Receiver,
  removeData,
  type ServerProcess,
  serverEnv,
  signedWith,
  startBank,
  startReceiver,
  startServer
} from "../support/live.js"
import { call } from "../support/stack.js"

let bank: Bank
let receiver: Receiver
let env: Record<string, string>
let server: ServerProcess | undefined

beforeAll(async () => {
  bank = await startBank()
  receiver = await startReceiver()
  env = await serverEnv({
    SWITCH_WORKERS: "2",
    SWITCH_BANK_URL: bank.url,
    SWITCH_BANK_TIMEOUT_MS: "2000",
    SWITCH_CONCILIAR_SEGUNDOS: "0.5",
    SWITCH_CONCILIAR_ABANDONO_SEGUNDOS: "6",
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    // Retries after 3 s, then 18 s.
    SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.3",
    SWITCH_API_POR_MINUTO: "100000"
  })
})
afterAll(async () => {
  if (server !== undefined) await server.kill9()
  await receiver?.close()
  await bank?.close()
  removeData(env)
})

interface Sale {
  readonly id: string
  readonly payer: Payer
  readonly cents: number
  readonly saldo: number
}

describe("kill -9 with payments and deliveries in flight", () => {
  it("after a restart every link is settled as the bank did it, with one link.pagado each, all delivered", async () => {
    server = await startServer(env)
    const first = server
    const m = await liveMerchant(first.url, "matar")
    const hook = await newWebhook(first.url, m.liveKey, receiver.url)

    // The receiver answers each notice's first attempt in one of three ways: 200, 500 (a retry
    // is due 3 s later), or never (the attempt is still open when the server dies).
    const attempts = new Map<string, number>()
    let firsts = 0
    receiver.respond = (notice) => {
      const evt = String(notice.json?.id)
      const n = (attempts.get(evt) ?? 0) + 1
      attempts.set(evt, n)
      if (n > 1) return { status: 200 }
      const kind = firsts++ % 3
      return kind === 0 ? { status: 200 } : kind === 1 ? { status: 500 } : { status: 200, delayMs: 600_000 }
    }

    const sale = async (banco: string, monto: number): Promise<Sale> => {
      const payer = await bank.payer(10_000_000, banco)
      return { id: await newLink(first.url, m.liveKey, monto), payer, cents: monto * 100, saldo: 10_000_000 }
    }
    const pay = async (s: Sale) => {
      const page = await openPage(first.url, s.id)
      return page.pay(s.payer, await bank.code(s.payer, s.cents))
    }
    // Paid before the kill; their notices are being delivered when it comes.
    const paidBefore = await Promise.all(Array.from({ length: 6 }, (_, i) => sale("0102", 10 + i)))
    // At the bank when the server dies: debited 2.5 s after it arrives, the answer finds no one.
    const debitedAfter = await Promise.all(Array.from({ length: 6 }, (_, i) => sale("0108", 20 + i)))
    // At the bank when the server dies: rejected (no funds) 2.5 s after it arrives.
    const rejectedAfter = await Promise.all(Array.from({ length: 4 }, (_, i) => sale("0114", 30 + i)))
    const all = [...paidBefore, ...debitedAfter, ...rejectedAfter]

    const replies = await Promise.all(paidBefore.map(pay))
    expect(replies.map((r) => r.body.estado)).toEqual(Array(6).fill("pagado"))
    await eventually("every first attempt of the paid links' notices at the receiver", () => firsts >= 6)

    await bank.fault({ ruta: "debito", tipo: "latencia", banco: "0108", ms: 2_500 })
    await bank.fault({ ruta: "debito", tipo: "latencia", banco: "0114", ms: 2_500 })
    await bank.fault({ ruta: "debito", tipo: "rechazo", banco: "0114", codigo: "51" })
    const before = await bank.counters()
    const inFlight = [...debitedAfter, ...rejectedAfter].map((s) => pay(s).catch(() => null))
    await eventually(
      "every in-flight debit received by the bank",
      async () => (await bank.counters()).solicitudes.debito === (before.solicitudes.debito ?? 0) + 10,
      10_000,
      20
    )
    await first.kill9()
    // The crash caught them: no payer heard back, and the bank decides only now.
    expect((await Promise.all(inFlight)).filter((r) => r !== null)).toEqual([])
    expect((await bank.counters()).debitos_aplicados).toBe(6)
    await eventually("the bank debits while the server is down", async () => {
      return (await bank.counters()).debitos_aplicados === 12
    })

    server = await startServer(env)
    const second = server

    // The reconciler alone settles every link as the bank did it.
    const settled = await eventually(
      "no link in flight",
      async () => {
        const links = await Promise.all(all.map((s) => linkOf(second.url, m.liveKey, s.id)))
        return links.every((l) => l.estado === "pagado" || l.estado === "pendiente") ? links : null
      },
      60_000,
      500
    )
    expect(settled.map((l) => l.estado)).toEqual([...Array(12).fill("pagado"), ...Array(4).fill("pendiente")])
    const counters = await bank.counters()
    expect(counters.debitos_aplicados).toBe(12)
    // One debit order per payment, never resent.
    expect(counters.solicitudes.debito).toBe(16)
    for (const s of all) {
      const paid = [...paidBefore, ...debitedAfter].includes(s)
      expect(await bank.balance(s.payer), s.id).toBe(paid ? s.saldo - s.cents : s.saldo)
    }

    // Exactly one link.pagado per paid link, and nothing for the others.
    const events = await allEvents(second.url, m.liveKey)
    const pagados = events.filter((e) => e.evento === "link.pagado")
    expect(pagados.map((e) => e.data.link_id).sort()).toEqual(
      [...paidBefore, ...debitedAfter].map((s) => s.id).sort()
    )

    // Every notice reaches the receiver, signed, and every delivery is recorded as delivered:
    // attempts the kill cut short and retries due while the server was down included.
    const deliveries = await eventually(
      "every delivery delivered",
      async () => {
        const list = await call(second.url, "GET", `/switch/v1/webhooks/${hook.id}/deliveries`, {
          key: m.liveKey
        })
        return list.body.length === events.length && list.body.every((d: any) => d.estado === "entregado")
          ? list.body
          : null
      },
      90_000,
      500
    )
    expect(deliveries.map((d: any) => d.evento_id).sort()).toEqual(events.map((e) => e.id).sort())
    expect(deliveries.filter((d: any) => d.intentos > 1).length).toBeGreaterThan(0)
    for (const e of events) {
      const got = receiver.received.filter((n) => n.json?.id === e.id)
      expect(got.length, e.id).toBeGreaterThan(0)
      for (const n of got) {
        expect(signedWith(n, hook.secret)).toBe(true)
        expect(n.json).toEqual(e)
      }
    }

    // A link the bank rejected is open again and pays once.
    const retry = rejectedAfter[0]!
    await bank.clearFaults()
    const page = await openPage(second.url, retry.id)
    const paid = await page.pay(retry.payer, await bank.code(retry.payer, retry.cents))
    expect(paid.body.estado).toBe("pagado")
    expect((await bank.counters()).debitos_aplicados).toBe(13)
    expect(await bank.balance(retry.payer)).toBe(retry.saldo - retry.cents)
  })
})
