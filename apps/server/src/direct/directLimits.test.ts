/**
 * Amount rules of direct collections: receive caps on /cobrar/token (in VES and in USD at the
 * BCV rate, new-account caps until reviewed, counted per mode), a code already requested is not
 * stopped, and per-charge limits reject without asking the bank.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage } from "../../test/checkoutHarness.js"
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
  tokenBody
} from "../../test/directHarness.js"

let rig: DirectRig
const post = (key: string, path: string, body: unknown) =>
  call(rig.server.url, "POST", `/switch/v1${path}`, { key, body })
const patch = (codigo: string, body: unknown) => admin(rig, "PATCH", `/admin/v1/comercios/${codigo}`, body)

/** A live collection of `monto` Bs, paid through the bank simulator. */
const collectLive = async (key: string, monto: number) => {
  const p = await payer(rig)
  const body = tokenBody(p, monto)
  const token = await post(key, "/cobrar/token", body)
  expect(token.body.estado).toBe("ACEPTADA")
  return (await post(key, "/cobrar", { ...body, otp: await codeFor(rig, p) })).body
}

beforeAll(async () => {
  rig = await startDirect()
})
afterAll(() => rig.close())

describe("receive caps", () => {
  it("a daily cap in VES refuses the code with 409 tope_diario_excedido, tope and usado; a code already requested still collects", async () => {
    const m = await merchant(rig)
    expect((await patch(m.codigo, { tope_diario: { monto: 100, moneda: "VES" } })).status).toBe(200)
    expect((await collectLive(m.live, 80)).estado).toBe("LIQUIDADA")
    const p = await payer(rig)
    const pending = tokenBody(p, 15)
    expect((await post(m.live, "/cobrar/token", pending)).body.estado).toBe("ACEPTADA")
    const codigos = (await counters(rig)).codigos_emitidos
    const refused = await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 30))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ error: "tope_diario_excedido", tope: 100, usado: 80 })
    expect(typeof refused.body.motivo).toBe("string")
    expect(refused.body).not.toHaveProperty("tope_usd")
    expect((await counters(rig)).codigos_emitidos).toBe(codigos)
    // Another collection fills the cap; the code requested before is not stopped.
    expect((await collectLive(m.live, 5)).estado).toBe("LIQUIDADA")
    const late = await post(m.live, "/cobrar", { ...pending, otp: await codeFor(rig, p) })
    expect(late.body.estado).toBe("LIQUIDADA")
    // Caps are counted per mode: test mode has used nothing.
    expect((await post(m.test, "/cobrar/token", tokenBody(p, 30))).body.estado).toBe("ACEPTADA")
  })

  it("a direct collection still at the bank counts against the cap on the payment page too", async () => {
    const m = await merchant(rig)
    expect((await patch(m.codigo, { tope_diario: { monto: 100, moneda: "VES" } })).status).toBe(200)
    const p = await payer(rig)
    const body = tokenBody(p, 80)
    expect((await post(m.live, "/cobrar/token", body)).body.estado).toBe("ACEPTADA")
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "latencia", ms: 1_500, veces: 1 })
    const collecting = post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })
    await new Promise((r) => setTimeout(r, 400))

    const link = await post(m.live, "/links", { monto: 30, concepto: "Pedido" })
    const page = await openPage(rig.server.url, link.body.id)
    const refused = await page.post("/codigo", {
      banco: "0102",
      tipo_doc: "V",
      identificacion: "12345678",
      telefono: "04141234567"
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("tope_diario_excedido")
    // Past the server's bank timeout the answer is unknown; the reconciler then finds the debit.
    const answered = await collecting
    expect(["DESCONOCIDA", "LIQUIDADA"]).toContain(answered.body.estado)
    expect((await stored(rig, answered.body.id, "LIQUIDADA")).estado).toBe("LIQUIDADA")
  })

  it("a total cap in USD is converted at the BCV rate and reported with topes_moneda, tope_usd and tasa_bcv", async () => {
    const m = await merchant(rig)
    expect((await admin(rig, "PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 40 })).status).toBe(200)
    await patch(m.codigo, { tope_acumulado: { monto: 5, moneda: "USD" } })
    expect((await collectLive(m.live, 150)).estado).toBe("LIQUIDADA")
    const refused = await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 60))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      error: "tope_acumulado_excedido",
      tope: 200,
      usado: 150,
      topes_moneda: "USD",
      tope_usd: 5,
      tasa_bcv: 40
    })
    expect((await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 50))).body.estado).toBe(
      "ACEPTADA"
    )
  })

  it("new accounts keep the caps of US$ 300 a day on live money until an operator reviews them; approval is not review", async () => {
    await admin(rig, "PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 40 })
    const fresh = await merchant(rig, { reviewed: false })
    const refused = await post(fresh.live, "/cobrar/token", tokenBody(await payer(rig), 12_000.01))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      error: "tope_diario_excedido",
      tope: 12_000,
      tope_usd: 300,
      tasa_bcv: 40
    })
    expect((await post(fresh.live, "/cobrar/token", tokenBody(await payer(rig), 12_000))).body.estado).toBe(
      "ACEPTADA"
    )
    // Test money is not live money: only the merchant's own limits apply there.
    expect(
      (await post(fresh.test, "/cobrar/token", tokenBody(await payer(rig), 12_000.01))).body.estado
    ).toBe("ACEPTADA")
    expect((await admin(rig, "POST", `/admin/v1/comercios/${fresh.codigo}/revisar`)).status).toBe(200)
    expect(
      (await post(fresh.live, "/cobrar/token", tokenBody(await payer(rig), 12_000.01))).body.estado
    ).toBe("ACEPTADA")
  })
})

