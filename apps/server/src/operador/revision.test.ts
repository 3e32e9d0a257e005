/**
 * Money in review from the console: settlements a bank left unclear reach the queue and a
 * `tesoreria` operator resolves them (mark paid with the bank's reference, close without paying
 * with a note, ask the bank again), each with its audit row and the notices SPEC names.
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
import { markPaid } from "../platform/PaymentRecorder.js"
import { PgLive } from "../platform/Sql.js"
import { runSettlement, SettlementsLive } from "../settlement/Settlement.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de tesoreria"
let server: TestServer
let links: Array<string>
let txns: Array<string>
let credits = 0

const db = async <T = any>(text: string, values: Array<unknown> = []): Promise<Array<T>> => {
  const client = new Pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Array<T>
  } finally {
    await client.end()
  }
}

/** Three live links paid, their settlements sent to a bank that answers DESCONOCIDA: in review. */
beforeAll(async () => {
  const setup = await startServer()
  let databaseUrl: string
  let comercioId: string
  try {
    databaseUrl = setup.databaseUrl
    const m = await registerMerchant(setup.url)
    const liveKey = await approveMerchant(setup, m.codigo)
    const patched = await call(setup.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
      headers: TOKEN,
      body: { liquidacion_inmediata: true }
    })
    expect(patched.status).toBe(200)
    links = []
    for (let i = 0; i < 4; i++) {
      const link = await call(setup.url, "POST", "/switch/v1/links", {
        key: liveKey,
        body: { monto: 100, concepto: "x" }
      })
      expect(link.status).toBe(201)
      links.push(link.body.id)
    }
    comercioId = (await call(setup.url, "GET", `/admin/v1/comercios/${m.codigo}`, { headers: TOKEN })).body.id
  } finally {
    await setup.close()
  }
  const unclear: Ports.BankAnswer = {
    estado: "DESCONOCIDA",
    referencia_banco: null,
    endtoend: null,
    motivo_rechazo: null
  }
  const gateway: Ports.BankGateway["Type"] = {
    requestCode: () => Effect.succeed(unclear),
    debit: () => Effect.succeed(unclear),
    credit: () => Effect.succeed(unclear),
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
            comercioId: row?.comercio_id ?? comercioId,
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
  // The server, with a live bank that pays every credit and never knows the answer when asked.
  const live: Ports.BankGateway["Type"] = {
    ...gateway,
    credit: () =>
      Effect.sync(() => {
        credits++
        return {
          estado: "LIQUIDADA",
          referencia_banco: "PAGO0001",
          endtoend: null,
          motivo_rechazo: null
        } as const
      })
  }
  const serving = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(Layer.succeed(LiveBank, live)),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
      Layer.provide(Layer.succeed(Settings, testSettings())),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const address = await serving.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  server = {
    url: `http://127.0.0.1:${address.port}`,
    databaseUrl,
    settings: testSettings(),
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

const acreditados = (linkId: string) =>
  db("select data from eventos where evento = 'link.acreditado' and data->>'link_id' = $1", [linkId])

describe("money in review", () => {
  it("the queue lists the settlements in review with their age and amount; soporte reads it but cannot resolve", async () => {
    expect(txns.every((t) => t !== "")).toBe(true)
    const soporte = await signedIn("soporte")
    const queue = await soporte("GET", "/admin/v1/operador/revision")
    expect(queue.status).toBe(200)
    const items = queue.body.data.filter((i: { tipo: string }) => i.tipo === "liquidacion")
    expect(items.map((i: { id: string }) => i.id).sort()).toEqual([...txns].sort())
    expect(items[0]).toMatchObject({ mode: "live", monto: 99, con_reparto: false, motivo: "DESCONOCIDA" })
    expect(items[0].edad_segundos).toBeGreaterThanOrEqual(0)
    expect((await soporte("GET", "/admin/v1/operador/resumen")).body.liquidaciones_en_revision).toBe(4)
    const refused = await soporte(
      "POST",
      `/admin/v1/operador/revision/liquidaciones/${txns[0]}/marcar-pagada`,
      {
        referencia_banco: "BANCO123"
      }
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_insuficiente")
    const riesgo = await signedIn("riesgo")
    expect(
      (await riesgo("POST", `/admin/v1/operador/revision/liquidaciones/${txns[0]}/cerrar`, { nota: "no" }))
        .status
    ).toBe(403)
  })

  it("tesoreria marks one paid with the bank's reference (link.acreditado once) and closes one without paying, each confirmed by a second operator; asks the bank about one", async () => {
    const tesoreria = await signedIn("tesoreria")
    const segundo = await signedIn("tesoreria")
    const base = "/admin/v1/operador/revision/liquidaciones"

    expect((await tesoreria("POST", `${base}/${txns[0]}/marcar-pagada`, {})).status).toBe(400)
    // SWITCH_CUATRO_OJOS_DESDE unset: every amount waits for a second operator.
    const pending = await tesoreria("POST", `${base}/${txns[0]}/marcar-pagada`, {
      referencia_banco: "BANCO123",
      nota: "visto en el extracto"
    })
    expect(pending.status, JSON.stringify(pending.body)).toBe(202)
    expect(pending.body.estado).toBe("pendiente_confirmacion")
    expect(await acreditados(links[0] ?? "")).toHaveLength(0)
    expect((await tesoreria("POST", `${base}/${txns[0]}/marcar-pagada/confirmar`, {})).status).toBe(403)
    const paid = await segundo("POST", `${base}/${txns[0]}/marcar-pagada/confirmar`, {})
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body).toMatchObject({ estado: "LIQUIDADA", referencia_banco: "BANCO123" })
    const again = await tesoreria("POST", `${base}/${txns[0]}/marcar-pagada`, {
      referencia_banco: "BANCO999"
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("no_en_revision")
    const notices = await acreditados(links[0] ?? "")
    expect(notices).toHaveLength(1)
    expect(notices[0].data).toMatchObject({
      link_id: links[0],
      monto_acreditado: 99,
      liquidacion_txn_id: txns[0],
      mode: "live"
    })

    expect((await tesoreria("POST", `${base}/${txns[1]}/cerrar`, {})).status).toBe(400)
    expect(
      (
        await tesoreria("POST", `${base}/${txns[1]}/cerrar`, {
          nota: "el comercio devolvió el dinero al pagador"
        })
      ).status
    ).toBe(202)
    const closed = await segundo("POST", `${base}/${txns[1]}/cerrar/confirmar`, {})
    expect(closed.status).toBe(200)
    expect(closed.body.estado).toBe("RECHAZADA")
    expect(await acreditados(links[1] ?? "")).toHaveLength(0)

    // The bank does not know: the settlement stays in review.
    const asked = await tesoreria("POST", `${base}/${txns[2]}/consultar`)
    expect(asked.status).toBe(200)
    expect(asked.body.estado).toBe("REVISION")
    expect(asked.body.banco.estado).not.toBe("LIQUIDADA")

    const [state] = await db("select estado, referencia_banco from transacciones where id = $1", [txns[0]])
    expect(state).toEqual({ estado: "LIQUIDADA", referencia_banco: "BANCO123" })
    const audit = await db<{ accion: string; objeto_id: string; nota: string | null }>(
      "select accion, objeto_id, nota from auditoria where objeto_tipo = 'liquidacion' order by id"
    )
    expect(audit).toEqual([
      { accion: "liquidacion.marcar_pagada_solicitado", objeto_id: txns[0], nota: "visto en el extracto" },
      { accion: "liquidacion.marcar_pagada_confirmado", objeto_id: txns[0], nota: "visto en el extracto" },
      {
        accion: "liquidacion.cerrar_sin_pagar_solicitado",
        objeto_id: txns[1],
        nota: "el comercio devolvió el dinero al pagador"
      },
      {
        accion: "liquidacion.cerrar_sin_pagar_confirmado",
        objeto_id: txns[1],
        nota: "el comercio devolvió el dinero al pagador"
      },
      { accion: "liquidacion.consultar_banco", objeto_id: txns[2], nota: null }
    ])
    const queue = await tesoreria("GET", "/admin/v1/operador/revision")
    // The bank's latest answer shows on the item; its history keeps every answer.
    const unclear = queue.body.data.find((i: { id: string }) => i.id === txns[2])
    expect(unclear.ultima_respuesta).toMatchObject({ estado: asked.body.banco.estado, origen: "operador" })
    await tesoreria("POST", `${base}/${txns[2]}/consultar`)
    const history = await tesoreria(
      "GET",
      `/admin/v1/operador/revision/respuestas?objeto_tipo=liquidacion&objeto_id=${txns[2]}`
    )
    // The settlement job's own answer that put it in review, then the two questions (issue 45).
    expect(history.body.data.map((r: { origen: string }) => r.origen)).toEqual([
      "operador",
      "operador",
      "envio"
    ])
    expect(
      queue.body.data
        .filter((i: { tipo: string }) => i.tipo === "liquidacion")
        .map((i: { id: string }) => i.id)
        .sort()
    ).toEqual([txns[2], txns[3]].sort())
  })

  it("paying through the bank needs a second tesoreria operator; it is sent once, with its own order id", async () => {
    const first = await signedIn("tesoreria")
    const second = await signedIn("tesoreria")
    const base = `/admin/v1/operador/revision/liquidaciones/${txns[3]}`
    const asked = await first("POST", `${base}/pagar`, { nota: "el banco confirmó la cuenta" })
    expect(asked.status).toBe(202)
    expect(asked.body.pago).toMatchObject({ estado: "pendiente", requiere_confirmacion: true })
    expect((await second("POST", `${base}/pagar`, {})).body.error).toBe("pago_en_curso")

    const alone = await first("POST", `${base}/pagar/confirmar`)
    expect(alone.status).toBe(403)
    expect(alone.body.error).toBe("cuatro_ojos")
    expect(credits).toBe(0)
    // Nor can it be marked paid or closed while the payment is pending.
    expect((await second("POST", `${base}/marcar-pagada`, { referencia_banco: "OTRA1234" })).body.error).toBe(
      "pago_en_curso"
    )

    const confirmed = await second("POST", `${base}/pagar/confirmar`)
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body).toMatchObject({
      estado: "LIQUIDADA",
      referencia_banco: "PAGO0001",
      pago: { estado: "pagado" }
    })
    expect(credits).toBe(1)
    expect(await acreditados(links[3] ?? "")).toHaveLength(1)
    expect((await second("POST", `${base}/pagar/confirmar`)).status).toBe(409)
    expect(credits).toBe(1)
    const [pago] = await db(
      "select id, estado, solicitado_por <> confirmado_por as cuatro_ojos from pagos_revision where transaccion_id = $1",
      [txns[3]]
    )
    expect(pago).toMatchObject({ id: asked.body.pago.id, estado: "pagado", cuatro_ojos: true })
    // The database itself refuses a request confirmed by the operator who made it.
    await expect(
      db("update pagos_revision set confirmado_por = solicitado_por where id = $1", [pago.id])
    ).rejects.toThrow(/check/)
    const audit = await db<{ accion: string }>(
      "select accion from auditoria where objeto_id = $1 order by id",
      [txns[3]]
    )
    expect(audit.map((a) => a.accion)).toEqual([
      "liquidacion.pagar_solicitado",
      "liquidacion.pagar_confirmado",
      "liquidacion.pagar_enviado"
    ])
  })
})
