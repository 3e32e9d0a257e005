/**
 * Refunds of a paid link from the portal (issue 33) against the real server and Postgres, with a
 * scripted live bank: full and partial refunds with `link.devuelto` (signed, to a real receiver),
 * the idempotency key, each `409` of `/reintegro`'s rules, an unclear answer in the operators'
 * queue and never resent, and who may call (a key, another role, no CSRF token, another merchant).
 */
import { createHmac, randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beneficiary } from "../../test/accounts.js"
import { call, type TestServer } from "../../test/harness.js"
import {
  adminHeaders,
  answer,
  PASSWORD,
  refundBank,
  refundFixture,
  startOnBank
} from "../../test/refundFixture.js"
import { type Receiver, startReceiver } from "../../test/webhooksReceiver.js"
import { hashPassword } from "../platform/Passwords.js"
import { totpCode, totpStep } from "../platform/Totp.js"

const { bank, gateway } = refundBank()

let server: TestServer
let db: Pg.Client
let receiver: Receiver

beforeAll(async () => {
  server = await startOnBank(gateway, {
    webhookAllowPrivate: true,
    apiPorMinuto: 100_000,
    cierreBancario: false,
    // One tesoreria operator pays a split part at once (no four eyes), as the race below needs.
    cuatroOjosDesde: 1_000_000
  })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  receiver = await startReceiver()
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await db?.end()
  await server?.close()
})

const { signIn, pilot, liveMerchant, paidLink, refund, operador, devueltos } = refundFixture(
  () => server,
  bank,
  () => db
)

