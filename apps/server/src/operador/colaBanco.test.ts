/**
 * The review queue and the bank's answers (issue 45).
 *
 * A settlement paid through the bank from the review queue (four eyes) that the bank
 * only accepted (`ACEPTADA`) leaves "Dinero en revisión" by itself: the reconciler asks the bank
 * about the order by its own id, like any unclear order, without anyone pressing "Consultar";
 * the order is never sent again. A rejection the reconciler hears fails the payment and leaves the
 * item for a person, with the bank's answer as its last one.
 *
 * An explicit rejection the normalised list can only call `DESCONOCIDO` shows the bank's own code
 * and words, read by the HTTP bank adapter and kept as the item's last answer and in its reason.
 */
import { HttpServer } from "@effect/platform"
import { PgClient } from "@effect/sql-pg"
import { LinkMachine, type Ports } from "@switch/core"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approveMerchant,
  call,
  registerMerchant,
  startServer,
  type TestServer,
  testSettings
} from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { Settings } from "../Config.js"
import { HttpLive } from "../Http.js"
import { Banks, LiveBank } from "../platform/bank/Banks.js"
import { normalise } from "../platform/bank/HttpBank.js"
import { markPaid } from "../platform/PaymentRecorder.js"
import { PgLive } from "../platform/Sql.js"
import { runSettlement, SettlementsLive } from "../settlement/Settlement.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de tesoreria"
let server: TestServer
let links: Array<string>
let txns: Array<string>
let owner = ""
/** Every credit order the bank received, by our id; the first settles, the second is rejected. */
const credited: Array<string> = []
const queried: Array<string> = []

const db = async <T = any>(text: string, values: Array<unknown> = []): Promise<Array<T>> => {
  const client = new Pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Array<T>
  } finally {
    await client.end()
  }
}

const unclear: Ports.BankAnswer = {
  estado: "DESCONOCIDA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: null
}

/** What the bank answers the third settlement's credit: an explicit no, with its own code and words. */
const REJECTION = {
  estado: "RECHAZADA",
  codigo_respuesta: "05",
  descripcion: "Transacción no aprobada por el banco emisor"
}

/** Three live links paid: two settlements left unclear by the bank, one rejected: in review. */
beforeAll(async () => {
  const setup = await startServer()
  let databaseUrl: string
  try {
    databaseUrl = setup.databaseUrl
    const m = await registerMerchant(setup.url)
    owner = `${m.codigo}@example.com`
    const liveKey = await approveMerchant(setup, m.codigo)
    const patched = await call(setup.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
      headers: TOKEN,
      body: { liquidacion_inmediata: true }
    })
    expect(patched.status).toBe(200)
    links = []
    for (let i = 0; i < 3; i++) {
      const link = await call(setup.url, "POST", "/switch/v1/links", {
        key: liveKey,
        body: { monto: 100, concepto: "x" }
      })
      expect(link.status).toBe(201)
      links.push(link.body.id)
    }
  } finally {
    await setup.close()
  }
  const gateway: Ports.BankGateway["Type"] = {
    requestCode: () => Effect.succeed(unclear),
    debit: () => Effect.succeed(unclear),
    credit: (order) =>
      Effect.succeed(order.concepto.includes(links[2] ?? "?") ? normalise(REJECTION) : unclear),
    query: () => Effect.succeed(unclear),
    reverse: () => Effect.succeed(unclear),
    refund: () => Effect.succeed(unclear)
  }
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      Layer.succeed(Banks, { forMode: () => gateway }),
      Layer.succeed(Settings, testSettings()),
      SettlementsLive
    ).pipe(Layer.provideMerge(PgLive(databaseUrl, { maxConnections: 2 })))
  )
  try {
    for (const linkId of links) {
      const [row] = await runtime.runPromise(
        Effect.flatMap(
          PgClient.PgClient,
          (sql) => sql<{ comercio_id: string }>`select comercio_id from links where id = ${linkId}`
        )
      )
      await runtime.runPromise(
        Effect.flatMap(PgClient.PgClient, (sql) =>
          markPaid({
            linkId,
            comercioId: row?.comercio_id ?? "",
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
        )
      )
      await runtime.runPromise(runSettlement({ link_id: linkId }))
    }
  } finally {
    await runtime.dispose()
  }
  // The server's live bank accepts every credit without settling it; asked later, it settles the
  // first order and rejects the second.
  const live: Ports.BankGateway["Type"] = {
    ...gateway,
    credit: (order) =>
      Effect.sync(() => {
        credited.push(order.operacionId)
        return { estado: "ACEPTADA", referencia_banco: null, endtoend: null, motivo_rechazo: null } as const
      }),
    query: (id) =>
      Effect.sync((): Ports.BankAnswer => {
        queried.push(id)
        const n = credited.indexOf(id)
        return n === 0
          ? { estado: "LIQUIDADA", referencia_banco: "CONC0001", endtoend: null, motivo_rechazo: null }
          : n === 1
            ? {
                estado: "RECHAZADA",
                referencia_banco: null,
                endtoend: null,
                motivo_rechazo: "SALDO_INSUFICIENTE"
              }
            : unclear
      })
  }
  const settings = testSettings({ conciliarSegundos: 0.3 })
  const serving = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(Layer.succeed(LiveBank, live)),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const address = await serving.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  server = {
    url: `http://127.0.0.1:${address.port}`,
    databaseUrl,
    settings,
    close: () => serving.dispose()
  }
  const rows = await db<{ id: string; link_id: string }>(
    "select id, link_id from transacciones where operacion = 'liquidacion' and estado = 'REVISION'"
  )
  txns = links.map((l) => rows.find((r) => r.link_id === l)?.id ?? "")
}, 120_000)
afterAll(() => server?.close())

