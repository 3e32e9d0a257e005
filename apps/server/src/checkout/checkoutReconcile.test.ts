/**
 * The page's reconciler against a real bank simulator over HTTP: a payment the bank never came
 * to know is settled as not done after `conciliarAbandonoSegundos` (the link reopens instead of
 * staying in `revision`), and an attempt a stopped process left "sending" is asked about once
 * the bank call's deadline has passed, not minutes later.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage } from "../../test/checkoutHarness.js"
import {
  admin,
  call,
  codeFor,
  counters,
  type DirectRig,
  merchant,
  payer,
  simCall,
  startDirect
} from "../../test/directHarness.js"

let rig: DirectRig
let live: string

beforeAll(async () => {
  // bankTimeoutMs 700: an attempt still sending 7.1 s after it started lost its process.
  rig = await startDirect({ bankTimeoutMs: 700, conciliarAbandonoSegundos: 3 })
  const m = await merchant(rig)
  live = m.live
  const patched = await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
    cuenta_liquidacion: {
      tipo: "cuenta",
      valor: "01050194651194079423",
      banco: "0105",
      identificacion: "J-07013380-5",
      nombre: "Comercio"
    }
  })
  expect(patched.status).toBe(200)
})
afterAll(() => rig.close())

const newLink = async () => {
  const r = await call(rig.server.url, "POST", "/switch/v1/links", {
    key: live,
    body: { monto: 10, concepto: "Pedido" }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

const linkState = async (id: string) =>
  (await rig.db.query("select estado from links where id = $1", [id])).rows[0]?.estado as string

const until = async (id: string, estado: string, ms: number) => {
  const end = Date.now() + ms
  while (Date.now() < end && (await linkState(id)) !== estado) await new Promise((r) => setTimeout(r, 100))
  return linkState(id)
}

/** A payer at the simulator with a code the bank sent it; the page's body for it. */
const payerWithCode = async () => {
  const p = await payer(rig, 50_000)
  await simCall(rig, "POST", "/v1/c2p/codigo", { operacion_id: randomUUID(), monto: 1_000, pagador: p })
  return {
    p,
    body: {
      banco: p.banco,
      tipo_doc: "V",
      identificacion: "12345678",
      telefono: p.valor,
      otp: await codeFor(rig, p)
    }
  }
}

