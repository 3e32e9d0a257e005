/**
 * The opt-in daily summary mail (issue 45) against the real server, its Effect Clock moved to a
 * Caracas morning: the owner opts in through the portal's session (a key is 401, a cajero 403),
 * live activity on a day, the job run for that day; the mail read from the development mailbox
 * has the subject, the amounts in Venezuelan format and no secrets, comes once however often
 * the job runs, and never to a merchant opted out or idle that day.
 */
import { randomUUID } from "node:crypto"
import { HttpServer } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freshDatabase, movedClock, type TestServer, testSettings } from "../../test/harness.js"
import { type ServerSettings, Settings } from "../Config.js"
import { HttpLive } from "../Http.js"
import { LiveBankLive } from "../platform/bank/HttpBank.js"
import { hashPassword } from "../platform/Passwords.js"
import { PgLive } from "../platform/Sql.js"

const PASSWORD = "una-clave-larga-1"
/** 07:00:05 in Caracas on 21/11/2026: the summary of 20/11 is due. */
let at = Date.parse("2026-11-21T11:00:05Z")
let server: TestServer
let db: Pg.Client

/** The whole server on a fresh database, its clock at `at`. */
const start = async (overrides: Partial<ServerSettings> = {}): Promise<TestServer> => {
  const databaseUrl = await freshDatabase()
  const settings = testSettings({ apiPorMinuto: 100_000, ...overrides })
  const runtime = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(LiveBankLive),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 10 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(movedClock(() => at)),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
    )
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, databaseUrl, settings, close: () => runtime.dispose() }
}

beforeAll(async () => {
  server = await start()
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
}, 120_000)
afterAll(async () => {
  await db?.end()
  await server?.close()
})

interface Correo {
  readonly to: string
  readonly subject: string
  readonly text: string
}

const buzon = async (to: string): Promise<Array<Correo>> =>
  ((await call(server.url, "GET", "/panel/dev/correos?formato=json")).body as Array<Correo>).filter(
    (m) => m.to === to && m.subject.startsWith("Resumen del")
  )

const signIn = async (email: string) => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const body = (await reply.json()) as { csrf_token: string }
  return {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
}

