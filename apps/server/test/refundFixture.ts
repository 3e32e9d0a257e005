/**
 * The set-up the portal-refund tests share (direct/reembolsos, operador/revisionReembolsos): a
 * scripted live bank, the whole server in this process on it, and the steps to a refund: an
 * owner's session, the refunds pilot, a live merchant, a live link paid on its page, the refund
 * itself and a signed-in operator. Nothing of ours is mocked; only the bank answers as told.
 */
import { randomUUID } from "node:crypto"
import { HttpServer } from "@effect/platform"
import type { Ports } from "@switch/core"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import type Pg from "pg"
import { expect } from "vitest"
import { type ServerSettings, Settings } from "../src/Config.js"
import { HttpLive } from "../src/Http.js"
import { LiveBank } from "../src/platform/bank/Banks.js"
import { PgLive } from "../src/platform/Sql.js"
import { totpCode, totpStep } from "../src/platform/Totp.js"
import { openPage, PAYER } from "./checkoutHarness.js"
import {
  approveMerchant,
  call,
  freshDatabase,
  type TestServer,
  testSettings,
  verifyEmail
} from "./harness.js"
import { signInOperator } from "./operatorSession.js"
import { signInOwner } from "./ownerSession.js"

/** The password of every owner the fixture registers. */
export const PASSWORD = "una-clave-larga-1"

export const adminHeaders = { "x-admin-token": "admin-de-prueba" }

export const answer = (
  estado: Ports.BankAnswer["estado"],
  referencia: string | null = null
): Ports.BankAnswer => ({
  estado,
  referencia_banco: referencia,
  endtoend: null,
  motivo_rechazo: null
})

/** What the live bank answers; a test changes a field and the next request gets it. */
export interface RefundBank {
  debit: Ports.BankAnswer
  refund: Ports.BankAnswer
  query: Ports.BankAnswer
  refundDelayMs: number
  readonly refunds: Array<Ports.ReversalOrder>
}

/** The live bank: pays debits, answers refunds as the test says (after `refundDelayMs`), counts. */
export const refundBank = () => {
  const bank: RefundBank = {
    debit: answer("LIQUIDADA", "DEB0001"),
    refund: answer("LIQUIDADA", "DEV0001"),
    query: answer("DESCONOCIDA"),
    refundDelayMs: 0,
    refunds: []
  }
  const gateway: Ports.BankGateway["Type"] = {
    requestCode: () => Effect.succeed(answer("ACEPTADA")),
    debit: () => Effect.sync(() => bank.debit),
    credit: () => Effect.succeed(answer("ACEPTADA")),
    query: () => Effect.sync(() => bank.query),
    reverse: () => Effect.succeed(answer("ACEPTADA")),
    refund: (order) =>
      Effect.gen(function* () {
        bank.refunds.push(order)
        if (bank.refundDelayMs > 0) yield* Effect.sleep(`${bank.refundDelayMs} millis`)
        return bank.refund
      })
  }
  return { bank, gateway }
}

/** Starts the whole HTTP server on a fresh database with `gateway` as the live bank. */
export const startOnBank = async (
  gateway: Ports.BankGateway["Type"],
  overrides: Partial<ServerSettings>
): Promise<TestServer> => {
  const databaseUrl = await freshDatabase()
  const settings = testSettings(overrides)
  const runtime = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(Layer.succeed(LiveBank, gateway)),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, databaseUrl, settings, close: () => runtime.dispose() }
}

export interface Session {
  readonly headers: Record<string, string>
  readonly key: string
  readonly liveKey: string
  readonly codigo: string
}

/**
 * The refund steps on a started server. `server` and `db` are read when a step runs (they are
 * set in `beforeAll`); `bank` is the one {@link refundBank} made for that server.
 */
export const refundFixture = (server: () => TestServer, bank: RefundBank, db: () => Pg.Client) => {
  const signIn = (email: string) => signInOwner(server().url, email, PASSWORD)

  /** Turns the merchant's refunds pilot on (or off) with the admin token. */
  const pilot = async (codigo: string, on: boolean) => {
    const patched = await call(server().url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: adminHeaders,
      body: { reembolsos_habilitado: on }
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    expect(patched.body.reembolsos_habilitado).toBe(on)
  }

  /** An approved merchant whose owner (with TOTP) has a live session; the refunds pilot on unless `piloto` is false. */
  const liveMerchant = async (piloto = true): Promise<Session> => {
    const url = server().url
    const codigo = `r${randomUUID().slice(0, 8)}`
    const email = `${codigo}@dueno.example`
    const made = await call(url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: `Comercio ${codigo}`,
        identificacion: "J-07013380-5",
        email,
        password: PASSWORD
      }
    })
    expect(made.status).toBe(201)
    const liveKey = await approveMerchant(server(), codigo)
    // Live mode needs the owner's e-mail confirmed (issue 45).
    await verifyEmail(url, email)
    if (piloto) await pilot(codigo, true)
    const headers = await signIn(email)
    const { secreto } = (await call(url, "POST", "/switch/v1/sesion/totp", { headers })).body
    await call(url, "POST", "/switch/v1/sesion/totp/confirmar", {
      headers,
      body: { codigo: totpCode(secreto, totpStep(Date.now())) }
    })
    const live = await call(url, "POST", "/switch/v1/sesion/modo", { headers, body: { mode: "live" } })
    expect(live.status).toBe(200)
    return { headers, key: `${codigo}:${made.body.api_key}`, liveKey, codigo }
  }

  let phone = 2000000
  /** A live link of `monto` (and `propina`) paid on its page through the live bank. */
  const paidLink = async (s: Session, monto = 50, propina?: string) => {
    const link = await call(server().url, "POST", "/switch/v1/links", {
      key: s.liveKey,
      body: { monto, concepto: "Pedido" }
    })
    expect(link.status).toBe(201)
    const page = await openPage(server().url, link.body.id)
    const paid = await page.post("/pagar", {
      ...PAYER,
      telefono: `0414${String(phone++).padStart(7, "0")}`,
      otp: "87654321",
      ...(propina === undefined ? {} : { propina })
    })
    expect(paid.body.estado).toBe(bank.debit.estado === "LIQUIDADA" ? "pagado" : "procesando")
    return link.body.id as string
  }

  const refund = (s: Session, linkId: string, body: Record<string, unknown>, headers = s.headers) =>
    call(server().url, "POST", `/switch/v1/links/${linkId}/reembolsos`, {
      headers,
      body: { motivo: "Producto devuelto", idempotency_key: randomUUID(), ...body }
    })

  /** An operator of `rol` signed in: its cookie and CSRF token as request headers. */
  const operador = (rol: string) =>
    signInOperator(server().url, rol, { password: "una clave larga de operador", checkCreated: true })

  /** The `link.devuelto` notices of a link, in order. */
  const devueltos = async (linkId: string) =>
    (
      await db().query(
        "select data from eventos where evento = 'link.devuelto' and data->>'link_id' = $1 order by seq",
        [linkId]
      )
    ).rows.map((r) => r.data)

  return { signIn, pilot, liveMerchant, paidLink, refund, operador, devueltos }
}
