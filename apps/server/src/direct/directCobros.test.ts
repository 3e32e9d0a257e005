/**
 * Collect with a code, against a real bank simulator on loopback for live mode and the sandbox
 * for test mode: validation, idempotency (also under 20 concurrent repeats), unknown outcome and
 * reconciliation, notices once, query scoping, the bank close.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  balance,
  call,
  codeFor,
  counters,
  type DirectRig,
  merchant,
  notices,
  payer,
  simCall,
  startDirect,
  stored,
  tokenBody,
  until
} from "../../test/directHarness.js"

let rig: DirectRig
let m: Awaited<ReturnType<typeof merchant>>
const post = (key: string, path: string, body: unknown) =>
  call(rig.server.url, "POST", `/switch/v1${path}`, { key, body })

beforeAll(async () => {
  rig = await startDirect()
  m = await merchant(rig)
})
afterAll(() => rig.close())

describe("bodies", () => {
  it("a bad or extra field is 400 VALIDATION with detail.fieldErrors", async () => {
    const p = await payer(rig)
    const bad = await post(m.test, "/cobrar/token", {
      ...tokenBody(p),
      idempotency_key: "no-uuid",
      concepto: "x".repeat(121),
      canal: "fax",
      telefono_pagador: "0212123",
      monto: { valor: 0 },
      otro: 1
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe("VALIDATION")
    expect(Object.keys(bad.body.detail.fieldErrors).sort()).toEqual(
      ["canal", "concepto", "idempotency_key", "monto.valor", "otro", "telefono_pagador"].sort()
    )
    const missing = await post(m.test, "/cobrar", { idempotency_key: randomUUID() })
    expect(missing.status).toBe(400)
    expect(missing.body.detail.fieldErrors).toHaveProperty("otp")
    const notJson = await call(rig.server.url, "POST", "/switch/v1/pagar", {
      key: m.test,
      body: undefined,
      headers: { "content-type": "application/json" }
    })
    expect([400, 403]).toContain(notJson.status)
    const dollars = await post(m.test, "/cobrar/token", {
      ...tokenBody(p),
      monto: { valor: 10, moneda: "USD" }
    })
    expect(dollars.body.detail.fieldErrors).toHaveProperty("monto.moneda")
    expect((await post("x:sk_test_nope", "/cobrar/token", tokenBody(p))).status).toBe(401)
  })

  it("an account that is not 20 digits or a phone that is not a mobile number is 400 VALIDATION, and nothing reaches the bank", async () => {
    const p = await payer(rig)
    const before = await counters(rig)
    const rows = async () => Number((await rig.db.query("select count(*) from transacciones")).rows[0].count)
    const rowsBefore = await rows()
    const token = await post(m.live, "/cobrar/token", {
      ...tokenBody({ ...p, valor: "12" }),
      cobrador: { ...tokenBody(p).cobrador, valor: "0102000166" }
    })
    expect(token.status).toBe(400)
    expect(token.body.error).toBe("VALIDATION")
    expect(Object.keys(token.body.detail.fieldErrors).sort()).toEqual(["cobrador.valor", "pagador.valor"])
    // A landline is not a mobile number; letters are not an account.
    const landline = await post(m.live, "/cobrar", {
      ...tokenBody({ ...p, valor: "02125551234" }),
      otp: "123456"
    })
    expect(landline.body.detail.fieldErrors).toHaveProperty(["pagador.valor"])
    const payingMerchant = await merchant(rig)
    expect(
      (await admin(rig, "PATCH", `/admin/v1/comercios/${payingMerchant.codigo}`, { pagar_habilitado: true }))
        .status
    ).toBe(200)
    const payout = await post(payingMerchant.live, "/pagar", {
      idempotency_key: randomUUID(),
      monto: { valor: 1 },
      concepto: "Pago",
      ordenante: tokenBody(p).cobrador,
      beneficiario: { ...p, tipo: "cuenta", valor: "abc" },
      via: "credito_inmediato"
    })
    expect(payout.status).toBe(400)
    expect(Object.keys(payout.body.detail.fieldErrors)).toEqual(["beneficiario.valor"])
    expect(await counters(rig)).toEqual(before)
    expect(await rows()).toBe(rowsBefore)
  })
})

describe("test mode", () => {
  it("the code is simulated and 12345678 collects; the result has exactly SPEC's fields", async () => {
    const p = await payer(rig)
    const before = await counters(rig)
    const body = tokenBody(p)
    const token = await post(m.test, "/cobrar/token", body)
    expect(token.status).toBe(200)
    expect(Object.keys(token.body).sort()).toEqual(
      ["endtoend", "estado", "id", "intentos", "motivo_rechazo", "referencia_banco"].sort()
    )
    expect(token.body.estado).toBe("ACEPTADA")
    const paid = await post(m.test, "/cobrar", { ...body, otp: "12345678" })
    expect(paid.body).toMatchObject({ id: token.body.id, estado: "LIQUIDADA", motivo_rechazo: null })
    expect(await counters(rig)).toEqual(before)
    const list = await call(rig.server.url, "GET", "/switch/v1/transacciones", { key: m.test })
    expect(list.body.find((t: any) => t.id === token.body.id)).toMatchObject({
      operacion: "cobro",
      estado: "LIQUIDADA"
    })
    expect(list.body[0]).not.toHaveProperty("banco")
    expect(await notices(rig, token.body.id)).toEqual({
      "transaccion.aprobada": 1,
      "transaccion.liquidada": 1
    })
  })

  it("magic codes behave as on the page", async () => {
    const p = await payer(rig)
    const body = tokenBody(p)
    await post(m.test, "/cobrar/token", body)
    const poor = await post(m.test, "/cobrar", { ...body, otp: "11111112" })
    expect(poor.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "SALDO_INSUFICIENTE" })
  })
})

describe("live mode against the bank simulator", () => {
  it("requests the code at the payer's bank and debits once with it", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 100)
    const token = await post(m.live, "/cobrar/token", body)
    expect(token.body.estado).toBe("ACEPTADA")
    const paid = await post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })
    expect(paid.body).toMatchObject({ estado: "LIQUIDADA", motivo_rechazo: null })
    expect(paid.body.referencia_banco).toMatch(/^SIM/)
    expect(await balance(rig, p.banco, p.valor)).toBe(40_000)
    const again = await post(m.live, "/cobrar", { ...body, otp: "00000000" })
    expect(again.body).toEqual(paid.body)
    expect(await balance(rig, p.banco, p.valor)).toBe(40_000)
  })

  it("a wrong code is RECHAZADA OTP_INVALIDO and nothing is debited", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 100)
    await post(m.live, "/cobrar/token", body)
    const r = await post(m.live, "/cobrar", { ...body, otp: "99999999" })
    expect(r.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "OTP_INVALIDO" })
    expect(await balance(rig, p.banco, p.valor)).toBe(50_000)
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.rechazada": 1 })
  })

  it("PENDIENTE_BCV from the bank is not a final rejection: the operation stays PENDIENTE and is queried later", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 100)
    await post(m.live, "/cobrar/token", body)
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "rechazo", codigo: "09", veces: 1 })
    const r = await post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })
    expect(r.body).toMatchObject({ estado: "PENDIENTE", motivo_rechazo: null })
    const row = (
      await rig.db.query("select estado, proxima_consulta from transacciones where id = $1", [r.body.id])
    ).rows[0]
    expect(row.estado).toBe("PENDIENTE")
    expect(row.proxima_consulta).not.toBeNull()
    // Later queries answer the same code: still waiting, never RECHAZADA, no notice yet.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect((await until(rig, m.live, r.body.id, "RECHAZADA", 300)).estado).toBe("PENDIENTE")
    expect(await notices(rig, r.body.id)).toEqual({})
  })

  it("20 concurrent repeats of /cobrar make one bank debit and all answer the same", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 10)
    await post(m.live, "/cobrar/token", body)
    const otp = await codeFor(rig, p)
    const before = await counters(rig)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(m.live, "/cobrar", { ...body, otp }))
    )
    const after = await counters(rig)
    expect(after.solicitudes.debito - (before.solicitudes.debito ?? 0)).toBe(1)
    expect(after.debitos_aplicados - before.debitos_aplicados).toBe(1)
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1)
    expect(answers[0]?.body.estado).toBe("LIQUIDADA")
    expect(await balance(rig, p.banco, p.valor)).toBe(49_000)
  })

  it("the same key in the other mode is 409 idempotency_key_en_uso", async () => {
    const p = await payer(rig)
    const body = tokenBody(p)
    await post(m.live, "/cobrar/token", body)
    const other = await post(m.test, "/cobrar/token", body)
    expect(other.status).toBe(409)
    expect(other.body.error).toBe("idempotency_key_en_uso")
    expect((await post(m.test, "/cobrar", { ...body, otp: "12345678" })).body.error).toBe(
      "idempotency_key_en_uso"
    )
  })

  it("a timeout after the bank debited is DESCONOCIDA, and reconciliation settles it LIQUIDADA with one debit", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 100)
    await post(m.live, "/cobrar/token", body)
    const otp = await codeFor(rig, p)
    await simCall(rig, "POST", "/admin/fallas", {
      ruta: "debito",
      tipo: "timeout_tras_aplicar",
      ms: 5_000,
      veces: 1
    })
    const before = await counters(rig)
    const r = await post(m.live, "/cobrar", { ...body, otp })
    expect(r.body.estado).toBe("DESCONOCIDA")
    // No query from us: the reconciler alone finds the debit at the bank.
    const row = await stored(rig, r.body.id, "LIQUIDADA")
    expect(row.estado).toBe("LIQUIDADA")
    expect(row.referencia_banco).toMatch(/^SIM/)
    const after = await counters(rig)
    expect(after.debitos_aplicados - before.debitos_aplicados).toBe(1)
    expect(after.solicitudes.debito - before.solicitudes.debito).toBe(1)
    expect(await balance(rig, p.banco, p.valor)).toBe(40_000)
    const seen = await post(m.live, "/consultar", { id: r.body.id })
    expect(seen.body).toMatchObject({ estado: "LIQUIDADA", referencia_banco: row.referencia_banco })
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
  })

  it("ACEPTADA then LIQUIDADA through /consultar emits aprobada and liquidada once", async () => {
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 100)
    await post(m.live, "/cobrar/token", body)
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "diferir", ms: 600, veces: 1 })
    const r = await post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })
    expect(r.body.estado).toBe("ACEPTADA")
    expect(await notices(rig, r.body.id)).toEqual({})
    const done = await until(rig, m.live, r.body.id, "LIQUIDADA")
    expect(done.estado).toBe("LIQUIDADA")
    await post(m.live, "/consultar", { id: r.body.id })
    await post(m.live, "/consultar", { id: r.body.id })
    expect(await notices(rig, r.body.id)).toEqual({ "transaccion.aprobada": 1, "transaccion.liquidada": 1 })
  })

  it("a code request the bank refuses answers RECHAZADA with the normalised reason", async () => {
    const p = await payer(rig)
    const r = await post(m.live, "/cobrar/token", tokenBody({ ...p, identificacion: "V-1" }))
    expect(r.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "BENEFICIARIO_NO_COINCIDE" })
  })
})

describe("/consultar scoping", () => {
  it("404 for an unknown id, another merchant's, or the other mode's", async () => {
    const p = await payer(rig)
    const body = tokenBody(p)
    const mine = await post(m.live, "/cobrar/token", body)
    const other = await merchant(rig)
    expect((await post(m.live, "/consultar", { id: randomUUID() })).status).toBe(404)
    expect((await post(m.live, "/consultar", { id: "nada" })).status).toBe(404)
    expect((await post(m.test, "/consultar", { id: mine.body.id })).status).toBe(404)
    expect((await post(other.live, "/consultar", { id: mine.body.id })).status).toBe(404)
    expect((await post(m.live, "/consultar", { id: mine.body.id })).status).toBe(200)
    expect((await post(m.live, "/consultar", { id: mine.body.id, x: 1 })).body.error).toBe("VALIDATION")
  })
})

describe("bank close (controlled clock)", () => {
  it("a live code request from 23:45 to 01:30 Caracas is 503 cierre_bancario; test mode and codes already requested go on", async () => {
    const p = await payer(rig)
    const early = tokenBody(p, 10)
    Object.assign(rig.server.settings, { cierreBancario: true })
    rig.clock.fixed = new Date("2030-01-10T03:40:00Z") // 23:40 Caracas
    expect((await post(m.live, "/cobrar/token", early)).body.estado).toBe("ACEPTADA")
    rig.clock.fixed = new Date("2030-01-10T03:50:00Z") // 23:50 Caracas
    try {
      const closed = await post(m.live, "/cobrar/token", tokenBody(p, 10))
      expect(closed.status).toBe(503)
      expect(closed.body).toMatchObject({ error: "cierre_bancario", reintentar_en: 100 * 60 })
      expect(closed.headers.get("retry-after")).toBe(String(100 * 60))
      expect((await post(m.test, "/cobrar/token", tokenBody(p, 10))).body.estado).toBe("ACEPTADA")
      const paid = await post(m.live, "/cobrar", { ...early, otp: await codeFor(rig, p) })
      expect(paid.body.estado).toBe("LIQUIDADA")
    } finally {
      rig.clock.fixed = null
      Object.assign(rig.server.settings, { cierreBancario: false })
    }
  })
})
