/**
 * Mercantil Banco end to end (issue 44): the built server with `SWITCH_BANCO_ADAPTADORES=0105=
 * mercantil` sends the orders of a merchant whose account is at 0105 through the real Mercantil
 * adapter to the bank simulator's Mercantil dialect (apps/bank-sim/src/Mercantil.ts), which
 * counts every request of its dialect as `mercantil_<operation>`. Payers are at other banks;
 * their key comes from their own bank, as in real life.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Bank,
  bankServerEnv,
  eventually,
  linkOf,
  liveMerchant,
  newLink,
  openPage,
  type Payer,
  type ServerProcess,
  startBank,
  startServer,
  stopBankServer
} from "../support/live.js"
import { ADMIN_TOKEN, call, OWN_ACCOUNT } from "../support/stack.js"

let bank: Bank
let env: Record<string, string>
let server: ServerProcess | undefined
let m: { codigo: string; liveKey: string }

/** Credentials of this run: the simulator is told them, the server reads them from settings. */
const CLIENT_ID = `cid-${randomUUID()}`
const SECRETO = `secreto-${randomUUID()}`

beforeAll(async () => {
  bank = await startBank()
  const told = await fetch(`${bank.url}/admin/config`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ mercantilClientId: CLIENT_ID, mercantilSecreto: SECRETO })
  })
  if (told.status !== 200) throw new Error(`bank config: ${told.status}`)
  env = await bankServerEnv(bank, {
    SWITCH_MERCANTIL_CLIENT_ID: CLIENT_ID,
    SWITCH_MERCANTIL_SECRETO: SECRETO,
    SWITCH_MERCANTIL_INTEGRATOR_ID: "31",
    SWITCH_MERCANTIL_MERCHANT_ID: "200284",
    SWITCH_MERCANTIL_TERMINAL_ID: "caja-1",
    SWITCH_BANK_TIMEOUT_MS: "1500",
    SWITCH_CONCILIAR_SEGUNDOS: "0.5",
    SWITCH_BANCO_ADAPTADORES: "0105=mercantil",
    // The stack's merchant collects into an account number; Mercantil's C2P names its phone.
    SWITCH_MERCANTIL_TELEFONO: "0424-1112233"
  })
  server = await startServer(env)
  m = await liveMerchant(server.url, "merca")
  const enabled = await call(server.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { pagar_habilitado: true }
  })
  if (enabled.status !== 200)
    throw new Error(`pagar_habilitado: ${enabled.status} ${JSON.stringify(enabled.body)}`)
})
afterAll(() => stopBankServer(server, bank, env))

const dialect = async () => {
  const c = await bank.counters()
  const s = c.solicitudes
  return {
    compra: s.mercantil_compra ?? 0,
    anulacion: s.mercantil_anulacion ?? 0,
    vuelto: s.mercantil_vuelto ?? 0,
    search: s.mercantil_search ?? 0,
    scp: s.mercantil_scp ?? 0,
    nativeDebits: s.debito ?? 0,
    debitos: c.debitos_aplicados
  }
}

const pagador = (p: Payer) => ({
  tipo: "telefono",
  valor: p.telefono,
  banco: p.banco,
  identificacion: `${p.tipo_doc}${p.identificacion}`,
  tipo_doc: p.tipo_doc,
  nombre: "Ana Pérez"
})

const sale = async (monto: number, saldo = 10_000_000, banco = "0102") => {
  const payer = await bank.payer(saldo, banco)
  const id = await newLink(server!.url, m.liveKey, monto)
  return { id, payer, cents: monto * 100, saldo }
}

