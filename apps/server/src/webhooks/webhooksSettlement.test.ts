/**
 * Immediate settlement: simulated in test mode (simulate pagado emits `link.acreditado` with a
 * recorded settlement transaction), and the live `liquidar` job queued in the payment's
 * transaction, crediting once through the bank port and sending failures to review.
 */
import { PgClient } from "@effect/sql-pg"
import type { Ports } from "@switch/core"
import { LinkMachine, Venezuela } from "@switch/core"
import { Effect, Layer, ManagedRuntime, Option, Ref } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage, PAYER, scriptedBank, startCheckoutServer } from "../../test/checkoutHarness.js"
import {
  approveMerchant,
  call,
  registerMerchant,
  startServer,
  type TestServer,
  testSettings
} from "../../test/harness.js"
import { eventually, query } from "../../test/webhooksReceiver.js"
import { Settings } from "../Config.js"
import { Banks } from "../platform/bank/Banks.js"
import { markPaid } from "../platform/PaymentRecorder.js"
import { PgLive } from "../platform/Sql.js"
import { runSettlement, SettlementsLive } from "../settlement/Settlement.js"

const account = (bank: string, number: string, branch = "0194") =>
  `${bank}${branch}${Option.getOrThrow(Venezuela.accountCheckDigits(bank, branch, number))}${number}`
const cuenta = {
  tipo: "cuenta",
  valor: account("0105", "1194079423"),
  banco: "0105",
  identificacion: "J-07013380-5",
  nombre: "Comercio"
}

let server: TestServer
beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
})
afterAll(() => server?.close())

const enableSettlement = async (codigo: string) => {
  const reply = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { liquidacion_inmediata: true, comision_pct: 2.5, cuenta_liquidacion: cuenta }
  })
  expect(reply.status).toBe(200)
}

describe("simulated settlement (test mode)", () => {
  it("simulate pagado emits link.acreditado once, with the net and a recorded settlement transaction", async () => {
    const m = await registerMerchant(server.url)
    await enableSettlement(m.codigo)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 200, concepto: "x" }
    })
    await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: m.key,
      body: { resultado: "pagado" }
    })
    const eventos = (await call(server.url, "GET", "/switch/v1/eventos", { key: m.key })).body as Array<any>
    expect(eventos.map((e) => e.evento).sort()).toEqual(["link.acreditado", "link.pagado"])
    const acreditado = eventos.find((e) => e.evento === "link.acreditado")
    // 200 − 2.5 % = 195.
    expect(acreditado.data).toMatchObject({
      link_id: link.body.id,
      monto_acreditado: 195,
      reparto: null,
      mode: "test"
    })
    const txns = (await call(server.url, "GET", "/switch/v1/transacciones", { key: m.key }))
      .body as Array<any>
    const liquidacion = txns.find((t) => t.operacion === "liquidacion")
    expect(liquidacion).toMatchObject({
      id: acreditado.data.liquidacion_txn_id,
      estado: "LIQUIDADA",
      monto: 195
    })
  })

  it("without immediate settlement there is no link.acreditado", async () => {
    const m = await registerMerchant(server.url)
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 50, concepto: "x" }
    })
    await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key: m.key,
      body: { resultado: "pagado" }
    })
    const eventos = (await call(server.url, "GET", "/switch/v1/eventos", { key: m.key })).body as Array<any>
    expect(eventos.map((e) => e.evento)).toEqual(["link.pagado"])
  })
})