const merchant = async () => {
  const codigo = `r${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const id = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id as string
  return { codigo, id, email, key: `${codigo}:${made.body.api_key}`, headers: await signIn(email) }
}

type M = Awaited<ReturnType<typeof merchant>>

const optIn = async (m: M, value: boolean) => {
  const put = await call(server.url, "PUT", "/switch/v1/resumen-diario", {
    headers: m.headers,
    body: { resumen_diario: value }
  })
  expect(put.status, JSON.stringify(put.body)).toBe(200)
  expect(put.body).toEqual({ resumen_diario: value })
}

/** A live link paid at `paidAt` for `monto` cents plus `propina`. */
const pagado = (m: M, paidAt: string, monto: number, propina = 0, mode = "live") =>
  db.query(
    `insert into links (id, comercio_id, mode, estado, monto, propina, concepto, expires_at, paid_at)
     values ($1, $2, $3, 'pagado', $4, $5, 'Resumen', $6, $6)`,
    [randomUUID(), m.id, mode, monto, propina, paidAt]
  )

const transaccion = (m: M, operacion: string, estado: string, monto: number, createdAt: string) =>
  db.query(
    `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, created_at, liquidada_at)
     values ($1, $2, 'live', $3, $4, $5, 'VES', $6, case when $4 = 'LIQUIDADA' then $6::timestamptz end)`,
    [randomUUID(), m.id, operacion, estado, monto, createdAt]
  )

/** Runs the job now (as its 07:00 schedule would) and waits until it queued its next run. */
const runJob = async () => {
  await db.query(
    `select graphile_worker.add_job('resumen_diario', '{}'::json, job_key := 'resumen_diario', job_key_mode := 'replace')`
  )
  await expect
    .poll(
      async () =>
        Number(
          (
            await db.query(
              `select count(*) from graphile_worker.jobs
               where task_identifier = 'resumen_diario' and run_at <= now() + interval '1 minute'`
            )
          ).rows[0].count
        ),
      { timeout: 20_000, interval: 200 }
    )
    .toBe(0)
}

describe("the daily summary mail", () => {
  it("only the owner's session reads and sets it: off by default, a key 401, a cajero 403", async () => {
    const m = await merchant()
    expect((await call(server.url, "GET", "/switch/v1/resumen-diario", { headers: m.headers })).body).toEqual(
      {
        resumen_diario: false
      }
    )
    expect((await call(server.url, "GET", "/switch/v1/resumen-diario", { key: m.key })).status).toBe(401)
    const email = `cajero-${randomUUID().slice(0, 8)}@equipo.example`
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) values ($1, $2, $3, $4, 'cajero')",
      [randomUUID(), m.id, email, await hashPassword(PASSWORD)]
    )
    const cajero = await signIn(email)
    expect((await call(server.url, "GET", "/switch/v1/resumen-diario", { headers: cajero })).status).toBe(403)
    const refused = await call(server.url, "PUT", "/switch/v1/resumen-diario", {
      headers: cajero,
      body: { resumen_diario: true }
    })
    expect(refused.status).toBe(403)
    const noCsrf = await call(server.url, "PUT", "/switch/v1/resumen-diario", {
      headers: { cookie: m.headers.cookie },
      body: { resumen_diario: true }
    })
    expect(noCsrf.status).toBe(403)
    await optIn(m, true)
    expect((await call(server.url, "GET", "/switch/v1/resumen-diario", { headers: m.headers })).body).toEqual(
      {
        resumen_diario: true
      }
    )
    // The change is in the owner's audit log.
    const log = await db.query("select accion, objeto from actividad where comercio_id = $1", [m.id])
    expect(log.rows).toContainEqual({ accion: "PUT", objeto: "/switch/v1/resumen-diario" })
  })

  it("mails yesterday's live figures once; nothing for one opted out or idle", async () => {
    const activo = await merchant()
    const fuera = await merchant()
    const quieto = await merchant()
    await optIn(activo, true)
    await optIn(quieto, true)
    await optIn(fuera, true)
    await optIn(fuera, false)
    // 20/11 in Caracas runs from 04:00 UTC on the 20th to 04:00 UTC on the 21st.
    await pagado(activo, "2026-11-20T04:00:00Z", 123_456, 10_000)
    await pagado(activo, "2026-11-21T03:59:59Z", 100_000)
    await pagado(activo, "2026-11-20T03:59:59Z", 999_999) // 19/11 in Caracas
    await pagado(activo, "2026-11-20T15:00:00Z", 777_777, 0, "test") // test mode
    await transaccion(activo, "devolucion", "LIQUIDADA", 5_000, "2026-11-20T16:00:00Z")
    await transaccion(activo, "liquidacion", "LIQUIDADA", 200_000, "2026-11-20T17:00:00Z")
    await transaccion(activo, "liquidacion", "REVISION", 30_000, "2026-11-20T18:00:00Z")
    await transaccion(activo, "liquidacion", "RECHAZADA", 40_000, "2026-11-20T19:00:00Z")
    await pagado(fuera, "2026-11-20T15:00:00Z", 50_000)
    await pagado(quieto, "2026-11-19T15:00:00Z", 50_000) // the day before: idle on 20/11

    await runJob()
    await runJob()
    const mails = await buzon(activo.email)
    expect(mails).toHaveLength(1)
    const [mail] = mails as [Correo]
    expect(mail.subject).toBe(`Resumen del 20/11/2026 de Comercio ${activo.codigo}`)
    expect(mail.text).toContain("Links pagados: 2 por Bs 2.234,56")
    expect(mail.text).toContain("Propinas: Bs 100,00")
    expect(mail.text).toContain("Reembolsos: 1 por Bs 50,00")
    expect(mail.text).toContain("Liquidaciones acreditadas: 1 por Bs 2.000,00")
    expect(mail.text).toContain("Liquidaciones en revisión: 1")
    expect(mail.text).toContain("Liquidaciones rechazadas: 1")
    expect(mail.text).toContain(`${server.settings.baseUrl}/panel`)
    expect(mail.text).not.toMatch(/sk_(test|live)_|token=|api_key|\d{20}/)
    expect(mail.text).not.toContain(activo.key)
    expect(await buzon(fuera.email)).toEqual([])
    expect(await buzon(quieto.email)).toEqual([])

    // The next morning: 21/11's summary; 19/11's is never sent.
    await pagado(activo, "2026-11-21T12:00:00Z", 1_000)
    at = Date.parse("2026-11-22T11:00:05Z")
    await runJob()
    const next = await buzon(activo.email)
    expect(next).toHaveLength(2)
    const segundo = next.find((m) => m.subject === `Resumen del 21/11/2026 de Comercio ${activo.codigo}`)
    expect(segundo?.text).toContain("Links pagados: 1 por Bs 10,00")
    expect(segundo?.text).not.toContain("en revisión")
    expect(await buzon(quieto.email)).toEqual([])
  })

  it("two processes running the same day mail once", async () => {
    at = Date.parse("2026-11-23T11:00:05Z")
    const m = await merchant()
    await optIn(m, true)
    await pagado(m, "2026-11-22T15:00:00Z", 10_000)
    // Two more runs without the job key, as if other processes ran it at the same time.
    await db.query(`select graphile_worker.add_job('resumen_diario', '{}'::json)`)
    await db.query(`select graphile_worker.add_job('resumen_diario', '{}'::json)`)
    await runJob()
    await expect.poll(async () => (await buzon(m.email)).length, { timeout: 15_000 }).toBe(1)
    await new Promise((r) => setTimeout(r, 1500))
    expect(await buzon(m.email)).toHaveLength(1)
  })

  it("a mail server down sends nothing, claims no day, and tries again in 5 minutes", async () => {
    at = Date.parse("2026-11-24T11:00:05Z")
    // SMTP on a closed loopback port: every send fails.
    const down = await start({ smtpUrl: Option.some(Redacted.make("smtp://127.0.0.1:9")) })
    const ddb = new Pg.Client({ connectionString: down.databaseUrl })
    await ddb.connect()
    try {
      const codigo = `r${randomUUID().slice(0, 8)}`
      const id = randomUUID()
      await ddb.query(
        `insert into comercios (id, codigo, nombre, identificacion, email, estado, resumen_diario)
         values ($1, $2, $3, 'J-07013380-5', $4, 'activo', true)`,
        [id, codigo, `Comercio ${codigo}`, `${codigo}@dueno.example`]
      )
      await ddb.query(
        `insert into links (id, comercio_id, mode, estado, monto, concepto, expires_at, paid_at)
         values ($1, $2, 'live', 'pagado', 10000, 'Resumen', $3, $3)`,
        [randomUUID(), id, "2026-11-23T15:00:00Z"]
      )
      await ddb.query(
        `select graphile_worker.add_job('resumen_diario', '{}'::json, job_key := 'resumen_diario', job_key_mode := 'replace')`
      )
      // The run queues its retry about 5 minutes on, not tomorrow's 07:00.
      await expect
        .poll(
          async () =>
            (
              await ddb.query(
                `select extract(epoch from run_at - now())::float8 as s from graphile_worker.jobs
                 where task_identifier = 'resumen_diario'`
              )
            ).rows.map((r) => Math.round(Number(r.s) / 60)),
          { timeout: 30_000, interval: 250 }
        )
        .toEqual([5])
      expect((await ddb.query("select * from resumenes_diarios where comercio_id = $1", [id])).rows).toEqual(
        []
      )
    } finally {
      await ddb.end()
      await down.close()
    }
  }, 60_000)
})