describe("Mercantil through the real adapter and the simulator's dialect", () => {
  it("a link paid through the payer page is collected by a Mercantil compra, once", async () => {
    const before = await dialect()
    const s = await sale(25)
    const page = await openPage(server!.url, s.id)
    const paid = await page.pay(s.payer, await bank.code(s.payer, s.cents))
    expect(paid.body.estado).toBe("pagado")
    expect((await linkOf(server!.url, m.liveKey, s.id)).estado).toBe("pagado")
    const after = await dialect()
    expect(after.compra - before.compra).toBe(1)
    expect(after.debitos - before.debitos).toBe(1)
    expect(await bank.balance(s.payer)).toBe(s.saldo - s.cents)
  })

  it("an error list reaches the payer in words", async () => {
    const s = await sale(40, 1_000)
    const page = await openPage(server!.url, s.id)
    const answer = await page.pay(s.payer, await bank.code(s.payer, s.cents))
    expect(answer.body.estado).toBe("rechazado")
    expect(answer.body.motivo).toBe("Tu cuenta no tiene saldo suficiente.")
    expect(await bank.balance(s.payer)).toBe(1_000)
  })

  it("a direct-API collect with a code, then its reversal", async () => {
    const payer = await bank.payer(10_000_000, "0102")
    const body = {
      idempotency_key: randomUUID(),
      monto: { valor: 12.5 },
      concepto: "Cobro directo",
      cobrador: OWN_ACCOUNT,
      pagador: pagador(payer)
    }
    const before = await dialect()
    const token = await call(server!.url, "POST", "/switch/v1/cobrar/token", { key: m.liveKey, body })
    expect(token.status).toBe(200)
    expect(token.body.estado).toBe("ACEPTADA")
    expect((await dialect()).scp - before.scp).toBe(1)
    const otp = await bank.lastCode(payer)
    const cobro = await call(server!.url, "POST", "/switch/v1/cobrar", {
      key: m.liveKey,
      body: { ...body, otp }
    })
    expect(cobro.status).toBe(200)
    expect(cobro.body).toMatchObject({ estado: "LIQUIDADA", motivo_rechazo: null })
    expect(await bank.balance(payer)).toBe(10_000_000 - 1_250)

    const reverso = await call(server!.url, "POST", "/switch/v1/reverso", {
      key: m.liveKey,
      body: { idempotency_key: randomUUID(), id: cobro.body.id }
    })
    expect(reverso.status).toBe(200)
    expect(reverso.body.estado).toBe("LIQUIDADA")
    expect(await bank.balance(payer)).toBe(10_000_000)
    const after = await dialect()
    expect(after.compra - before.compra).toBe(1)
    expect(after.anulacion - before.anulacion).toBe(1)
  })

  it("a payout goes as a Mercantil vuelto to the phone", async () => {
    const payee = await bank.payer(0, "0134")
    const before = await dialect()
    const pago = await call(server!.url, "POST", "/switch/v1/pagar", {
      key: m.liveKey,
      body: {
        idempotency_key: randomUUID(),
        monto: { valor: 7 },
        concepto: "Vuelto",
        ordenante: OWN_ACCOUNT,
        beneficiario: pagador(payee),
        via: "pago_movil"
      }
    })
    expect(pago.status).toBe(200)
    expect(pago.body.estado).toBe("LIQUIDADA")
    expect(await bank.balance(payee)).toBe(700)
    expect((await dialect()).vuelto - before.vuelto).toBe(1)
  })

  it("a collect whose answer never comes is settled by search, never sent again", async () => {
    const s = await sale(31)
    const before = await dialect()
    await bank.fault({ ruta: "debito", tipo: "timeout_tras_aplicar", ms: 4_000, veces: 1 })
    const page = await openPage(server!.url, s.id)
    const answer = await page.pay(s.payer, await bank.code(s.payer, s.cents))
    expect(answer.body.estado).not.toBe("pagado")
    expect(answer.body.estado).not.toBe("rechazado")
    await eventually(
      "the link settled by query",
      async () => (await linkOf(server!.url, m.liveKey, s.id)).estado === "pagado"
    )
    const after = await dialect()
    expect(after.compra - before.compra).toBe(1)
    expect(after.search - before.search).toBeGreaterThan(0)
    expect(after.debitos - before.debitos).toBe(1)
    expect(await bank.balance(s.payer)).toBe(s.saldo - s.cents)
  })

  it("kill -9 during a collect: after the restart the search settles it, one debit by the simulator's count", async () => {
    const s = await sale(33)
    const before = await dialect()
    // The debit is applied 2.5 s after it arrives; the server is dead by then.
    await bank.fault({ ruta: "debito", tipo: "latencia", ms: 2_500, veces: 1 })
    const page = await openPage(server!.url, s.id)
    const inFlight = page.pay(s.payer, await bank.code(s.payer, s.cents)).catch(() => null)
    await eventually(
      "the compra at the bank",
      async () => (await dialect()).compra === before.compra + 1,
      10_000,
      20
    )
    await server!.kill9()
    expect(await inFlight).toBeNull()
    await eventually(
      "the bank debits while the server is down",
      async () => (await dialect()).debitos === before.debitos + 1
    )

    server = await startServer(env)
    await eventually(
      "the link settled after the restart",
      async () => (await linkOf(server!.url, m.liveKey, s.id)).estado === "pagado",
      60_000,
      500
    )
    const after = await dialect()
    expect(after.compra - before.compra).toBe(1)
    expect(after.debitos - before.debitos).toBe(1)
    expect(after.search - before.search).toBeGreaterThan(0)
    expect(after.nativeDebits - before.nativeDebits).toBe(1)
    expect(await bank.balance(s.payer)).toBe(s.saldo - s.cents)
  })

  it("the credentials never reach the server's output", () => {
    const output = server!.output()
    expect(output).toContain("Mercantil")
    expect(output).not.toContain(CLIENT_ID)
    expect(output).not.toContain(SECRETO)
  })
})
