/**
 * Refunds and reversals: every refund error code, the retry_nonce rule, charges of links
 * (settled to the merchant, split paid), a charge returned at most once by either, and reversal
 * NO_SOPORTADO where the bank cannot.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  balance,
  call,
  codeFor,
  type DirectRig,
  merchant,
  notices,
  payer,
  simCall,
  startDirect,
  tokenBody
} from "../../test/directHarness.js"

let rig: DirectRig
let m: Awaited<ReturnType<typeof merchant>>
const post = (key: string, path: string, body: unknown) =>
  call(rig.server.url, "POST", `/switch/v1${path}`, { key, body })

/** A collection paid with `otp` in test mode (12345678 settles, 22222222 stays ACEPTADA for 30 s). */
const testCharge = async (otp = "12345678", key = m.test) => {
  const body = tokenBody(await payer(rig), 20)
  await post(key, "/cobrar/token", body)
  return (await post(key, "/cobrar", { ...body, otp })).body
}

const liveCharge = async (p: Awaited<ReturnType<typeof payer>>, monto = 100) => {
  const body = tokenBody(p, monto)
  await post(m.live, "/cobrar/token", body)
  return (await post(m.live, "/cobrar", { ...body, otp: await codeFor(rig, p) })).body
}

beforeAll(async () => {
  rig = await startDirect()
  m = await merchant(rig)
})
afterAll(() => rig.close())

