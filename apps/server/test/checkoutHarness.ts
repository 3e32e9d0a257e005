/**
 * The checkout's test server: the real HTTP server (harness.ts) plus a controllable
 * clock (Effect's Clock) and the live bank (the HTTP bank, or a scripted one), provided around
 * the server layer.
 */
import { HttpServer } from "@effect/platform"
import type { Ports } from "@switch/core"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { type ServerSettings, Settings } from "../src/Config.js"
import { HttpLive } from "../src/Http.js"
import { LiveBank } from "../src/platform/bank/Banks.js"
import { LiveBankLive } from "../src/platform/bank/HttpBank.js"
import { PgLive } from "../src/platform/Sql.js"
import { call, freshDatabase, movedClock, type TestServer, testSettings } from "./harness.js"

/** Time the server reads (Effect's Clock): `Date.now()` plus `offsetMs`, or `fixed` when set. */
export interface ControlledClock {
  offsetMs: number
  fixed: Date | null
}

export const startCheckoutServer = async (
  options: {
    readonly clock?: ControlledClock
    readonly liveBank?: Context<typeof LiveBank>
    /** Listen on this port (0: any), so settings such as `baseUrl` can name it beforehand. */
    readonly port?: number
    readonly settings?: Partial<ServerSettings>
  } = {}
): Promise<TestServer> => {
  const databaseUrl = await freshDatabase()
  const settings = testSettings(options.settings)
  const clock = options.clock
  const bank = options.liveBank === undefined ? LiveBankLive : Layer.succeed(LiveBank, options.liveBank)
  let layer = HttpLive({ port: options.port ?? 0, host: "127.0.0.1" }).pipe(
    Layer.provide(bank),
    Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
    Layer.provide(Layer.succeed(Settings, settings)),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  if (clock !== undefined)
    layer = layer.pipe(Layer.provide(movedClock(() => clock.fixed?.getTime() ?? Date.now() + clock.offsetMs)))
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, databaseUrl, settings, close: () => runtime.dispose() }
}

type Context<T> = T extends { Service: infer S } ? S : never
export type Gateway = Context<typeof LiveBank>

/** A live bank answering what the test says, counting its calls. */
export const scriptedBank = () => {
  const ok: Ports.BankAnswer = {
    estado: "ACEPTADA",
    referencia_banco: null,
    endtoend: null,
    motivo_rechazo: null
  }
  const state = {
    requestCode: ok as Ports.BankAnswer,
    debit: { ...ok, estado: "LIQUIDADA", referencia_banco: "LIVE0001" } as Ports.BankAnswer,
    calls: { requestCode: 0, debit: 0 }
  }
  const bank: Gateway = {
    requestCode: () =>
      Effect.sync(() => {
        state.calls.requestCode++
        return state.requestCode
      }),
    debit: () =>
      Effect.sync(() => {
        state.calls.debit++
        return state.debit
      }),
    credit: () => Effect.succeed(ok),
    query: () => Effect.succeed(state.debit),
    reverse: () => Effect.succeed(ok),
    refund: () => Effect.succeed(ok)
  }
  return { bank, state }
}

/** The page's session: its CSRF cookie and token, as the browser holds them. */
export const openPage = async (base: string, linkId: string) => {
  const response = await fetch(`${base}/l/${linkId}`)
  const html = await response.text()
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const csrf = /<meta name="csrf" content="([^"]+)"/.exec(html)?.[1] ?? ""
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(base, "POST", `/l/${linkId}${path}`, { body, headers: { cookie, "x-csrf": csrf, ...headers } })
  return { response, html, cookie, csrf, post }
}

export const PAYER = { banco: "0102", tipo_doc: "V", identificacion: "12345678", telefono: "04141234567" }
