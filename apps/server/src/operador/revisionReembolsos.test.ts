/**
 * The console's actions on a portal refund the bank answered unclearly (issue 33), against the
 * real server and Postgres with a scripted live bank: "consultar al banco ahora", "marcar pagado"
 * with the bank's reference (`link.devuelto` once, in the same transaction), "cerrar sin pagar"
 * with a note (the amount refundable again); `tesoreria` only, CSRF, each audited with before and
 * after, a resolved item refused `409`, and the refund's order never sent again. The reconciler
 * waits an hour here, so only the operator asks the bank.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type TestServer } from "../../test/harness.js"
import { answer, refundBank, refundFixture, type Session, startOnBank } from "../../test/refundFixture.js"

const { bank, gateway } = refundBank()

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startOnBank(gateway, {
    webhookAllowPrivate: true,
    apiPorMinuto: 100_000,
    cierreBancario: false,
    // The reconciler out of the way: only the operator asks the bank about a refund.
    conciliarSegundos: 3600,
    // Below the four-eyes threshold: one operator resolves (cuatroOjos.test.ts covers above it).
    cuatroOjosDesde: 1_000_000
  })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
}, 60_000)
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const { liveMerchant, paidLink, refund, operador, devueltos } = refundFixture(
  () => server,
  bank,
  () => db
)

const base = (id: string) => `/admin/v1/operador/revision/reembolsos/${id}`

/** A refund of `monto` the bank answered `DESCONOCIDA`: in the queue, never resent. */
const unclearRefund = async (s: Session, linkId: string, monto: number, unclear = answer("DESCONOCIDA")) => {
  bank.refund = unclear
  try {
    const r = await refund(s, linkId, { monto })
    expect(r.status).toBe(201)
    expect(r.body.estado).toBe(unclear.estado)
    return r.body.id as string
  } finally {
    bank.refund = answer("LIQUIDADA", "DEV0001")
  }
}

const audit = async (id: string) =>
  (
    await db.query(
      "select accion, antes, despues, nota from auditoria where objeto_tipo = 'reembolso' and objeto_id = $1 order by id",
      [id]
    )
  ).rows

const inQueue = async (headers: Record<string, string>, id: string) => {
  const queue = await call(server.url, "GET", "/admin/v1/operador/revision", { headers })
  expect(queue.status).toBe(200)
  return queue.body.data.some((i: { tipo: string; id: string }) => i.tipo === "reembolso" && i.id === id)
}

