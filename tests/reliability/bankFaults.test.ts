/**
 * Bank faults never charge twice: when the bank simulator applies a debit and never answers
 * (`timeout_tras_aplicar`), answers 5xx without processing (`error_5xx`), or answers after the
 * server's deadline (`latencia`), the payment is left unknown (the page's link waits in
 * `revision`, a direct collection is `DESCONOCIDA`) and is then settled by the server's own
 * reconciliation asking the bank (`GET /v1/operaciones/:id`), never by sending the debit again:
 * the simulator's debit count, the payer's balance and the notices agree with the outcome.
 *
 * The direct-API cases ask the bank for the code through `/cobrar/token`, which is closed from
 * 23:45 to 01:30 Venezuela time; the server runs with that close lifted
 * (`SWITCH_CIERRE_BANCARIO=0`) so the suite means the same at any hour.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  allEvents,
  type Bank,
  type Counters,
  eventually,
  linkOf,
  liveMerchant,
  newLink,
  openPage,
  type Payer,
  SETTLEMENT_ACCOUNT,
  startBank
} from "../support/live.js"
import { call, type Stack, startStack } from "../support/stack.js"

/** How long an order the bank never saw stays unknown before it is settled as not done. */
const ABANDONO_S = 8

let stack: Stack
let bank: Bank
let liveKey: string

beforeAll(async () => {
  bank = await startBank()
  stack = await startStack({
    SWITCH_BANK_URL: bank.url,
    SWITCH_CIERRE_BANCARIO: "0",
    SWITCH_BANK_TIMEOUT_MS: "1500",
    SWITCH_CONCILIAR_SEGUNDOS: "0.3",
    SWITCH_CONCILIAR_ABANDONO_SEGUNDOS: String(ABANDONO_S),
    SWITCH_API_POR_MINUTO: "100000"
  })
  liveKey = (await liveMerchant(stack.url, "fallas")).liveKey
})
afterAll(async () => {
  await stack?.stop()
  await bank?.close()
})

const diff = (before: Counters, after: Counters) => ({
  debitRequests: (after.solicitudes.debito ?? 0) - (before.solicitudes.debito ?? 0),
  debits: after.debitos_aplicados - before.debitos_aplicados,
  queries: (after.solicitudes.consulta ?? 0) - (before.solicitudes.consulta ?? 0)
})

/** Notices of each kind about a link (`data.link_id`) or a direct operation (`data.id`). */
const noticesAbout = async (id: string) => {
  const counts: Record<string, number> = {}
  for (const e of await allEvents(stack.url, liveKey))
    if (e.data.link_id === id || e.data.id === id) counts[e.evento] = (counts[e.evento] ?? 0) + 1
  return counts
}

/** The link's state as the merchant reads it (this read never asks the bank). */
const linkState = async (id: string) => (await linkOf(stack.url, liveKey, id)).estado as string

/** Waits until the link reaches `estado` through the server's reconciler alone. */
const linkBecomes = (id: string, estado: string) =>
  eventually(`link ${id} ${estado}`, async () => (await linkState(id)) === estado, 40_000, 250)

