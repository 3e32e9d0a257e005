/**
 * The split pilot end to end in test mode: SPEC's creation errors with their statuses, the
 * simulated split of a paid test link (each part paid, the merchant's remainder settled,
 * `reparto` on the link and in `link.acreditado`), a split that takes the whole net, and a live
 * split the net does not cover (nobody paid); a suspended merchant's links are not paid by
 * simulation. Live splits paid through the bank simulator: splitLive.test.ts.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beneficiary } from "../../test/accounts.js"
import { openPage, PAYER } from "../../test/checkoutHarness.js"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { eventually, query } from "../../test/webhooksReceiver.js"
import { Settings } from "../Config.js"
import { Banks } from "../platform/bank/Banks.js"
import { PgLive } from "../platform/Sql.js"
import { runSettlement } from "./Settlement.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
})
afterAll(() => server.close())

const admin = (method: string, path: string, body?: unknown) =>
  call(server.url, method, path, {
    ...(body === undefined ? {} : { body }),
    headers: { "x-admin-token": "admin-de-prueba" }
  })

/** A merchant with the pilot on, immediate settlement as given, and accounts 1 and 2 approved. */
const merchant = async (liquidacionInmediata = true) => {
  const m = await registerMerchant(server.url)
  const patched = await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, {
    split_habilitado: true,
    liquidacion_inmediata: liquidacionInmediata
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  for (const n of [1, 2])
    await admin("POST", `/admin/v1/comercios/${m.codigo}/cuentas-aprobadas`, beneficiary(n))
  return m
}

const createLink = (key: string, body: Record<string, unknown>) =>
  call(server.url, "POST", "/switch/v1/links", { key, body: { concepto: "Con reparto", ...body } })

const payTest = async (key: string, id: string) => {
  const paid = await call(server.url, "POST", `/switch/v1/links/${id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  expect(paid.status, JSON.stringify(paid.body)).toBe(200)
}

const acreditado = (key: string, linkId: string) =>
  eventually(async () => {
    const list = (await call(server.url, "GET", "/switch/v1/eventos", { key })).body as Array<any>
    return list.find((e) => e.evento === "link.acreditado" && e.data.link_id === linkId)
  })

describe("split errors on POST /links", () => {
  it("a merchant without immediate settlement gets 422 split_requiere_liquidacion_inmediata", async () => {
    const m = await merchant(false)
    const reply = await createLink(m.key, { monto: 100, split: [{ cuenta: beneficiary(1), porcentaje: 10 }] })
    expect(reply.status).toBe(422)
    expect(reply.body.error).toBe("split_requiere_liquidacion_inmediata")
  })

  it("a split over the net after commission is 422 split_excede_neto; percentages over 100 are 400", async () => {
    const m = await merchant()
    const over = await createLink(m.key, { monto: 100, split: [{ cuenta: beneficiary(1), monto: 99.5 }] })
    expect(over.status, JSON.stringify(over.body)).toBe(422)
    expect(over.body.error).toBe("split_excede_neto")
    const pct = await createLink(m.key, {
      monto: 100,
      split: [
        { cuenta: beneficiary(1), porcentaje: 60 },
        { cuenta: beneficiary(2), porcentaje: 41 }
      ]
    })
    expect(pct.status).toBe(400)
    expect(pct.body.error).toBe("split_excede_neto")
  })

  it("the HttpApi handler (a query string bypasses the lane) answers each refusal with the lane's status and body", async () => {
    const m = await merchant()
    const slow = await merchant(false)
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, number, string]> = [
      [m.key, { monto: 100, split: [{ cuenta: beneficiary(1), monto: 99.5 }] }, 422, "split_excede_neto"],
      [
        m.key,
        {
          monto: 100,
          split: [
            { cuenta: beneficiary(1), porcentaje: 60 },
            { cuenta: beneficiary(2), porcentaje: 41 }
          ]
        },
        400,
        "split_excede_neto"
      ],
      [
        m.key,
        { monto: 100, split: [{ cuenta: beneficiary(3), porcentaje: 10 }] },
        400,
        "split_cuenta_no_preaprobada"
      ],
      [m.key, { monto: 100, split: [] }, 400, "split_invalido"],
      [
        slow.key,
        { monto: 100, split: [{ cuenta: beneficiary(1), porcentaje: 10 }] },
        422,
        "split_requiere_liquidacion_inmediata"
      ]
    ]
    for (const [key, body, status, error] of cases) {
      const lane = await createLink(key, body)
      const api = await call(server.url, "POST", "/switch/v1/links?via=api", {
        key,
        body: { concepto: "Con reparto", ...body }
      })
      expect([lane.status, lane.body.error], JSON.stringify(lane.body)).toEqual([status, error])
      expect(api.status, JSON.stringify(api.body)).toBe(status)
      expect(api.body).toEqual(lane.body)
    }
  })

  it("a live link with a split from a merchant without the pilot is refused with split_no_disponible, nothing created", async () => {
    const m = await merchant()
    const live = await approveMerchant(server, m.codigo)
    await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, {
      split_habilitado: false,
      liquidacion_inmediata: true
    })
    const reply = await createLink(live, { monto: 100, split: [{ cuenta: beneficiary(1), porcentaje: 10 }] })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe("split_no_disponible")
    const listed = await call(server.url, "GET", "/switch/v1/links", { key: live })
    expect(listed.body).toEqual([])
  })
})

describe("settlement job", () => {
  it("a paid live link whose split the net does not cover pays nobody: nothing reaches the bank, every part in review", async () => {
    const m = await merchant()
    const live = await approveMerchant(server, m.codigo)
    const created = await createLink(live, { monto: 100 })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    await query(
      server.databaseUrl,
      "update links set estado = 'pagado', paid_at = now(), split = $2::jsonb where id = $1",
      [id, JSON.stringify([{ cuenta: beneficiary(1), monto: 99.5 }])]
    )
    // A link with a split never reaches the bank: one that is asked fails the test.
    const noBank = Layer.succeed(Banks, {
      forMode: () => {
        throw new Error("a link with a split reached the bank")
      }
    })
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        PgLive(server.databaseUrl, { maxConnections: 2 }),
        Layer.succeed(Settings, server.settings),
        noBank
      ).pipe(Layer.orDie)
    )
    await runtime.runPromise(Effect.zipRight(runSettlement({ link_id: id }), runSettlement({ link_id: id })))
    await runtime.dispose()
    const rows = await query(
      server.databaseUrl,
      "select count(*)::int as n from transacciones where link_id = $1 and operacion <> 'cobro'",
      [id]
    )
    expect(rows[0].n).toBe(0)
    const [link] = await query(server.databaseUrl, "select reparto from links where id = $1", [id])
    expect(link.reparto).toMatchObject({ estado: "en_revision", monto_repartido: 0, monto_comercio: 0 })
    expect(link.reparto.beneficiarios.map((b: any) => b.estado)).toEqual(["en_revision"])
    const events = await query(
      server.databaseUrl,
      "select count(*)::int as n from eventos where evento = 'link.acreditado' and data->>'link_id' = $1",
      [id]
    )
    expect(events[0].n).toBe(0)
  })
})

describe("suspension", () => {
  it("a suspended merchant's open test link cannot be paid by simulation (403 comercio_suspendido)", async () => {
    const m = await registerMerchant(server.url)
    const created = await createLink(m.key, { monto: 10 })
    expect(created.status).toBe(201)
    await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { estado: "suspendido" })
    const paid = await call(server.url, "POST", `/switch/v1/links/${created.body.id}/simular`, {
      key: m.key,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(403)
    expect(paid.body.error).toBe("comercio_suspendido")
    const link = (await call(server.url, "GET", `/switch/v1/links/${created.body.id}`, { key: m.key })).body
    expect(link.estado).toBe("pendiente")
  })
})

describe("the simulated split of a paid test link", () => {
  it("pays each part, settles the remainder to the merchant and shows the reparto masked", async () => {
    const m = await merchant()
    const created = await createLink(m.key, {
      monto: 100,
      split: [
        { cuenta: beneficiary(1), porcentaje: 10 },
        { cuenta: beneficiary(2), monto: 5 }
      ]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.id as string
    await payTest(m.key, id)

    // Net 99 (1 % commission): 9.90 and 5 to the beneficiaries, 84.10 to the merchant.
    const link = (await call(server.url, "GET", `/switch/v1/links/${id}`, { key: m.key })).body
    expect(link.reparto).toMatchObject({
      estado: "repartido",
      moneda: "VES",
      monto_comercio: 84.1,
      monto_repartido: 14.9
    })
    const [first, second] = link.reparto.beneficiarios
    expect(first).toMatchObject({
      banco: "0102",
      tipo: "cuenta",
      ultimos4: beneficiary(1).valor.slice(-4),
      nombre: "Beneficiario 1",
      porcentaje: 10,
      monto_fijo: null,
      monto: 9.9,
      estado: "pagado",
      referencia_bancaria: "SIMULADO"
    })
    expect(second).toMatchObject({ porcentaje: null, monto_fijo: 5, monto: 5, estado: "pagado" })
    expect(JSON.stringify(link.reparto)).not.toContain(beneficiary(1).valor)
    expect(first.liquidacion_txn_id).not.toBe(second.liquidacion_txn_id)

    const event = await acreditado(m.key, id)
    expect(event.data.monto_acreditado).toBe(84.1)
    expect(event.data.reparto).toEqual(link.reparto)
    const parts = await query(
      server.databaseUrl,
      "select operacion, monto::int as monto, estado from transacciones where link_id = $1 order by operacion, monto",
      [id]
    )
    expect(parts).toEqual([
      { operacion: "cobro", monto: 10000, estado: "LIQUIDADA" },
      { operacion: "liquidacion", monto: 8410, estado: "LIQUIDADA" },
      { operacion: "reparto", monto: 500, estado: "LIQUIDADA" },
      { operacion: "reparto", monto: 990, estado: "LIQUIDADA" }
    ])
    const settled = await query(
      server.databaseUrl,
      "select id from transacciones where link_id = $1 and operacion = 'liquidacion'",
      [id]
    )
    expect(event.data.liquidacion_txn_id).toBe(settled[0].id)
  })

  it("a test link paid on the page shares out the same way, through the settlement job", async () => {
    const m = await merchant()
    const created = await createLink(m.key, {
      monto: 100,
      split: [{ cuenta: beneficiary(1), porcentaje: 10 }]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.id as string
    const page = await openPage(server.url, id)
    const paid = await page.post("/pagar", { ...PAYER, otp: "12345678" })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const event = await acreditado(m.key, id)
    expect(event.data.monto_acreditado).toBe(89.1)
    expect(event.data.reparto).toMatchObject({
      estado: "repartido",
      monto_comercio: 89.1,
      monto_repartido: 9.9
    })
    const parts = await query(
      server.databaseUrl,
      "select operacion, monto::int as monto from transacciones where link_id = $1 and operacion <> 'cobro' order by operacion",
      [id]
    )
    expect(parts).toEqual([
      { operacion: "liquidacion", monto: 8910 },
      { operacion: "reparto", monto: 990 }
    ])
  })

  it("a split the net no longer covers (commission raised) pays nobody and goes to review, with no link.acreditado", async () => {
    const m = await merchant()
    const created = await createLink(m.key, { monto: 100, split: [{ cuenta: beneficiary(1), monto: 98 }] })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { comision_pct: 5 })
    await payTest(m.key, created.body.id)
    const link = (await call(server.url, "GET", `/switch/v1/links/${created.body.id}`, { key: m.key })).body
    expect(link.reparto).toMatchObject({ estado: "en_revision", monto_repartido: 0 })
    expect(link.reparto.beneficiarios[0]).toMatchObject({ estado: "en_revision", liquidacion_txn_id: null })
    const moved = await query(
      server.databaseUrl,
      "select count(*)::int as n from transacciones where link_id = $1 and operacion <> 'cobro'",
      [created.body.id]
    )
    expect(moved[0].n).toBe(0)
    await new Promise((r) => setTimeout(r, 300))
    const list = (await call(server.url, "GET", "/switch/v1/eventos", { key: m.key })).body as Array<any>
    expect(list.some((e) => e.evento === "link.acreditado" && e.data.link_id === created.body.id)).toBe(false)
  })

  it("a split that takes the whole net credits 0 under the payer's payment id; a share under a cent is sin_monto", async () => {
    const m = await merchant()
    const created = await createLink(m.key, {
      monto: 1,
      split: [
        { cuenta: beneficiary(1), porcentaje: 99.5 },
        { cuenta: beneficiary(2), porcentaje: 0.5 }
      ]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.id as string
    await payTest(m.key, id)
    // Net 0.99: 99.5 % is 0.98 (rounded down), 0.5 % is under a cent; the leftover cent stays.
    const link = (await call(server.url, "GET", `/switch/v1/links/${id}`, { key: m.key })).body
    expect(link.reparto.beneficiarios.map((b: any) => [b.monto, b.estado])).toEqual([
      [0.98, "pagado"],
      [0, "sin_monto"]
    ])
    expect(link.reparto).toMatchObject({ estado: "repartido", monto_comercio: 0.01, monto_repartido: 0.98 })

    const whole = await createLink(m.key, { monto: 50, split: [{ cuenta: beneficiary(1), porcentaje: 100 }] })
    expect(whole.status, JSON.stringify(whole.body)).toBe(201)
    await payTest(m.key, whole.body.id)
    const paid = (await call(server.url, "GET", `/switch/v1/links/${whole.body.id}`, { key: m.key })).body
    const event = await acreditado(m.key, whole.body.id)
    expect(event.data.monto_acreditado).toBe(0)
    expect(event.data.liquidacion_txn_id).toBe(paid.txn_id)
    expect(paid.reparto).toMatchObject({ estado: "repartido", monto_comercio: 0, monto_repartido: 49.5 })
  })
})
