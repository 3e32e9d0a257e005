/**
 * Payouts and disbursements against the bank simulator: enablement, rails, idempotency under
 * 20 concurrent repeats, re-routing only what the bank did not process, and an unanswered payout
 * the bank never saw ending SIN_DEBITO_EN_EXTRACTO without being resent.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  balance,
  call,
  counters,
  type DirectRig,
  merchant,
  notices,
  payer,
  simCall,
  startDirect,
  stored,
  until
} from "../../test/directHarness.js"

let rig: DirectRig
let m: Awaited<ReturnType<typeof merchant>>
const post = (key: string, path: string, body: unknown) =>
  call(rig.server.url, "POST", `/switch/v1${path}`, { key, body })

const ORDENANTE = {
  tipo: "cuenta",
  valor: "01050000000000000077",
  banco: "0105",
  identificacion: "J-070133805",
  tipo_doc: "J",
  nombre: "Socio"
}

const pagoBody = (beneficiario: unknown, monto = 10, extra: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: monto },
  concepto: "Nómina",
  ordenante: ORDENANTE,
  beneficiario,
  ...extra
})

beforeAll(async () => {
  rig = await startDirect({ conciliarAbandonoSegundos: 2 })
  m = await merchant(rig)
  await simCall(rig, "POST", "/admin/cuentas", {
    banco: "0105",
    numero: ORDENANTE.valor,
    identificacion: "J070133805",
    saldo: 100_000_000
  })
})
afterAll(() => rig.close())

describe("enablement", () => {
  it("pagar and dispersiones are 403 pagar_no_habilitado until the service enables them", async () => {
    const b = await payer(rig)
    const other = await merchant(rig)
    const denied = await post(other.live, "/pagar", pagoBody(b))
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe("pagar_no_habilitado")
    expect((await post(other.test, "/dispersiones", { idempotency_key: randomUUID() })).body.error).toBe(
      "pagar_no_habilitado"
    )
    expect(
      (await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { pagar_habilitado: true })).status
    ).toBe(200)
    expect((await post(m.live, "/pagar", pagoBody(b))).status).toBe(200)
    const invalid = await post(m.live, "/pagar", { ...pagoBody(b), via: "cheque", proposito: "x" })
    expect(invalid.body).toMatchObject({ error: "VALIDATION" })
    expect(Object.keys(invalid.body.detail.fieldErrors).sort()).toEqual(["proposito", "via"])
  })
})

describe("rails", () => {
  it("pago_movil to a phone is LIQUIDADA at once and credits the beneficiary", async () => {
    const b = await payer(rig, 0)
    const r = await post(m.live, "/pagar", pagoBody(b, 25, { via: "pago_movil" }))
    expect(r.body).toMatchObject({ estado: "LIQUIDADA", intentos: 1, motivo_rechazo: null })
    expect(await balance(rig, b.banco, b.valor)).toBe(2_500)
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
  })

  it("credito_inmediato answers ACEPTADA, then LIQUIDADA by query, notices once", async () => {
    const b = await payer(rig, 0)
    const r = await post(m.live, "/pagar", pagoBody(b, 25))
    expect(r.body.estado).toBe("ACEPTADA")
    expect((await until(rig, m.live, r.body.id, "LIQUIDADA")).estado).toBe("LIQUIDADA")
    await post(m.live, "/consultar", { id: r.body.id })
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
    const list = await call(rig.server.url, "GET", "/switch/v1/transacciones", { key: m.live })
    expect(list.body.find((t: any) => t.id === r.body.id)).toMatchObject({
      operacion: "pago",
      estado: "LIQUIDADA"
    })
  })

  it("to an account the rail is credito_inmediato even when pago_movil is asked", async () => {
    const cuenta = { ...ORDENANTE, valor: "01340000000000000555", banco: "0134", nombre: "Proveedor" }
    const r = await post(m.live, "/pagar", pagoBody(cuenta, 5, { via: "pago_movil" }))
    expect(r.body.estado).toBe("ACEPTADA")
    const row = (await rig.db.query("select detalle from transacciones where id = $1", [r.body.id])).rows[0]
    expect(row.detalle.via).toBe("credito_inmediato")
  })

  it("test mode pays through the sandbox, never the bank", async () => {
    const before = await counters(rig)
    const r = await post(m.test, "/pagar", pagoBody(await payer(rig), 5, { via: "pago_movil" }))
    expect(r.body.estado).toBe("LIQUIDADA")
    expect((await counters(rig)).solicitudes.transferencia).toBe(before.solicitudes.transferencia)
  })
})

describe("idempotency and the unknown", () => {
  it("20 concurrent repeats of /pagar make one credit at the bank", async () => {
    const b = await payer(rig, 0)
    const body = pagoBody(b, 7, { via: "pago_movil" })
    const before = await counters(rig)
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(m.live, "/pagar", body)))
    const after = await counters(rig)
    expect(after.solicitudes.transferencia - before.solicitudes.transferencia).toBe(1)
    expect(after.creditos_aplicados - before.creditos_aplicados).toBe(1)
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1)
    expect(await balance(rig, b.banco, b.valor)).toBe(700)
    expect((await post(m.test, "/pagar", body)).body.error).toBe("idempotency_key_en_uso")
  })

  it("BANCO_NO_DISPONIBLE from the routing bank is re-routed through the next one", async () => {
    await simCall(rig, "PATCH", "/admin/config", { bancosCaidos: ["0102"] })
    try {
      const b2 = await payer(rig, 0, "0191")
      const r = await post(m.live, "/pagar", pagoBody(b2, 3, { via: "pago_movil", banco_preferido: "0102" }))
      expect(r.body).toMatchObject({ estado: "LIQUIDADA", intentos: 2 })
      expect(await balance(rig, b2.banco, b2.valor)).toBe(300)
    } finally {
      await simCall(rig, "PATCH", "/admin/config", { bancosCaidos: [] })
    }
  })

  it("a payout the bank never answered nor saw ends RECHAZADA SIN_DEBITO_EN_EXTRACTO, never resent", async () => {
    const b = await payer(rig, 0)
    await simCall(rig, "POST", "/admin/fallas", { ruta: "transferencia", tipo: "error_5xx", veces: 1 })
    const before = await counters(rig)
    const r = await post(m.live, "/pagar", pagoBody(b, 9, { via: "pago_movil" }))
    expect(r.body.estado).toBe("DESCONOCIDA")
    const row = await stored(rig, r.body.id, "RECHAZADA")
    expect(row).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "SIN_DEBITO_EN_EXTRACTO" })
    const after = await counters(rig)
    expect(after.solicitudes.transferencia - before.solicitudes.transferencia).toBe(1)
    expect(after.creditos_aplicados).toBe(before.creditos_aplicados)
    expect(await balance(rig, b.banco, b.valor)).toBe(0)
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.rechazada": 1 })
  })
})

describe("an operation the bank cannot be asked about", () => {
  it("unresolved after the window while the bank's queries fail, a payout goes to review: never settled as not done", async () => {
    const b = await payer(rig, 0)
    await simCall(rig, "POST", "/admin/fallas", {
      fallas: [
        { ruta: "transferencia", tipo: "error_5xx", veces: 1 },
        { ruta: "consulta", tipo: "error_5xx", veces: 100_000 }
      ]
    })
    try {
      const before = await counters(rig)
      const r = await post(m.live, "/pagar", pagoBody(b, 9, { via: "pago_movil" }))
      expect(r.body.estado).toBe("DESCONOCIDA")
      // The window is 2 s; wait well past it.
      const end = Date.now() + 8_000
      let row: any = null
      while (Date.now() < end) {
        row = (await rig.db.query("select * from transacciones where id = $1", [r.body.id])).rows[0]
        if (row?.revision_desde !== null && row?.revision_desde !== undefined) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(row.revision_desde).not.toBeNull()
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const after = (await rig.db.query("select * from transacciones where id = $1", [r.body.id])).rows[0]
      expect(after).toMatchObject({ estado: "DESCONOCIDA", motivo_rechazo: null })
      expect((await until(rig, m.live, r.body.id, "RECHAZADA", 300)).estado).toBe("DESCONOCIDA")
      expect(await notices(rig, r.body.id)).toEqual({})
      const counted = await counters(rig)
      expect(counted.solicitudes.transferencia - before.solicitudes.transferencia).toBe(1)
      expect(counted.creditos_aplicados).toBe(before.creditos_aplicados)
    } finally {
      await simCall(rig, "DELETE", "/admin/fallas")
    }
  })
})

describe("dispersiones", () => {
  it("each payment is its own operation; a repeat returns the same results and pays nothing more", async () => {
    const [a, b] = [await payer(rig, 0), await payer(rig, 0)]
    const body = {
      idempotency_key: randomUUID(),
      concepto: "Quincena",
      ordenante: ORDENANTE,
      pagos: [
        { beneficiario: a, monto: { valor: 1 }, via: "pago_movil" },
        { beneficiario: b, monto: { valor: 2 }, via: "pago_movil", concepto: "Bono" }
      ]
    }
    const first = await post(m.live, "/dispersiones", body)
    expect(first.status).toBe(200)
    expect(first.body.resultados.map((r: any) => r.estado)).toEqual(["LIQUIDADA", "LIQUIDADA"])
    const again = await post(m.live, "/dispersiones", body)
    expect(again.body).toEqual(first.body)
    expect(await balance(rig, a.banco, a.valor)).toBe(100)
    expect(await balance(rig, b.banco, b.valor)).toBe(200)
    const empty = await post(m.live, "/dispersiones", { ...body, idempotency_key: randomUUID(), pagos: [] })
    expect(empty.body.error).toBe("VALIDATION")
  })
})