const signedIn = async (rol: string) => {
  const headers = await signInOperator(server.url, rol, { password: PASSWORD, checkCreated: false })
  return (method: string, path: string, body?: unknown) => call(server.url, method, path, { body, headers })
}

type Caller = Awaited<ReturnType<typeof signedIn>>

const enCola = async (as: Caller, id: string) =>
  ((await as("GET", "/admin/v1/operador/revision")).body.data as Array<{ id: string }>).find(
    (i) => i.id === id
  )

/** Pays settlement `txn` through the bank with four eyes; the bank only accepts it. */
const pagarConCuatroOjos = async (first: Caller, second: Caller, txn: string) => {
  const base = `/admin/v1/operador/revision/liquidaciones/${txn}`
  expect((await first("POST", `${base}/pagar`, {})).status).toBe(202)
  const confirmed = await second("POST", `${base}/pagar/confirmar`)
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
  expect(confirmed.body).toMatchObject({
    estado: "REVISION",
    pago: { estado: "enviado" },
    banco: { estado: "ACEPTADA" }
  })
  return confirmed.body.pago.id as string
}

describe("the queue's payments through the bank are reconciled by themselves", () => {
  it("a four-eyes payment the bank accepted leaves 'Dinero en revisión' once the bank settles it, nobody pressing Consultar, sent once", async () => {
    expect(txns.every((t) => t !== "")).toBe(true)
    const first = await signedIn("tesoreria")
    const second = await signedIn("tesoreria")
    const started = Date.now()
    const pagoId = await pagarConCuatroOjos(first, second, txns[0] ?? "")
    await expect.poll(() => enCola(first, txns[0] ?? ""), { timeout: 10_000, interval: 200 }).toBeUndefined()
    const seconds = (Date.now() - started) / 1000
    expect(seconds).toBeLessThan(10)
    expect(queried).toContain(pagoId)
    expect(credited.filter((id) => id === pagoId)).toHaveLength(1)
    const [txn] = await db("select estado, referencia_banco from transacciones where id = $1", [txns[0]])
    expect(txn).toEqual({ estado: "LIQUIDADA", referencia_banco: "CONC0001" })
    const [pago] = await db("select estado, proxima_consulta from pagos_revision where id = $1", [pagoId])
    expect(pago).toEqual({ estado: "pagado", proxima_consulta: null })
    const notices = await db(
      "select data from eventos where evento = 'link.acreditado' and data->>'link_id' = $1",
      [links[0]]
    )
    expect(notices).toHaveLength(1)
    expect(notices[0].data).toMatchObject({ monto_acreditado: 99, liquidacion_txn_id: txns[0] })
    // The answer the reconciler heard is in the item's history, from nobody.
    const [answer] = await db(
      "select estado, referencia_banco, origen, operador_id from respuestas_banco where objeto_id = $1 order by id desc limit 1",
      [txns[0]]
    )
    expect(answer).toEqual({
      estado: "LIQUIDADA",
      referencia_banco: "CONC0001",
      origen: "envio",
      operador_id: null
    })
  })

  it("a rejection the reconciler hears fails the payment; the item stays with the bank's answer, asked no more", async () => {
    const first = await signedIn("tesoreria")
    const second = await signedIn("tesoreria")
    const pagoId = await pagarConCuatroOjos(first, second, txns[1] ?? "")
    await expect
      .poll(async () => (await db("select estado from pagos_revision where id = $1", [pagoId]))[0]?.estado, {
        timeout: 10_000,
        interval: 200
      })
      .toBe("fallido")
    const item = (await enCola(first, txns[1] ?? "")) as unknown as {
      ultima_respuesta: { estado: string; motivo_rechazo: string }
    }
    expect(item.ultima_respuesta).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "SALDO_INSUFICIENTE" })
    const asked = queried.filter((id) => id === pagoId).length
    await new Promise((r) => setTimeout(r, 1000))
    expect(queried.filter((id) => id === pagoId)).toHaveLength(asked)
    expect(credited.filter((id) => id === pagoId)).toHaveLength(1)
    // The owner heard that this payment could not be credited either.
    await expect
      .poll(
        async () =>
          (
            (await call(server.url, "GET", "/panel/dev/correos?formato=json")).body as Array<{
              to: string
              text: string
            }>
          ).some(
            (c) => c.to === owner && c.text.includes(txns[1] ?? "?") && c.text.includes("SALDO_INSUFICIENTE")
          ),
        { timeout: 15_000, interval: 200 }
      )
      .toBe(true)
  })
})

