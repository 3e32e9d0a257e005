/**
 * The adapter against apps/bank-sim's Mercantil dialect over loopback HTTP: the encryption
 * round trip (the simulator decrypts what the adapter encrypts, with its own code), and each
 * operation moving money once on the simulator's books.
 */

import { type BankSim, startBankSim } from "@switch/bank-sim"
import type { Ports } from "@switch/core"
import { Money } from "@switch/core"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { MERCANTIL_SIMULADOR } from "../../../Config.js"
import { bitacoraEnMemoria, makeMercantilBank } from "./Mercantil.js"

let sim: BankSim
const admin = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${sim.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return (await r.json()) as any
}

beforeAll(async () => {
  sim = await startBankSim({ port: 0 })
})
afterAll(() => sim.close())
beforeEach(async () => {
  await admin("POST", "/admin/reiniciar")
  await admin("PATCH", "/admin/config", { autoAbrir: false })
  await admin("POST", "/admin/cuentas", {
    banco: "0102",
    numero: "01020000000000000001",
    telefono: "0414-1234567",
    identificacion: "V12345678",
    saldo: 50_000
  })
  await admin("POST", "/admin/cuentas", {
    banco: "0105",
    numero: "01050000000000000009",
    telefono: "0424-1112233",
    identificacion: "J123456789",
    saldo: 10_000
  })
})

const banco = (timeoutMs = 2_000) =>
  makeMercantilBank({
    url: `${sim.url}/mercantil-banco/sandbox`,
    timeoutMs,
    credenciales: {
      integratorId: MERCANTIL_SIMULADOR.integratorId,
      merchantId: MERCANTIL_SIMULADOR.merchantId,
      terminalId: MERCANTIL_SIMULADOR.terminalId,
      clientId: Redacted.make(MERCANTIL_SIMULADOR.clientId),
      secreto: Redacted.make(MERCANTIL_SIMULADOR.secreto)
    },
    bitacora: bitacoraEnMemoria()
  })

const pagador: Ports.Party = {
  tipo: "telefono",
  valor: "04141234567",
  banco: "0102",
  identificacion: "V12345678",
  nombre: "Ana"
}
const comercio: Ports.Party = {
  tipo: "telefono",
  valor: "04241112233",
  banco: "0105",
  identificacion: "J123456789",
  nombre: "Tienda"
}
const run = <A>(e: Effect.Effect<A>) => Effect.runPromise(e)
const saldo = async (b: string, v: string) => (await admin("GET", `/admin/cuentas/${b}/${v}`)).saldo as number
const estado = async () => (await admin("GET", "/admin/estado")).contadores

/** Key request, then the key the payer received. */
const clave = async (b: ReturnType<typeof banco>, id: string, monto = 1234) => {
  const a = await run(
    b.requestCode({ operacionId: id, monto: Money.Cents(monto), concepto: "x", cobrador: comercio, pagador })
  )
  expect(a.estado).toBe("ACEPTADA")
  return (await admin("GET", "/admin/codigos/0102/04141234567")).codigo as string
}
const compra = (b: ReturnType<typeof banco>, id: string, otp: string, monto = 1234) =>
  run(
    b.debit({ operacionId: id, monto: Money.Cents(monto), concepto: "x", cobrador: comercio, pagador, otp })
  )

