/**
 * Liveness, readiness and metrics (ops/OpsRoutes.ts, platform/Metrics.ts) on a real server and
 * Postgres: what a balancer and Prometheus see, including a database that stops answering and a
 * server that starts draining.
 */
import { Option, Redacted } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freshDatabase, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { routeOf } from "../platform/Metrics.js"

describe("health, readiness and metrics", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it("/healthz and /readyz answer without a key, never cached", async () => {
    const alive = await call(server.url, "GET", "/healthz")
    expect(alive.status).toBe(200)
    expect(alive.body).toEqual({ estado: "vivo" })
    expect(alive.headers.get("cache-control")).toBe("no-store")
    const ready = await call(server.url, "GET", "/readyz")
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ listo: true, base_de_datos: "ok", cola: "ok", drenando: false })
  })

  it("/metrics counts requests by route template and status, with latency, queue and pool", async () => {
    const { key } = await registerMerchant(server.url)
    for (let i = 0; i < 3; i++)
      expect(
        (await call(server.url, "POST", "/switch/v1/links", { key, body: { monto: 10, concepto: "x" } }))
          .status
      ).toBe(201)
    const link = await call(server.url, "POST", "/switch/v1/links?x=1", {
      key,
      body: { monto: 10, concepto: "y" }
    })
    await call(server.url, "GET", `/switch/v1/links/${link.body.id}`, { key })
    await call(server.url, "GET", "/switch/v1/links/00000000-0000-4000-8000-000000000000", { key })
    await call(server.url, "GET", "/no/existe/123")
    const reply = await fetch(`${server.url}/metrics`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/plain")
    const text = await reply.text()
    // The lane and the app count alike; ids never become labels.
    expect(text).toMatch(
      /switch_http_requests_total\{route="\/switch\/v1\/links",method="POST",status="201"\} [3-9]/
    )
    expect(text).toMatch(
      /switch_http_requests_total\{route="\/switch\/v1\/links\/:id",method="GET",status="200"\} 1/
    )
    expect(text).toMatch(
      /switch_http_requests_total\{route="no_encontrada",method="GET",status="404"\} [2-9]/
    )
    expect(text).not.toContain(link.body.id)
    expect(text).toMatch(
      /switch_http_request_duration_seconds_bucket\{le="0.05",route="\/switch\/v1\/links",method="POST"\}/
    )
    expect(text).toMatch(/switch_jobs_waiting \d+/)
    expect(text).toMatch(/switch_jobs_oldest_waiting_seconds [\d.]+/)
    expect(text).toMatch(/switch_db_pool_connections\{state="total"\} \d+/)
    expect(text).toMatch(/switch_process_cpu_seconds_total/)
    // Nothing secret in it: no key.
    expect(text).not.toContain(key.split(":")[1])
  })

  it("/readyz answers 503 from the moment the server is asked to stop, while it still answers", async () => {
    const own = await startServer({ settings: { drenajeSegundos: 2 } })
    expect((await call(own.url, "GET", "/readyz")).status).toBe(200)
    const closed = own.close()
    await new Promise((r) => setTimeout(r, 200))
    const draining = await call(own.url, "GET", "/readyz")
    expect(draining.status).toBe(503)
    expect(draining.body).toEqual({ listo: false, base_de_datos: "ok", cola: "ok", drenando: true })
    // Everything else still answers during the drain.
    expect((await call(own.url, "GET", "/healthz")).status).toBe(200)
    await closed
  })

  it("/readyz answers 503 when the database stops answering, and 200 again once it is back", async () => {
    const databaseUrl = await freshDatabase()
    const own = await startServer({ databaseUrl })
    const name = new URL(databaseUrl).pathname.slice(1)
    const admin = new pg.Client({ connectionString: databaseUrl.replace(`/${name}`, "/postgres") })
    await admin.connect()
    try {
      expect((await call(own.url, "GET", "/readyz")).status).toBe(200)
      await admin.query(`alter database "${name}" with allow_connections false`)
      // The API pool's connections only (application_name switch): graphile-worker's cron does
      // not survive its own connection being cut (an unhandled rejection inside the library).
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'switch'",
        [name]
      )
      const down = await call(own.url, "GET", "/readyz")
      expect(down.status).toBe(503)
      expect(down.body).toMatchObject({ listo: false, base_de_datos: "error" })
      expect(JSON.stringify(down.body)).not.toContain("postgres://")
      expect((await call(own.url, "GET", "/healthz")).status).toBe(200)
      await admin.query(`alter database "${name}" with allow_connections true`)
      expect((await call(own.url, "GET", "/readyz")).status).toBe(200)
    } finally {
      await admin.query(`alter database "${name}" with allow_connections true`)
      await admin.end()
      await own.close()
    }
  })

  it("/metrics asks for its token when one is set, and is not served in production without one", async () => {
    const guarded = await startServer({ settings: { metricsToken: Option.some(Redacted.make("tok-123")) } })
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401)
      expect(
        (await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer otro" } })).status
      ).toBe(401)
      expect(
        (await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer tok-123" } })).status
      ).toBe(200)
    } finally {
      await guarded.close()
    }
    const production = await startServer({ settings: { environment: "production" } })
    try {
      const hidden = await call(production.url, "GET", "/metrics")
      expect(hidden.status).toBe(404)
      expect(hidden.body).toEqual({ error: "not_found" })
    } finally {
      await production.close()
    }
  })
})