describe("dollar limits fail closed without a usable BCV rate", () => {
  const setRate = async (ves_por_usd: number, hoursAgo = 0) => {
    await rig.db.query("delete from tasas_bcv")
    await rig.db.query(
      "insert into tasas_bcv (ves_por_usd, created_at) values ($1, now() - make_interval(hours => $2))",
      [ves_por_usd, hoursAgo]
    )
  }

  it("with a dollar cap and no rate (or one older than SWITCH_TASA_MAX_HORAS) the code request is 503 tasa_no_disponible and reaches no bank", async () => {
    const m = await merchant(rig)
    await patch(m.codigo, { tope_diario: { monto: 300, moneda: "USD" } })
    const fresh = await merchant(rig, { reviewed: false })
    const bolivares = await merchant(rig)
    await patch(bolivares.codigo, { tope_diario: { monto: 100_000, moneda: "VES" } })
    try {
      for (const state of ["none", "stale"] as const) {
        if (state === "none") await rig.db.query("delete from tasas_bcv")
        else await setRate(40, 49)
        const codigos = (await counters(rig)).solicitudes.codigo ?? 0
        for (const key of [m.live, m.test, fresh.live]) {
          const r = await post(key, "/cobrar/token", tokenBody(await payer(rig), 10))
          expect(r.status, `${state} ${key}`).toBe(503)
          expect(r.body.error).toBe("tasa_no_disponible")
          expect(typeof r.body.motivo).toBe("string")
        }
        // The payer's page says the same, before any bank is asked.
        const link = await post(m.live, "/links", { monto: 10, concepto: "Pedido" })
        const page = await openPage(rig.server.url, link.body.id)
        const p = await payer(rig)
        const code = await page.post("/codigo", {
          banco: p.banco,
          tipo_doc: "V",
          identificacion: "12345678",
          telefono: p.valor
        })
        expect(code.status).toBe(503)
        expect(code.body).toMatchObject({ error: "tasa_no_disponible" })
        expect((await counters(rig)).solicitudes.codigo ?? 0).toBe(codigos)
        // Limits in bolivars need no rate.
        expect(
          (await post(bolivares.live, "/cobrar/token", tokenBody(await payer(rig), 10))).body.estado
        ).toBe("ACEPTADA")
      }
      // A rate younger than the limit lets the charges through again.
      await setRate(40, 47)
      expect((await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 10))).body.estado).toBe(
        "ACEPTADA"
      )
    } finally {
      await setRate(40)
    }
  })

  it("a code already requested is not debited once the rate goes stale under a dollar limit", async () => {
    await setRate(40)
    const m = await merchant(rig)
    await patch(m.codigo, { monto_max: { monto: 100, moneda: "USD" } })
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 10)
    expect((await post(m.live, "/cobrar/token", body)).body.estado).toBe("ACEPTADA")
    await setRate(40, 49)
    try {
      const before = await counters(rig)
      const r = await post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })
      expect(r.status).toBe(503)
      expect(r.body.error).toBe("tasa_no_disponible")
      expect((await counters(rig)).debitos_aplicados).toBe(before.debitos_aplicados)
      expect(await balance(rig, p.banco, p.valor)).toBe(50_000)
    } finally {
      await setRate(40)
    }
  })
})