describe("checkout reconciliation", () => {
  it("a debit the bank answers it never received (5xx, then 404 to queries) waits in revision, then is settled as not done and the link reopens", async () => {
    const id = await newLink()
    const { body } = await payerWithCode()
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "error_5xx", veces: 1 })
    const before = await counters(rig)
    const page = await openPage(rig.server.url, id)
    expect((await page.post("/pagar", body)).body).toEqual({ estado: "procesando" })
    expect(await linkState(id)).toBe("revision")
    // Not before the window: the bank could still come to know it.
    expect(await until(id, "pendiente", 1_500)).toBe("revision")
    expect(await until(id, "pendiente", 8_000)).toBe("pendiente")
    const attempt = await rig.db.query(
      "select estado, motivo_rechazo from intentos_pago where link_id = $1 order by created_at desc",
      [id]
    )
    expect(attempt.rows).toEqual([{ estado: "RECHAZADA", motivo_rechazo: "BANCO_NO_DISPONIBLE" }])
    const after = await counters(rig)
    expect(after.debitos_aplicados).toBe(before.debitos_aplicados)
    expect(after.solicitudes.debito - (before.solicitudes.debito ?? 0)).toBe(1)
    const events = await rig.db.query("select 1 from eventos where data->>'link_id' = $1", [id])
    expect(events.rows).toHaveLength(0)
  })

  it("a debit never acknowledged whose queries keep failing goes to review after the window: the link is never reopened", async () => {
    const id = await newLink()
    const { body } = await payerWithCode()
    await simCall(rig, "POST", "/admin/fallas", {
      fallas: [
        { ruta: "debito", tipo: "error_5xx", veces: 1 },
        { ruta: "consulta", tipo: "error_5xx", veces: 100_000 }
      ]
    })
    try {
      const before = await counters(rig)
      const page = await openPage(rig.server.url, id)
      expect((await page.post("/pagar", body)).body).toEqual({ estado: "procesando" })
      const review = async () =>
        (await rig.db.query("select estado, revision_desde from intentos_pago where link_id = $1", [id]))
          .rows[0]
      // The window is 3 s: past it the attempt is marked for a person, and the link stays put.
      const end = Date.now() + 8_000
      while (Date.now() < end && (await review())?.revision_desde === null)
        await new Promise((r) => setTimeout(r, 100))
      expect((await review()).revision_desde).not.toBeNull()
      expect(await until(id, "pendiente", 1_500)).toBe("revision")
      expect((await review()).estado).toBe("DESCONOCIDA")
      const events = await rig.db.query("select 1 from eventos where data->>'link_id' = $1", [id])
      expect(events.rows).toHaveLength(0)
      const settled = await rig.db.query(
        "select 1 from transacciones where link_id = $1 and operacion = 'liquidacion'",
        [id]
      )
      expect(settled.rows).toHaveLength(0)
      expect((await counters(rig)).debitos_aplicados).toBe(before.debitos_aplicados)
    } finally {
      await simCall(rig, "DELETE", "/admin/fallas")
    }
  })

  it("PENDIENTE_BCV from the bank keeps a page payment processing (queried later), never rejected", async () => {
    const id = await newLink()
    const { body } = await payerWithCode()
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "rechazo", codigo: "09", veces: 1 })
    const page = await openPage(rig.server.url, id)
    expect((await page.post("/pagar", body)).body).toEqual({ estado: "procesando" })
    expect(await linkState(id)).toBe("procesando")
    await new Promise((r) => setTimeout(r, 1_500))
    expect(await linkState(id)).toBe("procesando")
    const attempt = await rig.db.query(
      "select estado, motivo_rechazo from intentos_pago where link_id = $1",
      [id]
    )
    expect(attempt.rows).toEqual([{ estado: "PENDIENTE", motivo_rechazo: null }])
  })

  it("an attempt left sending by a stopped process is asked about after the bank call's deadline and pays the link once", async () => {
    const stale = await newLink()
    const fresh = await newLink()
    const { p, body } = await payerWithCode()
    const attemptId = randomUUID()
    // What a process that died after the bank debited leaves behind: the link `cobrando`, its
    // attempt `ENVIANDO` since 8 s ago, and the debit done at the bank under the attempt's id.
    const debited = await simCall(rig, "POST", "/v1/c2p/debito", {
      operacion_id: attemptId,
      monto: 1_000,
      otp: body.otp,
      pagador: p,
      cobrador: { tipo: "cuenta", valor: "01050194651194079423", banco: "0105", identificacion: "J070133805" }
    })
    expect(debited.body.estado).toBe("APROBADA")
    for (const [link, attempt, ageMs] of [
      [stale, attemptId, 8_000],
      [fresh, randomUUID(), 0]
    ] as const) {
      await rig.db.query("update links set estado = 'cobrando', metodo = 'debito' where id = $1", [link])
      await rig.db.query(
        `insert into intentos_pago (id, link_id, comercio_id, mode, estado, created_at, actualizado_at)
         select $1, id, comercio_id, 'live', 'ENVIANDO', now() - make_interval(secs => $3::float8 / 1000),
           now() - make_interval(secs => $3::float8 / 1000)
         from links where id = $2`,
        [attempt, link, ageMs]
      )
    }
    expect(await until(stale, "pagado", 6_000)).toBe("pagado")
    const events = await rig.db.query("select evento from eventos where data->>'link_id' = $1", [stale])
    expect(events.rows).toEqual([{ evento: "link.pagado" }])
    // The fresh one may still be at the bank: it is left alone.
    expect(await linkState(fresh)).toBe("cobrando")
  })

  it("an order the bank acknowledged stays in revision while later queries fail, past the abandon window", async () => {
    const id = await newLink()
    const { p, body } = await payerWithCode()
    const attemptId = randomUUID()
    // The bank holds the debit in process (a query answers that it has the order) ...
    await simCall(rig, "POST", "/admin/fallas", { ruta: "debito", tipo: "diferir", ms: 60_000, veces: 1 })
    const held = await simCall(rig, "POST", "/v1/c2p/debito", {
      operacion_id: attemptId,
      monto: 1_000,
      otp: body.otp,
      pagador: p,
      cobrador: { tipo: "cuenta", valor: "01050194651194079423", banco: "0105", identificacion: "J070133805" }
    })
    expect(held.body.estado).toBe("EN_PROCESO")
    // ... while the server lost the answer to its debit 10 s ago: the link in revision, unknown.
    await rig.db.query("update links set estado = 'revision', metodo = 'debito' where id = $1", [id])
    await rig.db.query(
      `insert into intentos_pago (id, link_id, comercio_id, mode, estado, created_at, actualizado_at)
       select $1, id, comercio_id, 'live', 'DESCONOCIDA', now() - interval '10 seconds', now() - interval '10 seconds'
       from links where id = $2`,
      [attemptId, id]
    )
    const acknowledged = async () =>
      (await rig.db.query("select estado from intentos_pago where id = $1", [attemptId])).rows[0]?.estado
    const end = Date.now() + 5_000
    while (Date.now() < end && (await acknowledged()) === "DESCONOCIDA")
      await new Promise((r) => setTimeout(r, 100))
    const ack = await acknowledged()
    expect(["ACEPTADA", "PENDIENTE"]).toContain(ack)
    // Now every query fails. Waiting longer than the abandon window must not reopen the link.
    await simCall(rig, "POST", "/admin/fallas", { ruta: "consulta", tipo: "error_5xx", veces: 1_000 })
    try {
      expect(await until(id, "pendiente", 4_500)).toBe("revision")
      expect(await acknowledged()).toBe(ack)
    } finally {
      await simCall(rig, "DELETE", "/admin/fallas")
    }
  })
})