describe("the bank's own words in the queue", () => {
  it("an explicit rejection the normalised list calls DESCONOCIDO shows the bank's code and words as the reason and the last answer", async () => {
    const soporte = await signedIn("soporte")
    const item = (await enCola(soporte, txns[2] ?? "")) as unknown as {
      motivo: string
      ultima_respuesta: Record<string, unknown> | null
    }
    expect(item.motivo).toBe("DESCONOCIDO (banco 05: Transacción no aprobada por el banco emisor)")
    expect(item.ultima_respuesta).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "DESCONOCIDO",
      codigo_banco: "05",
      mensaje_banco: "Transacción no aprobada por el banco emisor",
      origen: "envio"
    })
    const history = await soporte(
      "GET",
      `/admin/v1/operador/revision/respuestas?objeto_tipo=liquidacion&objeto_id=${txns[2]}`
    )
    expect(history.body.data).toHaveLength(1)
    // The owner heard it could not be credited, in the bank's words, from the development mailbox.
    let mail: { subject: string; text: string } | undefined
    await expect
      .poll(
        async () => {
          const box = (await call(server.url, "GET", "/panel/dev/correos?formato=json")).body as Array<{
            to: string
            subject: string
            text: string
          }>
          mail = box.find((c) => c.to === owner && c.text.includes(txns[2] ?? "?"))
          return mail !== undefined
        },
        { timeout: 15_000, interval: 200 }
      )
      .toBe(true)
    expect(mail?.subject).toMatch(/^No pudimos acreditar una liquidación de Comercio /)
    expect(mail?.text).toContain(
      "La liquidación de Bs 99,00 del link " +
        `${links[2]} no se pudo acreditar a tu cuenta: DESCONOCIDO (banco 05: Transacción no aprobada por el banco emisor).`
    )
    expect(history.body.data[0]).toMatchObject({
      codigo_banco: "05",
      mensaje_banco: "Transacción no aprobada por el banco emisor"
    })
    // A known code keeps its normalised reason, and still carries the bank's words.
    expect(
      normalise({ estado: "RECHAZADA", codigo_respuesta: "51", descripcion: "Fondos insuficientes" })
    ).toEqual({
      estado: "RECHAZADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: "SALDO_INSUFICIENTE",
      codigo_banco: "51",
      mensaje_banco: "Fondos insuficientes"
    })
  })
})