describe("route labels", () => {
  it("fold ids, codes, assets and client routes; keep words and versions", () => {
    expect(routeOf("/switch/v1/links", 201)).toBe("/switch/v1/links")
    expect(routeOf("/switch/v1/links/6f1c2b1e-1d2c-4b6a-9a3e-1c2d3e4f5a6b/cancelar", 200)).toBe(
      "/switch/v1/links/:id/cancelar"
    )
    expect(routeOf("/admin/v1/comercios/tienda/aprobar", 200)).toBe("/admin/v1/comercios/:id/aprobar")
    expect(routeOf("/switch/v1/comercios/registrar", 201)).toBe("/switch/v1/comercios/registrar")
    expect(routeOf("/switch/v1/verificar/ABC123", 200)).toBe("/switch/v1/verificar/:id")
    expect(routeOf("/panel/assets/index-B2x9.js", 200)).toBe("/panel/assets/:archivo")
    expect(routeOf("/panel/links/nuevo", 200)).toBe("/panel/*")
    expect(routeOf("/cualquier/cosa", 404)).toBe("no_encontrada")
  })
})

describe("bank calls", () => {
  it("are counted by mode, operation and the state the bank answered", async () => {
    const { counted } = await import("../platform/bank/Banks.js")
    const { Effect } = await import("effect")
    const { registry } = await import("../platform/Metrics.js")
    const answer = (estado: string) => () =>
      Effect.succeed({ estado, referencia_banco: null, endtoend: null, motivo_rechazo: null } as never)
    // The bank is outside the system: a gateway that answers at once stands for it.
    const gateway = counted("live", {
      requestCode: answer("ACEPTADA"),
      debit: answer("RECHAZADA"),
      credit: answer("ACEPTADA"),
      query: answer("DESCONOCIDA"),
      reverse: answer("ACEPTADA"),
      refund: answer("ACEPTADA")
    })
    await Effect.runPromise(gateway.debit({} as never))
    await Effect.runPromise(gateway.debit({} as never))
    await Effect.runPromise(gateway.query("x"))
    const text = await registry.metrics()
    expect(text).toMatch(/switch_bank_calls_total\{mode="live",operation="debito",state="RECHAZADA"\} 2/)
    expect(text).toMatch(/switch_bank_calls_total\{mode="live",operation="consulta",state="DESCONOCIDA"\} 1/)
  })
})