describe("the console's actions on an unclear portal refund", () => {
  it("consultar al banco ahora: the bank's answer is kept, a clear one recorded with link.devuelto once; then 409", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 40)
    const id = await unclearRefund(s, linkId, 15)
    const tesoreria = await operador("tesoreria")
    expect(await inQueue(tesoreria, id)).toBe(true)
    const sent = bank.refunds.length
    // Still no answer: kept in the history, nothing changes.
    const asked = await call(server.url, "POST", `${base(id)}/consultar`, { headers: tesoreria, body: {} })
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    expect(asked.body).toMatchObject({ id, estado: "DESCONOCIDA", banco: { estado: "DESCONOCIDA" } })
    expect(await devueltos(linkId)).toEqual([])
    bank.query = answer("LIQUIDADA", "DEV0777")
    try {
      const paid = await call(server.url, "POST", `${base(id)}/consultar`, { headers: tesoreria, body: {} })
      expect(paid.status).toBe(200)
      expect(paid.body).toMatchObject({ estado: "LIQUIDADA", referencia_banco: "DEV0777", monto: 15 })
    } finally {
      bank.query = answer("DESCONOCIDA")
    }
    expect(await devueltos(linkId)).toEqual([
      { link_id: linkId, monto: 15, monto_devuelto: 15, mode: "live" }
    ])
    const history = await call(
      server.url,
      "GET",
      `/admin/v1/operador/revision/respuestas?objeto_tipo=transaccion&objeto_id=${id}`,
      { headers: tesoreria }
    )
    expect(history.body.data.map((r: { estado: string; origen: string }) => [r.estado, r.origen])).toEqual([
      ["LIQUIDADA", "operador"],
      ["DESCONOCIDA", "operador"]
    ])
    const rows = await audit(id)
    expect(rows.map((r) => r.accion)).toEqual(["reembolso.consultar_banco", "reembolso.consultar_banco"])
    expect(rows[1]).toMatchObject({ antes: { estado: "DESCONOCIDA" }, despues: { estado: "LIQUIDADA" } })
    const again = await call(server.url, "POST", `${base(id)}/cerrar`, {
      headers: tesoreria,
      body: { nota: "ya estaba pagado" }
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("no_en_revision")
    expect(await inQueue(tesoreria, id)).toBe(false)
    expect(bank.refunds.length).toBe(sent)
    expect(await devueltos(linkId)).toHaveLength(1)
  })

  it("marcar pagado with the bank's reference: LIQUIDADA and link.devuelto with the running total, once; tesoreria only, with CSRF", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 40)
    expect((await refund(s, linkId, { monto: 5 })).status).toBe(201)
    const id = await unclearRefund(s, linkId, 10)
    const sent = bank.refunds.length
    for (const rol of ["soporte", "riesgo"]) {
      const other = await operador(rol)
      const refused = await call(server.url, "POST", `${base(id)}/marcar-pagada`, {
        headers: other,
        body: { referencia_banco: "DEV1234" }
      })
      expect(refused.status).toBe(403)
    }
    const tesoreria = await operador("tesoreria")
    const noCsrf = await call(server.url, "POST", `${base(id)}/marcar-pagada`, {
      headers: { cookie: tesoreria.cookie },
      body: { referencia_banco: "DEV1234" }
    })
    expect(noCsrf.status).toBe(403)
    const bad = await call(server.url, "POST", `${base(id)}/marcar-pagada`, {
      headers: tesoreria,
      body: { referencia_banco: "x" }
    })
    expect(bad.status).toBe(400)
    expect(await audit(id)).toEqual([])
    const marked = await call(server.url, "POST", `${base(id)}/marcar-pagada`, {
      headers: tesoreria,
      body: { referencia_banco: "DEV1234", nota: "Confirmado por teléfono con el banco" }
    })
    expect(marked.status, JSON.stringify(marked.body)).toBe(200)
    expect(marked.body).toMatchObject({ id, estado: "LIQUIDADA", referencia_banco: "DEV1234", monto: 10 })
    expect(await devueltos(linkId)).toEqual([
      { link_id: linkId, monto: 5, monto_devuelto: 5, mode: "live" },
      { link_id: linkId, monto: 10, monto_devuelto: 15, mode: "live" }
    ])
    expect(await audit(id)).toEqual([
      {
        accion: "reembolso.marcar_pagado",
        antes: expect.objectContaining({ estado: "DESCONOCIDA", referencia_banco: null }),
        despues: expect.objectContaining({ estado: "LIQUIDADA", referencia_banco: "DEV1234" }),
        nota: "Confirmado por teléfono con el banco"
      }
    ])
    const twice = await call(server.url, "POST", `${base(id)}/marcar-pagada`, {
      headers: tesoreria,
      body: { referencia_banco: "DEV9999" }
    })
    expect(twice.status).toBe(409)
    expect(twice.body.error).toBe("no_en_revision")
    expect(await devueltos(linkId)).toHaveLength(2)
    expect(bank.refunds.length).toBe(sent)
    const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(list.body).toMatchObject({ monto_devuelto: 15, disponible: 25 })
    expect(
      (await call(server.url, "POST", `${base(randomUUID())}/consultar`, { headers: tesoreria })).status
    ).toBe(404)
  })

  it("cerrar sin pagar with a note: no money moved, the amount refundable again; a technical rejection's review closes too", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 40)
    const id = await unclearRefund(s, linkId, 10)
    const tesoreria = await operador("tesoreria")
    expect((await refund(s, linkId, { monto: 1 })).body.error).toBe("reintegro_intento_ambiguo")
    const noNote = await call(server.url, "POST", `${base(id)}/cerrar`, { headers: tesoreria, body: {} })
    expect(noNote.status).toBe(400)
    // A note Postgres cannot store (U+0000) is 400, not a 500 at the audit row.
    const nul = await call(server.url, "POST", `${base(id)}/cerrar`, {
      headers: tesoreria,
      body: { nota: "nota \u0000 nula" }
    })
    expect(nul.status).toBe(400)
    expect(nul.body.error).toBe("validation")
    const closed = await call(server.url, "POST", `${base(id)}/cerrar`, {
      headers: tesoreria,
      body: { nota: "El banco confirma que no salió el dinero" }
    })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body).toMatchObject({ id, estado: "RECHAZADA", revision_cerrada: true })
    expect(await audit(id)).toEqual([
      {
        accion: "reembolso.cerrar_sin_pagar",
        antes: expect.objectContaining({ estado: "DESCONOCIDA" }),
        despues: expect.objectContaining({ estado: "RECHAZADA", revision_cerrada: true }),
        nota: "El banco confirma que no salió el dinero"
      }
    ])
    expect(await devueltos(linkId)).toEqual([])
    expect(await inQueue(tesoreria, id)).toBe(false)
    const twice = await call(server.url, "POST", `${base(id)}/cerrar`, {
      headers: tesoreria,
      body: { nota: "otra vez" }
    })
    expect(twice.status).toBe(409)
    const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(list.body).toMatchObject({ monto_devuelto: 0, disponible: 40 })

    // The bank rejected one for a technical reason: unclear, so listed; closing it keeps RECHAZADA.
    const technical = await unclearRefund(s, linkId, 10, {
      ...answer("RECHAZADA"),
      motivo_rechazo: "RECHAZO_TECNICO"
    })
    expect(await inQueue(tesoreria, technical)).toBe(true)
    const pay = await call(server.url, "POST", `${base(technical)}/marcar-pagada`, {
      headers: tesoreria,
      body: { referencia_banco: "DEV1234" }
    })
    expect(pay.status).toBe(409)
    expect(pay.body.error).toBe("operacion_final")
    const closedTechnical = await call(server.url, "POST", `${base(technical)}/cerrar`, {
      headers: tesoreria,
      body: { nota: "Rechazo técnico: no salió el dinero" }
    })
    expect(closedTechnical.status).toBe(200)
    expect(closedTechnical.body).toMatchObject({ estado: "RECHAZADA", revision_cerrada: true })
    expect(await inQueue(tesoreria, technical)).toBe(false)
    const whole = await refund(s, linkId, {})
    expect(whole.status, JSON.stringify(whole.body)).toBe(201)
    expect(whole.body).toMatchObject({ monto: 40, estado: "LIQUIDADA" })
  })
})
