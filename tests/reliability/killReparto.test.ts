/**
 * kill -9 between two beneficiary payments of a live split never pays anyone twice (issue 42): the
 * first part is paid, the bank applies the second part's credit and never answers, and the server
 * (embedded Postgres included) is killed with SIGKILL while it waits. After a restart on the same
 * data directory the order already on record is only asked about, never resent: the bank
 * simulator counts one transfer request and one credit per beneficiary, the split ends
 * `repartido`, the merchant's part is credited once and one `link.acreditado` is sent.
 */
import { Venezuela } from "@switch/core"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  allEvents,
  type Bank,
  bankServerEnv,
  eventually,
  linkOf,
  liveMerchant,
  openPage,
  type ServerProcess,
  startBank,
  startServer,
  stopBankServer
} from "../support/live.js"
import { ADMIN_TOKEN, call } from "../support/stack.js"

let bank: Bank
let env: Record<string, string>
let server: ServerProcess | undefined

beforeAll(async () => {
  bank = await startBank()
  env = await bankServerEnv(bank, { SWITCH_BANK_TIMEOUT_MS: "5000", SWITCH_CONCILIAR_SEGUNDOS: "0.5" })
})
afterAll(() => stopBankServer(server, bank, env))

const simAdmin = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${bank.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return (await r.json()) as any
}

/** A beneficiary's account at `banco`, opened at the simulator with nothing in it. */
const beneficiary = async (banco: string, n: number) => {
  const numero = String(n).padStart(10, "0")
  const valor = `${banco}0194${Option.getOrThrow(Venezuela.accountCheckDigits(banco, "0194", numero))}${numero}`
  await simAdmin("POST", "/admin/cuentas", { banco, numero: valor, identificacion: "V12345678", saldo: 0 })
  return { tipo: "cuenta", valor, banco, identificacion: "V-12345678", nombre: `Beneficiario ${n}` }
}

const admin = (url: string, method: string, path: string, body: unknown) =>
  call(url, method, path, { headers: { "x-admin-token": ADMIN_TOKEN }, body })

describe("kill -9 between two beneficiary payments", () => {
  it("after a restart each beneficiary is paid exactly once by the bank's own count, and the merchant once", async () => {
    server = await startServer(env)
    const url = server.url
    const m = await liveMerchant(url, "repartokill")
    expect(
      (
        await admin(url, "PATCH", "/admin/v1/comercios/repartokill", {
          split_habilitado: true,
          liquidacion_inmediata: true
        })
      ).status
    ).toBe(200)
    const first = await beneficiary("0114", 4242)
    const second = await beneficiary("0108", 4343)
    for (const cuenta of [first, second])
      expect(
        (await admin(url, "POST", "/admin/v1/comercios/repartokill/cuentas-aprobadas", cuenta)).status
      ).toBe(201)
    const created = await call(url, "POST", "/switch/v1/links", {
      key: m.liveKey,
      body: {
        monto: 200,
        concepto: "Pedido con reparto",
        split: [
          { cuenta: first, porcentaje: 25 },
          { cuenta: second, monto: 40 }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const linkId = created.body.id as string

    // The second beneficiary's bank applies the credit and never answers it.
    await bank.fault({
      ruta: "transferencia",
      tipo: "timeout_tras_aplicar",
      banco: "0108",
      ms: 60_000,
      veces: 1
    })
    const before = await bank.counters()
    const payer = await bank.payer()
    const paid = await (await openPage(url, linkId)).pay(payer, await bank.code(payer, 20_000))
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    await eventually(
      "both beneficiaries' credits applied at the bank",
      async () => (await bank.counters()).creditos_aplicados === before.creditos_aplicados + 2,
      20_000,
      20
    )
    // Between the two payments: the first sent and answered, the second applied at the bank, unanswered.
    await server.kill9()
    server = await startServer(env)
    const second_ = server

    const link = await eventually(
      "the split repartido after the restart",
      async () => {
        const l = await linkOf(second_.url, m.liveKey, linkId)
        return l.reparto?.estado === "repartido" ? l : null
      },
      90_000,
      500
    )
    // Net 198.00: 25 % is 49.50, 40.00 fixed; the merchant keeps 108.50.
    expect(link.reparto.beneficiarios.map((b: any) => [b.monto, b.estado])).toEqual([
      [49.5, "pagado"],
      [40, "pagado"]
    ])
    const acreditado = await eventually(
      "link.acreditado",
      async () => {
        const list = (await allEvents(second_.url, m.liveKey)).filter(
          (e) => e.evento === "link.acreditado" && e.data.link_id === linkId
        )
        return list.length > 0 ? list : null
      },
      60_000,
      500
    )
    expect(acreditado).toHaveLength(1)
    expect(acreditado[0].data.monto_acreditado).toBe(108.5)

    // The bank's own books: one transfer request and one credit per beneficiary, one for the merchant.
    const after = await bank.counters()
    expect(after.creditos_aplicados - before.creditos_aplicados).toBe(3)
    expect((after.solicitudes.transferencia ?? 0) - (before.solicitudes.transferencia ?? 0)).toBe(3)
    const saldo = async (c: { banco: string; valor: string }) =>
      (await simAdmin("GET", `/admin/cuentas/${c.banco}/${c.valor}`)).saldo
    expect([await saldo(first), await saldo(second)]).toEqual([4950, 4000])
  })
})
