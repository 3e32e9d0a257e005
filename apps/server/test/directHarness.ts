/**
 * The direct API's test rig: the real server in-process (harness.ts's way) whose live bank is a
 * real bank simulator on loopback (apps/bank-sim, over HTTP), a controllable clock, and helpers
 * to read the simulator's books and the server's database.
 */
import { randomUUID } from "node:crypto"
import { HttpServer } from "@effect/platform"
import { type BankSim, startBankSim } from "@switch/bank-sim"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import Pg from "pg"
import { type ServerSettings, Settings } from "../src/Config.js"
import { HttpLive } from "../src/Http.js"
import { LiveBankLive } from "../src/platform/bank/HttpBank.js"
import { PgLive } from "../src/platform/Sql.js"
import {
  approveMerchant,
  call,
  freshDatabase,
  movedClock,
  registerMerchant,
  type TestServer,
  testSettings
} from "./harness.js"

export interface DirectRig {
  readonly server: TestServer
  readonly sim: BankSim
  readonly clock: { fixed: Date | null }
  readonly db: Pg.Client
  readonly close: () => Promise<void>
}

export const startDirect = async (overrides: Partial<ServerSettings> = {}): Promise<DirectRig> => {
  const sim = await startBankSim({ port: 0, config: { confirmacionCreditoMs: 300 } })
  const databaseUrl = await freshDatabase()
  const settings = testSettings({
    bankUrl: sim.url,
    bankTimeoutMs: 700,
    conciliarSegundos: 0.2,
    conciliarAbandonoSegundos: 3,
    apiPorMinuto: 100_000,
    // Real-time tests must not depend on the hour; the close is tested on a controlled clock.
    cierreBancario: false,
    ...overrides
  })
  const clock = { fixed: null as Date | null }
  const runtime = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(LiveBankLive),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 20 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(movedClock(() => clock.fixed?.getTime() ?? Date.now())),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
    )
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const db = new Pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const server: TestServer = {
    url: `http://127.0.0.1:${address.port}`,
    databaseUrl,
    settings,
    close: () => runtime.dispose()
  }
  return {
    server,
    sim,
    clock,
    db,
    close: async () => {
      await db.end()
      await runtime.dispose()
      await sim.close()
    }
  }
}

/** A merchant just registered (not reviewed): its test key only. */
export const registerMerchantOnly = (rig: DirectRig) => registerMerchant(rig.server.url)

/**
 * A merchant with its test key and (approved) live key; reviewed unless `reviewed` is false, so
 * the new-account caps (in dollars) stay out of the way.
 */
export const merchant = async (rig: DirectRig, options: { reviewed?: boolean } = {}) => {
  const m = await registerMerchant(rig.server.url)
  const live = await approveMerchant(rig.server, m.codigo, options)
  return { codigo: m.codigo, test: m.key, live }
}

export const admin = (rig: DirectRig, method: string, path: string, body?: unknown) =>
  call(rig.server.url, method, path, { body, headers: { "x-admin-token": "admin-de-prueba" } })

export const simCall = async (rig: DirectRig, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${rig.sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: r.status, body: (await r.json()) as any }
}

export const counters = async (rig: DirectRig) => (await simCall(rig, "GET", "/admin/estado")).body.contadores

export const balance = async (rig: DirectRig, banco: string, valor: string) =>
  (await simCall(rig, "GET", `/admin/cuentas/${banco}/${valor}`)).body.saldo as number

let phoneSeq = 1_000_000 + Math.floor(Math.random() * 8_000_000)

/** A payer with its own phone and account at `banco`, holding `saldo` cents at the simulator. */
export const payer = async (rig: DirectRig, saldo = 1_000_000, banco = "0102") => {
  const telefono = `0414${String(phoneSeq++).padStart(7, "0")}`
  await simCall(rig, "POST", "/admin/cuentas", {
    banco,
    numero: `${banco}${telefono.slice(1).padStart(16, "0")}`,
    telefono,
    identificacion: "V12345678",
    saldo
  })
  return {
    tipo: "telefono",
    valor: telefono,
    banco,
    identificacion: "V-12345678",
    tipo_doc: "V",
    nombre: "Ana Pérez"
  }
}

export const COBRADOR = {
  tipo: "cuenta",
  valor: "01340000000000000001",
  banco: "0134",
  identificacion: "J-070133805",
  tipo_doc: "J",
  nombre: "Comercio"
}

export const tokenBody = (pagador: unknown, monto = 10, extra: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: monto, moneda: "VES" },
  concepto: "Pedido 1",
  cobrador: COBRADOR,
  pagador,
  ...extra
})

/** The last code the simulator sent to this phone. */
export const codeFor = async (rig: DirectRig, p: { banco: string; valor: string }) =>
  (await simCall(rig, "GET", `/admin/codigos/${p.banco}/${p.valor}`)).body.codigo as string

/** How many notices of each kind an operation has. */
export const notices = async (rig: DirectRig, id: string) => {
  const r = await rig.db.query<{ evento: string; n: string }>(
    "select evento, count(*) as n from eventos where data->>'id' = $1 group by evento",
    [id]
  )
  return Object.fromEntries(r.rows.map((row) => [row.evento, Number(row.n)]))
}

/** Polls `/consultar` until `estado` is reached (or the time is up) and returns the last result. */
export const until = async (rig: DirectRig, key: string, id: string, estado: string, ms = 8_000) => {
  const end = Date.now() + ms
  let last: any = null
  while (Date.now() < end) {
    last = (await call(rig.server.url, "POST", "/switch/v1/consultar", { key, body: { id } })).body
    if (last?.estado === estado) return last
    await new Promise((r) => setTimeout(r, 150))
  }
  return last
}

export { call }

/** Waits for the stored state, without asking the bank: what the reconciler alone did. */
export const stored = async (rig: DirectRig, id: string, estado: string, ms = 10_000) => {
  const end = Date.now() + ms
  let row: any = null
  while (Date.now() < end) {
    row = (await rig.db.query("select * from transacciones where id = $1", [id])).rows[0]
    if (row?.estado === estado) return row
    await new Promise((r) => setTimeout(r, 100))
  }
  return row
}