describe("per-charge limits", () => {
  it("below the minimum is MONTO_INVALIDO and above the maximum EXCEDE_LIMITE, with no code and no debit", async () => {
    const m = await merchant(rig)
    await patch(m.codigo, {
      monto_min: { monto: 10, moneda: "VES" },
      monto_max: { monto: 100, moneda: "VES" }
    })
    const before = await counters(rig)
    const low = await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 5))
    expect(low.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "MONTO_INVALIDO" })
    const high = await post(m.live, "/cobrar/token", tokenBody(await payer(rig), 150))
    expect(high.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "EXCEDE_LIMITE" })
    const p = await payer(rig, 50_000)
    const direct = await post(m.live, "/cobrar", { ...tokenBody(p, 150), otp: "12345678" })
    expect(direct.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "EXCEDE_LIMITE" })
    const after = await counters(rig)
    expect(after.solicitudes.codigo ?? 0).toBe(before.solicitudes.codigo ?? 0)
    expect(after.solicitudes.debito ?? 0).toBe(before.solicitudes.debito ?? 0)
    expect(await balance(rig, p.banco, p.valor)).toBe(50_000)
    // In test mode too, counted apart from live.
    const lowBody = tokenBody(p, 5)
    const testLow = await post(m.test, "/cobrar/token", lowBody)
    expect(testLow.body.motivo_rechazo).toBe("MONTO_INVALIDO")
    // Each refusal is a rejected operation like any other: one transaccion.rechazada, in its
    // mode, and a repeat of the key answers the same without another notice.
    for (const refused of [low, high, direct, testLow])
      expect(await notices(rig, refused.body.id)).toEqual({ "transaccion.rechazada": 1 })
    expect((await post(m.test, "/cobrar/token", lowBody)).body).toEqual(testLow.body)
    expect(await notices(rig, testLow.body.id)).toEqual({ "transaccion.rechazada": 1 })
    const modes = await rig.db.query("select mode from eventos where data->>'id' = any($1)", [
      [low.body.id, testLow.body.id]
    ])
    expect(modes.rows.map((r) => r.mode).sort()).toEqual(["live", "test"])
  })

  it("the per-day maximum rejects the debit that would pass it, without debiting", async () => {
    const m = await merchant(rig)
    await patch(m.codigo, { max_diario: { monto: 100, moneda: "VES" } })
    expect((await collectLive(m.live, 70)).estado).toBe("LIQUIDADA")
    const p = await payer(rig, 50_000)
    const body = tokenBody(p, 40)
    const token = await post(m.live, "/cobrar/token", body)
    expect(token.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "EXCEDE_LIMITE" })
    expect(await balance(rig, p.banco, p.valor)).toBe(50_000)
  })
})