describe("refunds from the portal", () => {
  it("a full refund of a live link reaches the payer and sends link.devuelto, signed", async () => {
    const s = await liveMerchant()
    const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
      headers: s.headers,
      body: { url: `${receiver.url}?${s.codigo}`, eventos: ["link.devuelto"] }
    })
    expect(hook.status).toBe(201)
    const patched = await call(server.url, "PATCH", `/admin/v1/comercios/${s.codigo}`, {
      headers: { "x-admin-token": "admin-de-prueba" },
      body: { propina_max_pct: 20 }
    })
    expect(patched.status).toBe(200)
    const linkId = await paidLink(s, 50, "5,00")
    const before = bank.refunds.length
    const r = await refund(s, linkId, {})
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      link_id: linkId,
      monto: 55,
      estado: "LIQUIDADA",
      en_curso: false,
      motivo: "Producto devuelto"
    })
    expect(bank.refunds.length).toBe(before + 1)
    expect(bank.refunds.at(-1)).toMatchObject({ monto: 5500, operacionId: `${r.body.id}:1` })
    // The order names the debit that paid the link.
    const [attempt] = (
      await db.query("select id from intentos_pago where link_id = $1 and estado = 'LIQUIDADA'", [linkId])
    ).rows
    expect(bank.refunds.at(-1)?.originalId).toBe(attempt.id)
    expect(await devueltos(linkId)).toEqual([
      { link_id: linkId, monto: 55, monto_devuelto: 55, mode: "live" }
    ])
    const until = Date.now() + 10_000
    let got = receiver.received.find((m) => m.body.includes(linkId))
    while (got === undefined && Date.now() < until) {
      await new Promise((done) => setTimeout(done, 100))
      got = receiver.received.find((m) => m.body.includes(linkId))
    }
    expect(got).toBeDefined()
    const expected = `sha256=${createHmac("sha256", hook.body.secret)
      .update(got?.body ?? "")
      .digest("hex")}`
    expect(got?.headers["x-service-signature"]).toBe(expected)
    expect(JSON.parse(got?.body ?? "{}")).toMatchObject({
      evento: "link.devuelto",
      data: { monto: 55, monto_devuelto: 55 }
    })
    const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(list.body).toMatchObject({ confirmado: true, monto_pagado: 55, monto_devuelto: 55, disponible: 0 })
    expect(list.body.data).toHaveLength(1)
    const again = await refund(s, linkId, { monto: 1 })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("reintegro_ya_pagado")
    const historial = await call(server.url, "GET", `/switch/v1/links/${linkId}/historial`, {
      headers: s.headers
    })
    expect(historial.body.entradas.some((e: { evento: string | null }) => e.evento === "link.devuelto")).toBe(
      true
    )
    expect(historial.body.entradas).toContainEqual(
      expect.objectContaining({ tipo: "devuelto", estado: "LIQUIDADA", monto: 55 })
    )
  })

  it("partial refunds up to what was paid, each with the running total; more is 400", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 50)
    const first = await refund(s, linkId, { monto: 30.25 })
    expect(first.status).toBe(201)
    expect(first.body.monto).toBe(30.25)
    const over = await refund(s, linkId, { monto: 19.76 })
    expect(over.status).toBe(400)
    expect(over.body.detail.fieldErrors.monto[0]).toContain("Bs 19,75")
    const second = await refund(s, linkId, { monto: 19.75 })
    expect(second.status).toBe(201)
    expect(await devueltos(linkId)).toEqual([
      { link_id: linkId, monto: 30.25, monto_devuelto: 30.25, mode: "live" },
      { link_id: linkId, monto: 19.75, monto_devuelto: 50, mode: "live" }
    ])
    const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(list.body).toMatchObject({ monto_pagado: 50, monto_devuelto: 50, disponible: 0 })
  })

  it("the same idempotency key answers the same refund without another bank order", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 20)
    const key = randomUUID()
    const a = await refund(s, linkId, { monto: 5, idempotency_key: key })
    const before = bank.refunds.length
    const b = await refund(s, linkId, { monto: 5, idempotency_key: key })
    expect(b.body.id).toBe(a.body.id)
    expect(bank.refunds.length).toBe(before)
    const other = await paidLink(s, 20)
    const elsewhere = await refund(s, other, { monto: 5, idempotency_key: key })
    expect(elsewhere.status).toBe(409)
    expect(elsewhere.body.error).toBe("idempotency_key_en_uso")
  })

  it("an unclear bank answer goes to the operators' queue and blocks another refund (never resent)", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 40)
    bank.refund = answer("DESCONOCIDA")
    try {
      const r = await refund(s, linkId, { monto: 10 })
      expect(r.status).toBe(201)
      expect(r.body.estado).toBe("DESCONOCIDA")
      const before = bank.refunds.length
      const next = await refund(s, linkId, { monto: 10 })
      expect(next.status).toBe(409)
      expect(next.body.error).toBe("reintegro_intento_ambiguo")
      expect(bank.refunds.length).toBe(before)
      expect(await devueltos(linkId)).toEqual([])
      const email = `soporte-${randomUUID().slice(0, 8)}@switch.test`
      const made = await call(server.url, "POST", "/admin/v1/operadores", {
        headers: { "x-admin-token": "admin-de-prueba" },
        body: { email, password: "una clave larga de soporte", rol: "soporte" }
      })
      const signed = await call(server.url, "POST", "/admin/v1/operador/sesion", {
        body: {
          email,
          password: "una clave larga de soporte",
          codigo: totpCode(made.body.totp_secret, totpStep(Date.now()))
        }
      })
      const cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const queue = await call(server.url, "GET", "/admin/v1/operador/revision", { headers: { cookie } })
      expect(queue.status).toBe(200)
      expect(queue.body.data).toContainEqual(
        expect.objectContaining({
          tipo: "reembolso",
          id: r.body.id,
          link_id: linkId,
          comercio: s.codigo,
          monto: 10
        })
      )
      // The reconciler asks the bank (never resends): once it says paid, link.devuelto and out of the queue.
      bank.query = answer("LIQUIDADA", "DEV0009")
      const until = Date.now() + 10_000
      while ((await devueltos(linkId)).length === 0 && Date.now() < until)
        await new Promise((done) => setTimeout(done, 100))
      expect(await devueltos(linkId)).toEqual([
        { link_id: linkId, monto: 10, monto_devuelto: 10, mode: "live" }
      ])
      expect(bank.refunds.length).toBe(before)
      const after = await call(server.url, "GET", "/admin/v1/operador/revision", { headers: { cookie } })
      expect(after.body.data.some((i: { id: string }) => i.id === r.body.id)).toBe(false)
      const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
        headers: s.headers
      })
      expect(list.body).toMatchObject({ monto_pagado: 40, monto_devuelto: 10, disponible: 30 })
    } finally {
      bank.refund = answer("LIQUIDADA", "DEV0001")
      bank.query = answer("DESCONOCIDA")
    }
  })

  it("a refund while another is at the bank is 409 reintegro_en_curso", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 40)
    bank.refundDelayMs = 1500
    try {
      const slow = refund(s, linkId, { monto: 10 })
      await new Promise((done) => setTimeout(done, 400))
      const racing = await refund(s, linkId, { monto: 10 })
      expect(racing.status).toBe(409)
      expect(racing.body.error).toBe("reintegro_en_curso")
      expect((await slow).status).toBe(201)
    } finally {
      bank.refundDelayMs = 0
    }
  })

  it("a charge the bank has not confirmed is 409 cobro_no_confirmado_banco", async () => {
    const s = await liveMerchant()
    bank.debit = answer("PENDIENTE")
    try {
      const linkId = await paidLink(s, 40)
      const r = await refund(s, linkId, {})
      expect(r.status).toBe(409)
      expect(r.body.error).toBe("cobro_no_confirmado_banco")
      const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
        headers: s.headers
      })
      expect(list.body).toEqual({
        link_id: linkId,
        habilitado: true,
        confirmado: false,
        monto_pagado: 40,
        monto_devuelto: 0,
        disponible: 0,
        data: []
      })
    } finally {
      bank.debit = answer("LIQUIDADA", "DEB0001")
    }
    const open = await call(server.url, "POST", "/switch/v1/links", {
      key: s.liveKey,
      body: { monto: 5, concepto: "Abierto" }
    })
    expect(open.status).toBe(201)
    expect((await refund(s, open.body.id, {})).body.error).toBe("cobro_no_confirmado_banco")
  })

  it("settled at once to the merchant, or a split that paid someone: 409 with SPEC's codes", async () => {
    const s = await liveMerchant()
    const settled = await paidLink(s, 40)
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto)
       select $1, comercio_id, mode, 'liquidacion', 'REVISION', id, monto from links where id = $2`,
      [randomUUID(), settled]
    )
    const a = await refund(s, settled, {})
    expect(a.status).toBe(409)
    expect(a.body.error).toBe("cobro_ya_liquidado_al_comercio")
    const split = await paidLink(s, 40)
    await db.query(
      `update links set reparto = '{"monto_repartido": 100, "beneficiarios": []}' where id = $1`,
      [split]
    )
    const b = await refund(s, split, {})
    expect(b.status).toBe(409)
    expect(b.body.error).toBe("cobro_con_split_repartido")
  })

  it("who may call: a key is 401 (a live key on /reintegro 403), another role 403, no CSRF 403, another merchant 404", async () => {
    const s = await liveMerchant()
    const linkId = await paidLink(s, 10)
    const body = { motivo: "Producto devuelto", idempotency_key: randomUUID() }
    const withKey = await call(server.url, "POST", `/switch/v1/links/${linkId}/reembolsos`, {
      key: s.liveKey,
      body
    })
    expect(withKey.status).toBe(401)
    const listWithKey = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      key: s.liveKey
    })
    expect(listWithKey.status).toBe(401)
    const reintegro = await call(server.url, "POST", "/switch/v1/reintegro", {
      key: s.liveKey,
      body: { id: randomUUID() }
    })
    expect(reintegro.status).toBe(403)
    expect(reintegro.body.error).toBe("reintegro_no_habilitado")
    const noCsrf = await call(server.url, "POST", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: { cookie: s.headers.cookie ?? "" },
      body
    })
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.body.error).toBe("csrf_invalido")
    const cajero = `cajero-${randomUUID().slice(0, 8)}@equipo.example`
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, 'cajero' from comercios where codigo = $4",
      [randomUUID(), cajero, await hashPassword(PASSWORD), s.codigo]
    )
    const cajeroHeaders = await signIn(cajero)
    const refused = await refund(s, linkId, {}, cajeroHeaders)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_no_permitido")
    const other = await liveMerchant()
    const foreign = await refund(other, linkId, {})
    expect(foreign.status).toBe(404)
    expect((await refund(s, "no-es-un-id", {})).status).toBe(404)
    const bad = await refund(s, linkId, { monto: -1 })
    expect(bad.status).toBe(400)
    expect((await refund(s, linkId, { motivo: "" })).status).toBe(400)
    expect(bank.refunds.some((o) => o.originalId === linkId)).toBe(false)
  })

  it("in test mode a session refunds a simulated payment through the sandbox, moving no money", async () => {
    const codigo = `t${randomUUID().slice(0, 8)}`
    const email = `${codigo}@dueno.example`
    const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: `Comercio ${codigo}`,
        identificacion: "J-07013380-5",
        email,
        password: PASSWORD
      }
    })
    const key = `${codigo}:${made.body.api_key}`
    await pilot(codigo, true)
    const headers = await signIn(email)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 12, concepto: "Prueba" }
    })
    expect(link.status).toBe(201)
    await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    const before = bank.refunds.length
    const r = await call(server.url, "POST", `/switch/v1/links/${link.body.id}/reembolsos`, {
      headers,
      body: { monto: 2, motivo: "Prueba", idempotency_key: randomUUID() }
    })
    expect(r.status).toBe(201)
    expect(r.body.estado).toBe("LIQUIDADA")
    expect(bank.refunds.length).toBe(before)
    expect(await devueltos(link.body.id)).toEqual([
      { link_id: link.body.id, monto: 2, monto_devuelto: 2, mode: "test" }
    ])
  })
})

describe("the refunds pilot (reembolsos_habilitado)", () => {
  it("off by default: POST is 403 reintegro_no_habilitado and changes nothing, GET says habilitado false", async () => {
    const s = await liveMerchant(false)
    const linkId = await paidLink(s, 30)
    const before = bank.refunds.length
    const key = randomUUID()
    const r = await refund(s, linkId, { monto: 5, idempotency_key: key })
    expect(r.status).toBe(403)
    expect(r.body.error).toBe("reintegro_no_habilitado")
    expect(r.body.detail).toContain("piloto")
    expect(bank.refunds.length).toBe(before)
    const rows = await db.query(
      "select count(*)::int as n from transacciones where operacion = 'devolucion' and detalle->>'link_id' = $1",
      [linkId]
    )
    expect(rows.rows[0].n).toBe(0)
    const list = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ habilitado: false, confirmado: true, monto_pagado: 30, disponible: 30 })
    // The same request once the pilot is on goes through (the refused one left no trace of its key).
    await pilot(s.codigo, true)
    const ok = await refund(s, linkId, { monto: 5, idempotency_key: key })
    expect(ok.status).toBe(201)
    expect(ok.body.estado).toBe("LIQUIDADA")
    const after = await call(server.url, "GET", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: s.headers
    })
    expect(after.body).toMatchObject({ habilitado: true, monto_devuelto: 5, disponible: 25 })
  })

  it("a riesgo operator turns it on from the console, audited; soporte cannot", async () => {
    const s = await liveMerchant(false)
    const linkId = await paidLink(s, 20)
    const path = `/admin/v1/operador/comercios/${s.codigo}`
    const soporte = await operador("soporte")
    const refused = await call(server.url, "PATCH", path, {
      headers: soporte,
      body: { reembolsos_habilitado: true }
    })
    expect(refused.status).toBe(403)
    expect((await refund(s, linkId, { monto: 1 })).status).toBe(403)
    const riesgo = await operador("riesgo")
    const on = await call(server.url, "PATCH", path, {
      headers: riesgo,
      body: { reembolsos_habilitado: true, nota: "Piloto de reembolsos" }
    })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(on.body.reembolsos_habilitado).toBe(true)
    const audit = await db.query(
      "select antes, despues, nota from auditoria where objeto_id = $1 and accion = 'comercio.configurar' order by id",
      [s.codigo]
    )
    expect(audit.rows).toHaveLength(1)
    expect(audit.rows[0]).toMatchObject({
      antes: { reembolsos_habilitado: false },
      despues: { reembolsos_habilitado: true },
      nota: "Piloto de reembolsos"
    })
    expect((await refund(s, linkId, { monto: 1 })).status).toBe(201)
    const off = await call(server.url, "PATCH", path, {
      headers: riesgo,
      body: { reembolsos_habilitado: false }
    })
    expect(off.body.reembolsos_habilitado).toBe(false)
    const again = await refund(s, linkId, { monto: 1 })
    expect(again.status).toBe(403)
    expect(again.body.error).toBe("reintegro_no_habilitado")
  })
})

/** A test-mode merchant with the refunds and split pilots on, its owner's session, and accounts 1 and 2 approved. */
const splitMerchant = async () => {
  const codigo = `s${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const patched = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: adminHeaders,
    body: { reembolsos_habilitado: true, split_habilitado: true, liquidacion_inmediata: true }
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  for (const n of [1, 2])
    await call(server.url, "POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, {
      headers: adminHeaders,
      body: beneficiary(n)
    })
  return { codigo, key: `${codigo}:${made.body.api_key}`, headers: await signIn(email) }
}

