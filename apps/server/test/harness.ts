/**
 * Test harness: a real server on loopback, on its own database made from the migrated
 * template, and small HTTP helpers. Nothing of ours is mocked.
 */
import { randomInt, randomUUID } from "node:crypto"
import { HttpServer } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import type Pg from "pg"
import { inject } from "vitest"
import { type ServerSettings, Settings } from "../src/Config.js"
import { HttpLive } from "../src/Http.js"
import { LiveBankLive } from "../src/platform/bank/HttpBank.js"
import { ensureDatabase } from "../src/platform/Database.js"
import { PgLive } from "../src/platform/Sql.js"
import { testSettings } from "./settings.js"

export interface TestServer {
  readonly url: string
  readonly databaseUrl: string
  readonly settings: ServerSettings
  readonly close: () => Promise<void>
}

/** A new database cloned from the migrated template. */
export const freshDatabase = async (): Promise<string> => {
  const admin = inject("pgAdminUrl")
  const name = `t_${randomUUID().replaceAll("-", "")}`
  await ensureDatabase(admin, name, inject("pgTemplate"))
  return admin.replace(/\/postgres$/, `/${name}`)
}

export { movedClock } from "../src/platform/Reloj.js"
export { testSettings }

/** Starts the whole HTTP server in this process on a free loopback port. */
export const startServer = async (
  options: { readonly settings?: Partial<ServerSettings>; readonly databaseUrl?: string } = {}
): Promise<TestServer> => {
  const databaseUrl = options.databaseUrl ?? (await freshDatabase())
  const settings = testSettings(options.settings)
  const runtime = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(LiveBankLive),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, databaseUrl, settings, close: () => runtime.dispose() }
}

export interface Reply<T = any> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

/** One JSON request; `key` goes in `x-switch-key`. */
export const call = async <T = any>(
  base: string,
  method: string,
  path: string,
  options: {
    readonly key?: string | undefined
    readonly body?: unknown
    readonly headers?: Record<string, string> | undefined
  } = {}
): Promise<Reply<T>> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.key === undefined ? {} : { "x-switch-key": options.key }),
      ...options.headers
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === "" ? null : JSON.parse(text)
  } catch {}
  return { status: response.status, body: body as T, headers: response.headers }
}

/** Registers a merchant and returns its `x-switch-key` value. */
export const registerMerchant = async (base: string, codigo = `c${randomUUID().slice(0, 8)}`) => {
  const reply = await call(base, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Comercio ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`
    }
  })
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return { codigo, key: `${codigo}:${reply.body.api_key}` }
}

/** The settlement account of every merchant {@link registerMerchant} makes: in its own RIF. */
export const OWN_ACCOUNT = {
  tipo: "cuenta",
  valor: "01050194651194079423",
  banco: "0105",
  identificacion: "J-07013380-5",
  nombre: "Comercio"
} as const

/**
 * Approves a merchant through the admin API, with its settlement account, and returns its live
 * `x-switch-key` value. Unless `reviewed` is false, the account is also reviewed, so the
 * new-account caps (in dollars, needing a BCV rate) do not apply.
 */
export const approveMerchant = async (
  server: TestServer,
  codigo: string,
  options: { reviewed?: boolean } = {}
) => {
  const headers = { "x-admin-token": "admin-de-prueba" }
  const reply = await call(server.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
    headers,
    // The live key is returned only on this explicit ask (issue 41).
    body: { cuenta_liquidacion: OWN_ACCOUNT, emitir_llave: true }
  })
  if (reply.status !== 200) throw new Error(`approve failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  if (options.reviewed !== false) {
    const review = await call(server.url, "POST", `/admin/v1/comercios/${codigo}/revisar`, { headers })
    if (review.status !== 200)
      throw new Error(`review failed: ${review.status} ${JSON.stringify(review.body)}`)
  }
  return `${codigo}:${reply.body.api_key}`
}

/**
 * Deadlocks Postgres has counted in the client's database. A backend reports its count lazily
 * (at the latest when it exits), so a test reads it after the connections it watches ended.
 */
export const deadlockCount = async (db: Pg.Client) =>
  Number(
    (await db.query("select deadlocks from pg_stat_database where datname = current_database()")).rows[0]
      .deadlocks
  )

/**
 * A client address of its own in 10.0.0.0/8, to send as `x-forwarded-for` to a server that
 * trusts 127.0.0.1 as a proxy (`proxiesConfiables`), so limits per address see another client.
 */
export const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

/**
 * Confirms `email` with the link mailed at its sign-up (issue 45: live mode needs it), read from
 * the development mailbox as its owner would. Waits for the mail, which is sent after the answer.
 */
export const verifyEmail = async (base: string, email: string) => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const box = (await call(base, "GET", "/panel/dev/correos?formato=json")).body as Array<{
      to: string
      text: string
    }>
    const token = box
      .filter((m) => m.to.toLowerCase() === email.toLowerCase())
      .map((m) => /\/panel\/verificar#token=([\w-]+)/.exec(m.text)?.[1])
      .find((t) => t !== undefined)
    if (token !== undefined) {
      const reply = await call(base, "POST", "/switch/v1/correo/verificar", { body: { token } })
      if (reply.status !== 200)
        throw new Error(`verify failed: ${reply.status} ${JSON.stringify(reply.body)}`)
      return
    }
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