describe("live settlement job", () => {
  /** A fake live bank counting credits; answers `credit` and `query` with `answer`. */
  const fakeBank = (answer: Ports.BankAnswer, credits: Ref.Ref<number>) => {
    const gateway: Ports.BankGateway["Type"] = {
      requestCode: () => Effect.succeed(answer),
      debit: () => Effect.succeed(answer),
      credit: () =>
        Effect.as(
          Ref.update(credits, (n) => n + 1),
          answer
        ),
      query: () => Effect.succeed(answer),
      reverse: () => Effect.succeed(answer),
      refund: () => Effect.succeed(answer)
    }
    return Layer.succeed(Banks, { forMode: () => gateway })
  }

  /**
   * A live link of a merchant with immediate settlement, in a database whose server has
   * stopped: no job runner races the test, which runs the payment and the job itself.
   */
  const liveLink = async () => {
    const own = await startServer({ settings: { apiPorMinuto: 100_000 } })
    try {
      const m = await registerMerchant(own.url)
      const liveKey = await approveMerchant(own, m.codigo)
      const reply = await call(own.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
        headers: { "x-admin-token": "admin-de-prueba" },
        body: { liquidacion_inmediata: true, comision_pct: 2.5, cuenta_liquidacion: cuenta }
      })
      expect(reply.status).toBe(200)
      const link = await call(own.url, "POST", "/switch/v1/links", {
        key: liveKey,
        body: { monto: 100, concepto: "x" }
      })
      expect(link.status).toBe(201)
      const [row] = await query(own.databaseUrl, "select comercio_id from links where id = $1", [
        link.body.id
      ])
      return {
        databaseUrl: own.databaseUrl,
        linkId: link.body.id as string,
        comercioId: row.comercio_id as string
      }
    } finally {
      await own.close()
    }
  }

  const runtimeWith = (databaseUrl: string, bank: Layer.Layer<Banks>) =>
    ManagedRuntime.make(
      Layer.mergeAll(bank, Layer.succeed(Settings, testSettings()), SettlementsLive).pipe(
        Layer.provideMerge(PgLive(databaseUrl, { maxConnections: 2 }))
      )
    )

  const pay = (linkId: string, comercioId: string) =>
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      return yield* markPaid({
        linkId,
        comercioId,
        mode: "live",
        from: "pendiente",
        referencia: "REF123",
        metodo: "debito",
        effects: [
          LinkMachine.LinkEffect.Emitir({
            evento: "link.pagado",
            metodo: "debito",
            referencia: "REF123",
            simulado: false
          }),
          LinkMachine.LinkEffect.Liquidar()
        ],
        paidAt: new Date()
      }).pipe(sql.withTransaction)
    })

  it("the payment queues liquidar in its transaction; the job credits the net once and emits link.acreditado", async () => {
    const { databaseUrl, linkId, comercioId } = await liveLink()
    const credits = Ref.unsafeMake(0)
    const ok: Ports.BankAnswer = {
      estado: "LIQUIDADA",
      referencia_banco: "LIQ777",
      endtoend: null,
      motivo_rechazo: null
    }
    const runtime = runtimeWith(databaseUrl, fakeBank(ok, credits))
    try {
      await runtime.runPromise(pay(linkId, comercioId))
      const jobs = await query(
        databaseUrl,
        "select task_identifier from graphile_worker.jobs where key = $1",
        [`liquidar:${linkId}`]
      )
      expect(jobs).toEqual([{ task_identifier: "liquidar" }])
      // Run the job twice: a repeated job must not credit again.
      await runtime.runPromise(runSettlement({ link_id: linkId }))
      await runtime.runPromise(runSettlement({ link_id: linkId }))
      expect(await runtime.runPromise(Ref.get(credits))).toBe(1)
      const [txn] = await query(
        databaseUrl,
        "select id, estado, monto::int as monto, referencia_banco from transacciones where link_id = $1 and operacion = 'liquidacion'",
        [linkId]
      )
      // 100 + 0 tip − 2.5 % = 97.50, in cents.
      expect(txn).toMatchObject({ estado: "LIQUIDADA", monto: 9750, referencia_banco: "LIQ777" })
      const acreditados = await query(
        databaseUrl,
        "select data from eventos where evento = 'link.acreditado' and data->>'link_id' = $1",
        [linkId]
      )
      expect(acreditados).toHaveLength(1)
      expect(acreditados[0].data).toEqual({
        link_id: linkId,
        monto_acreditado: 97.5,
        liquidacion_txn_id: txn.id,
        reparto: null,
        mode: "live"
      })
    } finally {
      await runtime.dispose()
    }
  })

  it("an unclear credit goes to review and is never sent again", async () => {
    const { databaseUrl, linkId, comercioId } = await liveLink()
    const credits = Ref.unsafeMake(0)
    const unclear: Ports.BankAnswer = {
      estado: "DESCONOCIDA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: null
    }
    const runtime = runtimeWith(databaseUrl, fakeBank(unclear, credits))
    try {
      await runtime.runPromise(pay(linkId, comercioId))
      await runtime.runPromise(runSettlement({ link_id: linkId }))
      await runtime.runPromise(runSettlement({ link_id: linkId }))
      const [txn] = await query(
        databaseUrl,
        "select estado from transacciones where link_id = $1 and operacion = 'liquidacion'",
        [linkId]
      )
      expect(txn.estado).toBe("REVISION")
      expect(await runtime.runPromise(Ref.get(credits))).toBe(1)
      const acreditado = await query(
        databaseUrl,
        "select 1 from eventos where evento = 'link.acreditado' and data->>'link_id' = $1",
        [linkId]
      )
      expect(acreditado).toHaveLength(0)
    } finally {
      await runtime.dispose()
    }
  })
})

describe("live settlement end to end", () => {
  it("a live link paid on the page is credited through the live bank port and notified once", async () => {
    const scripted = scriptedBank()
    let credits = 0
    const settled: Ports.BankAnswer = {
      estado: "LIQUIDADA",
      referencia_banco: "CRED01",
      endtoend: null,
      motivo_rechazo: null
    }
    const own = await startCheckoutServer({
      liveBank: {
        ...scripted.bank,
        credit: () =>
          Effect.sync(() => {
            credits++
            return settled
          })
      }
    })
    try {
      const m = await registerMerchant(own.url)
      const liveKey = await approveMerchant(own, m.codigo)
      const patched = await call(own.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
        headers: { "x-admin-token": "admin-de-prueba" },
        body: { liquidacion_inmediata: true, comision_pct: 2.5, cuenta_liquidacion: cuenta }
      })
      expect(patched.status).toBe(200)
      const link = await call(own.url, "POST", "/switch/v1/links", {
        key: liveKey,
        body: { monto: 40, concepto: "x" }
      })
      const page = await openPage(own.url, link.body.id)
      const paid = await page.post("/pagar", { ...PAYER, otp: "87654321" })
      expect(paid.body.estado).toBe("pagado")
      const acreditado = await eventually(async () => {
        const eventos = (await call(own.url, "GET", "/switch/v1/eventos", { key: liveKey }))
          .body as Array<any>
        return eventos.find((e) => e.evento === "link.acreditado")
      })
      // 40 − 2.5 % = 39.
      expect(acreditado.data).toMatchObject({
        link_id: link.body.id,
        monto_acreditado: 39,
        reparto: null,
        mode: "live"
      })
      const [txn] = await query(
        own.databaseUrl,
        "select id, estado, referencia_banco from transacciones where link_id = $1 and operacion = 'liquidacion'",
        [link.body.id]
      )
      expect(txn).toEqual({
        id: acreditado.data.liquidacion_txn_id,
        estado: "LIQUIDADA",
        referencia_banco: "CRED01"
      })
      expect(credits).toBe(1)
    } finally {
      await own.close()
    }
  })
})