describe("payment page (live link) under bank faults", () => {
  it("a debit the bank applied but never answered waits in revision, then a query pays the link; one debit", async () => {
    const payer = await bank.payer(10_000_000, "0108")
    const id = await newLink(stack.url, liveKey, 80)
    const otp = await bank.code(payer, 8_000)
    const page = await openPage(stack.url, id)
    await bank.fault({ ruta: "debito", tipo: "timeout_tras_aplicar", banco: "0108", ms: 30_000, veces: 1 })
    // The bank's first two answers to queries are 503s too: reconciliation keeps asking.
    await bank.fault({ ruta: "consulta", tipo: "error_5xx", veces: 2 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const reply = await page.pay(payer, otp)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ estado: "procesando" })
    expect(diff(before, await bank.counters()).debits).toBe(1)
    expect(await linkState(id)).toBe("revision")
    expect(await noticesAbout(id)).toEqual({})

    await linkBecomes(id, "pagado")
    const after = diff(before, await bank.counters())
    expect(after).toMatchObject({ debitRequests: 1, debits: 1 })
    expect(after.queries).toBeGreaterThanOrEqual(3)
    expect(await bank.balance(payer)).toBe(saldo - 8_000)
    expect(await noticesAbout(id)).toEqual({ "link.pagado": 1 })
    const status = await call(stack.url, "GET", `/l/${id}/estado`)
    expect(status.body.estado).toBe("pagado")
    // Paying again is refused: the link is paid once.
    const again = await page.pay(payer, await bank.code(payer, 8_000))
    expect(again.status).toBe(409)
    expect(diff(before, await bank.counters()).debitRequests).toBe(1)
  })

  it("a 5xx from the bank (nothing debited) waits, is settled as not done after the window, and the payer pays once with a new code", async () => {
    const payer = await bank.payer(10_000_000, "0114")
    const id = await newLink(stack.url, liveKey, 45.5)
    const page = await openPage(stack.url, id)
    await bank.fault({ ruta: "debito", tipo: "error_5xx", banco: "0114", veces: 1 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const sentAt = Date.now()
    const reply = await page.pay(payer, await bank.code(payer, 4_550))
    expect(reply.body).toEqual({ estado: "procesando" })
    expect(await linkState(id)).toBe("revision")

    await linkBecomes(id, "pendiente")
    // Not given up before the window: the bank may still have been processing it.
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual((ABANDONO_S - 1) * 1000)
    const settled = diff(before, await bank.counters())
    expect(settled).toMatchObject({ debitRequests: 1, debits: 0 })
    expect(settled.queries).toBeGreaterThanOrEqual(1)
    expect(await bank.balance(payer)).toBe(saldo)
    expect(await noticesAbout(id)).toEqual({})
    const status = await call(stack.url, "GET", `/l/${id}/estado`)
    expect(status.body.estado).toBe("pendiente")
    expect(status.body.motivo).toEqual(expect.any(String))

    const retry = await page.pay(payer, await bank.code(payer, 4_550))
    expect(retry.body.estado).toBe("pagado")
    expect(diff(before, await bank.counters())).toMatchObject({ debitRequests: 2, debits: 1 })
    expect(await bank.balance(payer)).toBe(saldo - 4_550)
    expect(await noticesAbout(id)).toEqual({ "link.pagado": 1 })
  })

  it("a debit the bank applies after the server's deadline (latency) is found by a query; one debit", async () => {
    const payer = await bank.payer(10_000_000, "0172")
    const id = await newLink(stack.url, liveKey, 20)
    const otp = await bank.code(payer, 2_000)
    const page = await openPage(stack.url, id)
    await bank.fault({ ruta: "debito", tipo: "latencia", banco: "0172", ms: 3_000, veces: 1 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const reply = await page.pay(payer, otp)
    expect(reply.body).toEqual({ estado: "procesando" })
    // The server gave up waiting at 1.5 s; the bank has not debited yet.
    expect(diff(before, await bank.counters()).debits).toBe(0)
    expect(await linkState(id)).toBe("revision")

    await linkBecomes(id, "pagado")
    expect(diff(before, await bank.counters())).toMatchObject({ debitRequests: 1, debits: 1 })
    expect(await bank.balance(payer)).toBe(saldo - 2_000)
    expect(await noticesAbout(id)).toEqual({ "link.pagado": 1 })
  })
})

describe("direct API collection (/cobrar) under bank faults", () => {
  const body = (p: Payer, monto: number) => ({
    idempotency_key: randomUUID(),
    monto: { valor: monto, moneda: "VES" },
    concepto: "Cobro directo",
    cobrador: { ...SETTLEMENT_ACCOUNT, tipo_doc: "J" },
    pagador: {
      tipo: "telefono",
      valor: p.telefono,
      banco: p.banco,
      identificacion: `V-${p.identificacion}`,
      tipo_doc: "V",
      nombre: "Ana Pérez"
    }
  })

  /** `/cobrar/token` (the server asks the payer's bank for the code). */
  const requestCode = async (b: ReturnType<typeof body>) => {
    const token = await call(stack.url, "POST", "/switch/v1/cobrar/token", { key: liveKey, body: b })
    expect(token.status).toBe(200)
    expect(token.body.estado).toBe("ACEPTADA")
    return token.body.id as string
  }

  const collect = (b: ReturnType<typeof body>, otp: string) =>
    call(stack.url, "POST", "/switch/v1/cobrar", { key: liveKey, body: { ...b, otp } })

  /** The operation as the transactions list shows it (this read never asks the bank). */
  const stored = async (id: string) => {
    const list = await call(stack.url, "GET", "/switch/v1/transacciones?limit=200", { key: liveKey })
    return list.body.find((t: any) => t.id === id)
  }

  const becomes = (id: string, estado: string) =>
    eventually(`operation ${id} ${estado}`, async () => {
      const t = await stored(id)
      return t?.estado === estado ? t : null
    })

  it("a debit applied but never answered is DESCONOCIDA, then LIQUIDADA by the reconciler's query; one debit", async () => {
    const payer = await bank.payer(10_000_000, "0191")
    const b = body(payer, 100)
    const id = await requestCode(b)
    await bank.fault({ ruta: "debito", tipo: "timeout_tras_aplicar", banco: "0191", ms: 30_000, veces: 1 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const r = await collect(b, await bank.lastCode(payer))
    expect(r.body).toMatchObject({ id, estado: "DESCONOCIDA" })
    expect(diff(before, await bank.counters()).debits).toBe(1)

    const done = await becomes(id, "LIQUIDADA")
    expect(done.referencia_banco).toMatch(/^SIM/)
    const after = diff(before, await bank.counters())
    expect(after).toMatchObject({ debitRequests: 1, debits: 1 })
    expect(after.queries).toBeGreaterThanOrEqual(1)
    expect(await bank.balance(payer)).toBe(saldo - 10_000)
    expect(await noticesAbout(id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
    // Repeating the collection answers the recorded result and sends nothing.
    const again = await collect(b, await bank.lastCode(payer))
    expect(again.body).toMatchObject({ id, estado: "LIQUIDADA" })
    expect(diff(before, await bank.counters()).debitRequests).toBe(1)
  })

  it("a 5xx from the bank (nothing debited) is DESCONOCIDA, then RECHAZADA BANCO_NO_DISPONIBLE after the window; no debit", async () => {
    const payer = await bank.payer(10_000_000, "0104")
    const b = body(payer, 30)
    const id = await requestCode(b)
    await bank.fault({ ruta: "debito", tipo: "error_5xx", banco: "0104", veces: 1 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const sentAt = Date.now()
    const r = await collect(b, await bank.lastCode(payer))
    expect(r.body).toMatchObject({ id, estado: "DESCONOCIDA" })

    const done = await becomes(id, "RECHAZADA")
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual((ABANDONO_S - 1) * 1000)
    expect(done.motivo_rechazo).toBe("BANCO_NO_DISPONIBLE")
    const after = diff(before, await bank.counters())
    expect(after).toMatchObject({ debitRequests: 1, debits: 0 })
    expect(after.queries).toBeGreaterThanOrEqual(1)
    expect(await bank.balance(payer)).toBe(saldo)
    expect(await noticesAbout(id)).toEqual({ "transaccion.rechazada": 1 })
  })

  it("a debit the bank applies after the server's deadline (latency) is DESCONOCIDA, then LIQUIDADA; one debit", async () => {
    const payer = await bank.payer(10_000_000, "0138")
    const b = body(payer, 15)
    const id = await requestCode(b)
    await bank.fault({ ruta: "debito", tipo: "latencia", banco: "0138", ms: 3_000, veces: 1 })
    const before = await bank.counters()
    const saldo = await bank.balance(payer)

    const r = await collect(b, await bank.lastCode(payer))
    expect(r.body).toMatchObject({ id, estado: "DESCONOCIDA" })
    expect(diff(before, await bank.counters()).debits).toBe(0)

    await becomes(id, "LIQUIDADA")
    expect(diff(before, await bank.counters())).toMatchObject({ debitRequests: 1, debits: 1 })
    expect(await bank.balance(payer)).toBe(saldo - 1_500)
    expect(await noticesAbout(id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
  })
})