describe("reintegro", () => {
  it("a live merchant key gets 403 reintegro_no_habilitado", async () => {
    const charge = await liveCharge(await payer(rig))
    const r = await post(m.live, "/reintegro", { id: charge.id })
    expect(r.status).toBe(403)
    expect(r.body.error).toBe("reintegro_no_habilitado")
  })

  it("refunds a confirmed charge once; a repeat answers the same; a new nonce after payment is reintegro_ya_pagado", async () => {
    const charge = await testCharge()
    const first = await post(m.test, "/reintegro", { id: charge.id, motivo: "Devolución" })
    expect(first.body).toMatchObject({ estado: "LIQUIDADA", intentos: 1 })
    expect((await post(m.test, "/reintegro", { id: charge.id })).body).toEqual(first.body)
    const retry = await post(m.test, "/reintegro", { id: charge.id, retry_nonce: "n1" })
    expect(retry.status).toBe(409)
    expect(retry.body.error).toBe("reintegro_ya_pagado")
    expect(await notices(rig, first.body.id)).toEqual({
      "transaccion.aprobada": 1,
      "transaccion.liquidada": 1
    })
  })

  it("retry_nonce with no earlier attempt is reintegro_sin_intento_previo", async () => {
    const charge = await testCharge()
    const r = await post(m.test, "/reintegro", { id: charge.id, retry_nonce: "n1" })
    expect(r.status).toBe(409)
    expect(r.body.error).toBe("reintegro_sin_intento_previo")
  })

  it("a charge the bank has not confirmed is cobro_no_confirmado_banco", async () => {
    const charge = await testCharge("22222222")
    expect(charge.estado).toBe("ACEPTADA")
    const r = await post(m.test, "/reintegro", { id: charge.id })
    expect(r.status).toBe(409)
    expect(r.body.error).toBe("cobro_no_confirmado_banco")
  })

  it("an unknown id, another merchant's, or the other mode's is 404", async () => {
    expect((await post(m.test, "/reintegro", { id: randomUUID() })).status).toBe(404)
    const other = await merchant(rig)
    const charge = await testCharge()
    expect((await post(other.test, "/reintegro", { id: charge.id })).status).toBe(404)
    const live = await liveCharge(await payer(rig))
    expect((await post(m.test, "/reintegro", { id: live.id })).status).toBe(404)
    expect((await post(m.test, "/reintegro", { id: charge.id, extra: true })).body.error).toBe("VALIDATION")
  })

  it("retry_nonce retries only what the bank rejected without moving money", async () => {
    const charge = await testCharge()
    const first = await post(m.test, "/reintegro", { id: charge.id })
    // The bank's answer is made a clean rejection, then an unclear one, then a running attempt.
    await rig.db.query(
      "update transacciones set estado = 'RECHAZADA', motivo_rechazo = 'SALDO_INSUFICIENTE' where id = $1",
      [first.body.id]
    )
    const second = await post(m.test, "/reintegro", { id: charge.id, retry_nonce: "n2" })
    expect(second.body).toMatchObject({ estado: "LIQUIDADA", intentos: 2 })
    expect(second.body.id).not.toBe(first.body.id)
    await rig.db.query(
      "update transacciones set estado = 'RECHAZADA', motivo_rechazo = 'RECHAZO_TECNICO' where id = $1",
      [second.body.id]
    )
    const ambiguous = await post(m.test, "/reintegro", { id: charge.id, retry_nonce: "n3" })
    expect(ambiguous.body.error).toBe("reintegro_intento_ambiguo")
    await rig.db.query(
      "update transacciones set fase = 'enviando', estado = 'DESCONOCIDA', proxima_consulta = now() + interval '1 hour' where id = $1",
      [second.body.id]
    )
    const running = await post(m.test, "/reintegro", { id: charge.id, retry_nonce: "n4" })
    expect(running.body.error).toBe("reintegro_en_curso")
  })

  it("a link payment already settled to the merchant is cobro_ya_liquidado_al_comercio; one whose split paid is cobro_con_split_repartido (refund and reversal)", async () => {
    const other = await merchant(rig)
    await admin(rig, "PATCH", `/admin/v1/comercios/${other.codigo}`, {
      liquidacion_inmediata: true,
      cuenta_liquidacion: {
        tipo: "cuenta",
        valor: "01050194651194079423",
        banco: "0105",
        identificacion: "J-07013380-5",
        nombre: "Comercio"
      }
    })
    const link = await call(rig.server.url, "POST", "/switch/v1/links", {
      key: other.test,
      body: { monto: 30, concepto: "Link" }
    })
    const paid = await call(rig.server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: other.test,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
    const txn = (await call(rig.server.url, "GET", `/switch/v1/links/${link.body.id}`, { key: other.test }))
      .body.txn_id
    const settled = await post(other.test, "/reintegro", { id: txn })
    expect(settled.status).toBe(409)
    expect(settled.body.error).toBe("cobro_ya_liquidado_al_comercio")
    const reversal = await post(other.test, "/reverso", { idempotency_key: randomUUID(), id: txn })
    expect(reversal.status).toBe(409)
    expect(reversal.body.error).toBe("cobro_ya_liquidado_al_comercio")
    await rig.db.query(
      `update links set reparto = '{"estado":"pendiente","monto_repartido":500,"beneficiarios":[]}' where id = $1`,
      [link.body.id]
    )
    const split = await post(other.test, "/reintegro", { id: txn })
    expect(split.body.error).toBe("cobro_con_split_repartido")
    const splitReversal = await post(other.test, "/reverso", { idempotency_key: randomUUID(), id: txn })
    expect(splitReversal.body.error).toBe("cobro_con_split_repartido")
  })

  it("a link payment whose split paid nobody yet is refunded, and its split stops and goes to review in that transaction", async () => {
    const other = await merchant(rig)
    const link = await call(rig.server.url, "POST", "/switch/v1/links", {
      key: other.test,
      body: { monto: 30, concepto: "Link" }
    })
    await call(rig.server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: other.test,
      body: { resultado: "pagado" }
    })
    const txn = (await call(rig.server.url, "GET", `/switch/v1/links/${link.body.id}`, { key: other.test }))
      .body.txn_id
    const part = {
      banco: "0102",
      tipo: "cuenta",
      ultimos4: "0001",
      nombre: "Beneficiaria",
      porcentaje: null,
      monto_fijo: 1000,
      monto: 1000,
      estado: "pendiente",
      referencia_bancaria: null,
      liquidacion_txn_id: null
    }
    await rig.db.query("update links set reparto = $2 where id = $1", [
      link.body.id,
      JSON.stringify({
        estado: "pendiente",
        moneda: "VES",
        monto_comercio: 1900,
        monto_repartido: 0,
        beneficiarios: [part]
      })
    ])
    const refund = await post(other.test, "/reintegro", { id: txn })
    expect(refund.status, JSON.stringify(refund.body)).toBe(200)
    expect(refund.body.estado).toBe("LIQUIDADA")
    const [row] = (
      await rig.db.query(
        "select l.reparto, d.transaccion_id::text as held from links l left join repartos_detenidos d on d.link_id = l.id where l.id = $1",
        [link.body.id]
      )
    ).rows
    expect(row.held).toBe(refund.body.id)
    expect(row.reparto).toMatchObject({ estado: "en_revision", beneficiarios: [{ estado: "en_revision" }] })
  })
})