/**
 * Paid test links whose split the net no longer covers (the commission went up after they were
 * made): nobody paid, every part `en_revision`, as SPEC's "Split rules" put it.
 */
const splitsInReview = async (m: { codigo: string; key: string }, count: number) => {
  const ids: Array<string> = []
  for (let i = 0; i < count; i++) {
    const created = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: {
        monto: 100,
        concepto: "Con reparto",
        split: [
          { cuenta: beneficiary(1), monto: 60 },
          { cuenta: beneficiary(2), monto: 38 }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    ids.push(created.body.id)
  }
  await call(server.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
    headers: adminHeaders,
    body: { comision_pct: 5 }
  })
  for (const id of ids) {
    const paid = await call(server.url, "POST", `/switch/v1/links/${id}/simular`, {
      key: m.key,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
  }
  await call(server.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
    headers: adminHeaders,
    body: { comision_pct: null }
  })
  return ids
}

const repartoOf = async (linkId: string) =>
  (await db.query("select reparto from links where id = $1", [linkId])).rows[0].reparto as {
    estado: string
    beneficiarios: Array<{ estado: string; liquidacion_txn_id: string | null }>
  }

const detenido = async (linkId: string) =>
  (await db.query("select transaccion_id::text as id from repartos_detenidos where link_id = $1", [linkId]))
    .rows[0]?.id as string | undefined

const ordenesDeReparto = async (linkId: string) =>
  (
    await db.query(
      "select count(*)::int as n from pagos_reparto where link_id = $1 and estado in ('enviado', 'pagado')",
      [linkId]
    )
  ).rows[0].n as number

const devoluciones = async (linkId: string) =>
  (
    await db.query(
      "select count(*)::int as n from transacciones where operacion = 'devolucion' and detalle->>'link_id' = $1",
      [linkId]
    )
  ).rows[0].n as number

describe("a refund before the split is paid (SPEC: the split stops and goes to review)", () => {
  it("the refund proceeds, the split goes en_revision held in the same transaction, is listed, and is never paid through the bank", async () => {
    const m = await splitMerchant()
    const [linkId = ""] = await splitsInReview(m, 1)
    expect((await repartoOf(linkId)).estado).toBe("en_revision")
    const r = await call(server.url, "POST", `/switch/v1/links/${linkId}/reembolsos`, {
      headers: m.headers,
      body: { motivo: "Pedido cancelado", idempotency_key: randomUUID() }
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ estado: "LIQUIDADA", monto: 100 })
    expect(await detenido(linkId)).toBe(r.body.id)
    const reparto = await repartoOf(linkId)
    expect(reparto.estado).toBe("en_revision")
    expect(reparto.beneficiarios.map((b) => b.estado)).toEqual(["en_revision", "en_revision"])
    const tesoreria = await operador("tesoreria")
    const queue = await call(server.url, "GET", "/admin/v1/operador/revision", { headers: tesoreria })
    const parts = queue.body.data.filter((i: { link_id: string }) => i.link_id === linkId)
    expect(parts).toHaveLength(2)
    expect(parts[0]).toMatchObject({
      tipo: "reparto",
      motivo: "reparto detenido por un reembolso",
      detenido: true
    })
    const pay = await call(server.url, "POST", `/admin/v1/operador/revision/repartos/${linkId}/0/pagar`, {
      headers: tesoreria,
      body: {}
    })
    expect(pay.status).toBe(409)
    expect(pay.body.error).toBe("reparto_detenido")
    expect(await ordenesDeReparto(linkId)).toBe(0)
    // A person closes the parts without paying: the split is cerrado and leaves the queue.
    for (const indice of [0, 1]) {
      const closed = await call(
        server.url,
        "POST",
        `/admin/v1/operador/revision/repartos/${linkId}/${indice}/cerrar`,
        { headers: tesoreria, body: { nota: "El pago se reembolsó al cliente" } }
      )
      expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    }
    expect((await repartoOf(linkId)).estado).toBe("cerrado")
  })

  it("a split not yet started (parts pendiente) stops too; one with an order at the bank keeps 409 cobro_con_split_repartido and nothing changes", async () => {
    const s = await liveMerchant()
    const part = (estado: string) => ({
      banco: "0102",
      tipo: "cuenta",
      ultimos4: "0001",
      nombre: "Beneficiario 1",
      porcentaje: 2500,
      monto_fijo: null,
      monto: 1000,
      estado,
      referencia_bancaria: null,
      liquidacion_txn_id: null
    })
    const pendiente = {
      estado: "pendiente",
      moneda: "VES",
      monto_comercio: 3000,
      monto_repartido: 0,
      beneficiarios: [part("pendiente")]
    }
    const fresh = await paidLink(s, 40)
    await db.query("update links set reparto = $2 where id = $1", [fresh, JSON.stringify(pendiente)])
    const ok = await refund(s, fresh, { monto: 10 })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(await detenido(fresh)).toBe(ok.body.id)
    expect(await repartoOf(fresh)).toMatchObject({
      estado: "en_revision",
      beneficiarios: [{ estado: "en_revision" }]
    })

    const paying = await paidLink(s, 40)
    const review = { ...pendiente, estado: "en_revision", beneficiarios: [part("en_revision")] }
    await db.query("update links set reparto = $2 where id = $1", [paying, JSON.stringify(review)])
    const [op] = (await db.query("select id from operadores limit 1")).rows
    await db.query(
      "insert into pagos_reparto (id, link_id, indice, monto, solicitado_por, estado) values ($1, $2, 0, 1000, $3, 'enviado')",
      [randomUUID(), paying, op.id]
    )
    const before = bank.refunds.length
    const refused = await refund(s, paying, {})
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("cobro_con_split_repartido")
    expect(bank.refunds.length).toBe(before)
    expect(await devoluciones(paying)).toBe(0)
    expect(await detenido(paying)).toBeUndefined()
    expect(await repartoOf(paying)).toEqual(review)
  })

  it("a refund racing the console's payment of a part: one of them wins, never a paid part and a refund without review", async () => {
    const m = await splitMerchant()
    const links = await splitsInReview(m, 6)
    const tesoreria = await operador("tesoreria")
    const outcomes = await Promise.all(
      links.map(async (linkId, i) => {
        const refundIt = () =>
          call(server.url, "POST", `/switch/v1/links/${linkId}/reembolsos`, {
            headers: m.headers,
            body: { motivo: "Pedido cancelado", idempotency_key: randomUUID() }
          })
        const payIt = () =>
          call(server.url, "POST", `/admin/v1/operador/revision/repartos/${linkId}/0/pagar`, {
            headers: tesoreria,
            body: {}
          })
        // Both in flight together, the payment leaving a little later each time, so either may win.
        const pay = new Promise<void>((done) => setTimeout(done, i * 15)).then(payIt)
        const [r, p] = await Promise.all([refundIt(), pay])
        return { linkId, r, p }
      })
    )
    for (const { linkId, r, p } of outcomes) {
      const orders = await ordenesDeReparto(linkId)
      const refunds = await devoluciones(linkId)
      const held = await detenido(linkId)
      if (r.status === 201) {
        // The refund won: the split is held in review and no part went to the bank.
        expect(p.status, JSON.stringify(p.body)).toBe(409)
        expect(p.body.error).toBe("reparto_detenido")
        expect(orders).toBe(0)
        expect(held).toBe(r.body.id)
        expect((await repartoOf(linkId)).estado).toBe("en_revision")
      } else {
        // The payment won: the refund is refused and nothing of it was written.
        expect(r.status, JSON.stringify(r.body)).toBe(409)
        expect(r.body.error).toBe("cobro_con_split_repartido")
        expect(p.status, JSON.stringify(p.body)).toBe(200)
        expect(orders).toBe(1)
        expect(refunds).toBe(0)
        expect(held).toBeUndefined()
      }
      expect(refunds > 0 && orders > 0).toBe(false)
    }
  })
})