describe("Mercantil adapter ↔ the simulator's Mercantil dialect", () => {
  it("a collect with the payer's key moves the money once: LIQUIDADA with Mercantil's reference", async () => {
    const b = banco()
    const otp = await clave(b, "k1")
    const a = await compra(b, "c1", otp)
    expect(a).toMatchObject({ estado: "LIQUIDADA", motivo_rechazo: null })
    expect(a.referencia_banco).toMatch(/^SIM/)
    expect(await saldo("0102", "04141234567")).toBe(50_000 - 1234)
    expect(await saldo("0105", "04241112233")).toBe(10_000 + 1234)
    // The same order again (same invoice) is answered, not applied again.
    expect((await compra(b, "c1", otp)).estado).toBe("LIQUIDADA")
    expect((await estado()).debitos_aplicados).toBe(1)
  })

  it("a wrong key is an error list, read as RECHAZADA OTP_INVALIDO; no money moves", async () => {
    const b = banco()
    await clave(b, "k2")
    expect(await compra(b, "c2", "99999999")).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "OTP_INVALIDO"
    })
    expect(await saldo("0102", "04141234567")).toBe(50_000)
  })

  it("insufficient funds comes back in words the payer understands", async () => {
    const b = banco()
    const otp = await clave(b, "k3")
    expect(await compra(b, "c3", otp, 60_000)).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "SALDO_INSUFICIENTE"
    })
  })

  it("a reversal (anulacion) gives the payer back the purchase", async () => {
    const b = banco()
    const otp = await clave(b, "k4")
    await compra(b, "c4", otp)
    const r = await run(
      b.reverse({ operacionId: "r4", originalId: "c4", monto: Money.Cents(1234), motivo: "x" })
    )
    expect(r.estado).toBe("LIQUIDADA")
    expect(await saldo("0102", "04141234567")).toBe(50_000)
    expect((await estado()).reversos_aplicados).toBe(1)
  })

  it("a payout (vuelto) moves money from the merchant to the phone", async () => {
    const b = banco()
    const a = await run(
      b.credit({
        operacionId: "p5",
        monto: Money.Cents(700),
        concepto: "x",
        ordenante: comercio,
        beneficiario: pagador,
        via: "pago_movil"
      })
    )
    expect(a.estado).toBe("LIQUIDADA")
    expect(await saldo("0102", "04141234567")).toBe(50_700)
    expect(await saldo("0105", "04241112233")).toBe(9_300)
  })

  it("a collect whose answer never comes is DESCONOCIDA, and search settles it without a second debit", async () => {
    const b = banco(500)
    const otp = await clave(b, "k6")
    await admin("POST", "/admin/fallas", {
      ruta: "debito",
      tipo: "timeout_tras_aplicar",
      ms: 5_000,
      veces: 1
    })
    expect((await compra(b, "c6", otp)).estado).toBe("DESCONOCIDA")
    const q = await run(b.query("c6"))
    expect(q.estado).toBe("LIQUIDADA")
    expect(q.referencia_banco).toMatch(/^SIM/)
    const c = await estado()
    expect(c.debitos_aplicados).toBe(1)
    expect(c.solicitudes.debito).toBe(1)
    expect(c.solicitudes.consulta).toBe(1)
    expect(await saldo("0102", "04141234567")).toBe(50_000 - 1234)
  })

  it("a search for an order the bank never got says so (noRecibida)", async () => {
    const b = banco(500)
    const otp = await clave(b, "k7")
    await admin("POST", "/admin/fallas", { ruta: "debito", tipo: "error_5xx", veces: 1 })
    expect((await compra(b, "c7", otp)).estado).toBe("DESCONOCIDA")
    expect(await run(b.query("c7"))).toMatchObject({ estado: "DESCONOCIDA", noRecibida: true })
  })

  it("a wrong client id or secret is refused by the dialect", async () => {
    const otra = makeMercantilBank({
      url: `${sim.url}/mercantil-banco/sandbox`,
      timeoutMs: 2_000,
      credenciales: {
        integratorId: "1",
        merchantId: "1",
        terminalId: "1",
        clientId: Redacted.make(MERCANTIL_SIMULADOR.clientId),
        secreto: Redacted.make("otro secreto")
      },
      bitacora: bitacoraEnMemoria()
    })
    expect(
      (
        await run(
          otra.debit({
            operacionId: "x",
            monto: Money.Cents(1),
            concepto: "x",
            cobrador: comercio,
            pagador,
            otp: "1"
          })
        )
      ).estado
    ).toBe("RECHAZADA")
    expect((await estado()).debitos_aplicados).toBe(0)
  })
})