describe("reverso", () => {
  it("reverses a confirmed live charge and gives the payer the money back, once", async () => {
    const p = await payer(rig, 50_000)
    const charge = await liveCharge(p)
    expect(await balance(rig, p.banco, p.valor)).toBe(40_000)
    const body = { idempotency_key: randomUUID(), id: charge.id, motivo: "Error de caja" }
    const r = await post(m.live, "/reverso", body)
    expect(r.body).toMatchObject({ estado: "LIQUIDADA", motivo_rechazo: null })
    expect((await post(m.live, "/reverso", body)).body).toEqual(r.body)
    expect(await balance(rig, p.banco, p.valor)).toBe(50_000)
  })

  it("returns a charge's money at most once, by refund or reversal, even when they race", async () => {
    const reversed = await testCharge()
    const reverso = await post(m.test, "/reverso", { idempotency_key: randomUUID(), id: reversed.id })
    expect(reverso.body.estado).toBe("LIQUIDADA")
    for (const again of [
      await post(m.test, "/reverso", { idempotency_key: randomUUID(), id: reversed.id }),
      await post(m.test, "/reintegro", { id: reversed.id })
    ]) {
      expect(again.status).toBe(409)
      expect(again.body.error).toBe("reintegro_ya_pagado")
    }

    const refunded = await testCharge()
    expect((await post(m.test, "/reintegro", { id: refunded.id, monto: 5 })).body.estado).toBe("LIQUIDADA")
    const after = await post(m.test, "/reverso", { idempotency_key: randomUUID(), id: refunded.id })
    expect(after.status).toBe(409)
    expect(after.body.error).toBe("reintegro_ya_pagado")

    // One refund and five reversals at once: one moves the money, every other is a 409.
    const raced = await testCharge()
    const answers = await Promise.all([
      post(m.test, "/reintegro", { id: raced.id }),
      ...Array.from({ length: 5 }, () =>
        post(m.test, "/reverso", { idempotency_key: randomUUID(), id: raced.id })
      )
    ])
    expect(answers.filter((a) => a.status === 200 && a.body.estado === "LIQUIDADA")).toHaveLength(1)
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status).toBe(409)
      expect(["reintegro_en_curso", "reintegro_ya_pagado"]).toContain(a.body.error)
    }
    const moved = await rig.db.query(
      "select count(*)::int as n from transacciones where original_id = $1 and estado = 'LIQUIDADA'",
      [raced.id]
    )
    expect(moved.rows[0].n).toBe(1)
  })

  it("a reversal the bank refused cleanly leaves the refund open", async () => {
    const charge = await testCharge()
    const first = await post(m.test, "/reverso", { idempotency_key: randomUUID(), id: charge.id })
    await rig.db.query(
      "update transacciones set estado = 'RECHAZADA', motivo_rechazo = 'NO_SOPORTADO' where id = $1",
      [first.body.id]
    )
    expect((await post(m.test, "/reintegro", { id: charge.id })).body.estado).toBe("LIQUIDADA")
  })

  it("is RECHAZADA NO_SOPORTADO where the payer's bank cannot reverse", async () => {
    const p = await payer(rig, 50_000, "0175")
    const charge = await liveCharge(p)
    expect(charge.estado).toBe("LIQUIDADA")
    const r = await post(m.live, "/reverso", { idempotency_key: randomUUID(), id: charge.id })
    expect(r.body).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "NO_SOPORTADO" })
    expect(await balance(rig, p.banco, p.valor)).toBe(40_000)
    expect((await simCall(rig, "GET", "/admin/estado")).body.contadores.reversos_aplicados).toBe(1)
  })
})
