/**
 * Link creation is served by a lane in front of the HttpApi app (http/Edge.ts, links/CreateLink.ts). The HttpApi
 * handler still serves the same route when the URL carries a query string, so every answer of
 * the lane is compared here with the app's: status, body, and the headers a client reads.
 * (An empty query, `links?`, is dropped by fetch: the app's URL carries a parameter.)
 */
import { randomUUID } from "node:crypto"
import { connect } from "node:net"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { call, type Reply, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let limited: TestServer
let proxied: TestServer
/** A limit high enough that the process claims requests in batches and admits from memory. */
let leased: TestServer

beforeAll(async () => {
  ;[server, limited, proxied, leased] = await Promise.all([
    startServer({ settings: { apiPorMinuto: 100_000 } }),
    startServer({ settings: { apiPorMinuto: 3 } }),
    startServer({ settings: { apiPorMinuto: 2, proxiesConfiables: ["127.0.0.1"] } }),
    startServer({ settings: { apiPorMinuto: 200 } })
  ])
})
afterAll(() => Promise.all([server.close(), limited.close(), proxied.close(), leased.close()]))

const LANE = "/switch/v1/links"
const APP = "/switch/v1/links?via=app"

const admin = (method: string, path: string, body?: unknown) =>
  call(server.url, method, path, {
    ...(body === undefined ? {} : { body }),
    headers: { "x-admin-token": "admin-de-prueba" }
  })

/** A raw request, for bodies that are not JSON. */
const raw = async (base: string, path: string, body: string, headers: Record<string, string>) => {
  const response = await fetch(`${base}${path}`, { method: "POST", headers, body })
  const text = await response.text()
  return { status: response.status, body: JSON.parse(text), headers: response.headers } as Reply
}

/** What a client can see of an answer, with the per-link values (ids, times) blanked. */
const seen = (reply: Reply) => {
  /** `value` with the link's id blanked: its url, code and share link name the link. */
  const blank = (value: unknown) =>
    typeof value === "string" ? value.replaceAll(String(reply.body.id), "·") : typeof value
  const body =
    reply.body !== null && typeof reply.body === "object" && "id" in reply.body
      ? {
          ...reply.body,
          id: "·",
          url: blank(reply.body.url),
          qr_png: blank(reply.body.qr_png),
          wa_deeplink: blank(reply.body.wa_deeplink),
          created_at: typeof reply.body.created_at,
          expires_at: typeof reply.body.expires_at
        }
      : reply.body
  return {
    status: reply.status,
    body,
    contentType: reply.headers.get("content-type"),
    requestId: /^[0-9a-f-]{36}$/.test(reply.headers.get("x-request-id") ?? ""),
    retryAfter: reply.headers.get("retry-after")
  }
}

describe("the link creation lane answers as the HttpApi app does", () => {
  it("for missing, malformed and unknown keys", async () => {
    for (const key of [undefined, "", "nada", "demo:sk_test_nope", `x:${"a".repeat(5000)}`]) {
      const lane = await call(server.url, "POST", LANE, { key, body: { monto: 1, concepto: "x" } })
      const app = await call(server.url, "POST", APP, { key, body: { monto: 1, concepto: "x" } })
      expect(lane.status).toBe(401)
      expect(seen(lane)).toEqual(seen(app))
    }
  })

  it("for bodies that are not JSON, empty, or invalid", async () => {
    const { key } = await registerMerchant(server.url)
    const headers = { "x-switch-key": key, "content-type": "application/json" }
    for (const body of ["{", "", "null", "[]", '"x"', "12", '{"monto":"1"}', '{"monto":-1,"concepto":""}']) {
      const lane = await raw(server.url, LANE, body, headers)
      const app = await raw(server.url, APP, body, headers)
      expect(lane.status, body).toBe(400)
      expect(seen(lane), body).toEqual(seen(app))
    }
    const text = { ...headers, "content-type": "text/plain" }
    expect(seen(await raw(server.url, LANE, "{", text))).toEqual(seen(await raw(server.url, APP, "{", text)))
  })

  it("for a new link, a repeated key, and the key used in the other mode", async () => {
    const { key } = await registerMerchant(server.url)
    const body = {
      monto: 150.5,
      concepto: "Paridad",
      metadata: { pedido: "7" },
      success_url: "https://tienda.example/ok"
    }
    const lane = await call(server.url, "POST", LANE, { key, body })
    const app = await call(server.url, "POST", APP, { key, body })
    expect(lane.status).toBe(201)
    expect(seen(lane)).toEqual(seen(app))
    expect(lane.body.qr_png).toBe(`http://pagos.test/l/${lane.body.id}/qr.png`)
    expect(lane.body.url).toBe(`http://pagos.test/l/${lane.body.id}`)

    const idempotency_key = randomUUID()
    const first = await call(server.url, "POST", LANE, { key, body: { ...body, idempotency_key } })
    const again = await call(server.url, "POST", LANE, { key, body: { ...body, idempotency_key } })
    const viaApp = await call(server.url, "POST", APP, { key, body: { ...body, idempotency_key } })
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...first.body, idempotent_replay: true })
    expect(viaApp.body).toEqual(again.body)
  })

  it("for a suspended merchant and for split errors", async () => {
    const m = await registerMerchant(server.url)
    const split = [{ cuenta: { tipo: "telefono", valor: "04141234567" }, porcentaje: 10 }]
    const body = { monto: 10, concepto: "x", split }
    expect(seen(await call(server.url, "POST", LANE, { key: m.key, body }))).toEqual(
      seen(await call(server.url, "POST", APP, { key: m.key, body }))
    )
    await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { estado: "suspendido" })
    const lane = await call(server.url, "POST", LANE, { key: m.key, body: { monto: 1, concepto: "x" } })
    const app = await call(server.url, "POST", APP, { key: m.key, body: { monto: 1, concepto: "x" } })
    expect(lane.status).toBe(403)
    expect(seen(lane)).toEqual(seen(app))
  })

  it("for a merchant over its limit, with Retry-After, counting both paths in one window", async () => {
    const { key } = await registerMerchant(limited.url)
    const body = { monto: 1, concepto: "x" }
    const answers = []
    for (const path of [LANE, APP, LANE, LANE, APP])
      answers.push(await call(limited.url, "POST", path, { key, body }))
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429])
    expect(seen(answers[3] as Reply)).toEqual(seen(answers[4] as Reply))
    expect(Number(answers[3]?.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("counts every request it admits from memory: exactly the limit is created, in one window", async () => {
    const { key } = await registerMerchant(leased.url)
    // The limit counts per clock minute: start where the run cannot straddle two windows.
    const second = new Date().getSeconds()
    if (second >= 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000))
    const statuses: Array<number> = []
    for (let round = 0; round < 11; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(leased.url, "POST", LANE, { key, body: { monto: 1, concepto: "x" } })
        )
      )
      statuses.push(...answers.map((a) => a.status))
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(200)
    expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    const listed = await call(leased.url, "GET", "/switch/v1/links?limit=100&offset=199", { key })
    expect(listed.status).toBe(429)
  })

  it("answers 500 to a failed insert and logs the fault's message, not an empty object", async () => {
    const { key } = await registerMerchant(server.url)
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    const lines: Array<string> = []
    const spy = vi.spyOn(console, "log").mockImplementation((...args) => {
      lines.push(args.map(String).join(" "))
    })
    try {
      // The insert waits on a lock, and its connection is ended under it.
      await db.query("begin; lock table links in access exclusive mode")
      const pending = call(server.url, "POST", LANE, { key, body: { monto: 1, concepto: "x" } })
      // Wait for the insert to reach the lock, however busy the machine (10 s at most).
      let ended = false
      for (let i = 0; i < 500 && !ended; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        const rows = await db.query(
          "select pg_terminate_backend(pid) as ok from pg_stat_activity where query like '%insert into links%' and wait_event_type = 'Lock' and pid <> pg_backend_pid()"
        )
        ended = rows.rows.length > 0
      }
      expect(ended, "the insert never waited on the lock").toBe(true)
      await db.query("rollback")
      const reply = await pending
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({ error: "error_interno" })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(lines.join("\n")).toContain("terminating connection due to administrator command")
    } finally {
      spy.mockRestore()
      await db.end()
    }
  })

  it("for requests without a valid key, counted per client address behind a trusted proxy", async () => {
    const from = (client: string, path: string) =>
      call(proxied.url, "POST", path, {
        key: "nadie:sk_test_nope",
        body: { monto: 1, concepto: "x" },
        headers: { "x-forwarded-for": client }
      })
    const first = [await from("10.0.0.1", LANE), await from("10.0.0.1", APP), await from("10.0.0.1", LANE)]
    expect(first.map((a) => a.status)).toEqual([401, 401, 429])
    expect((await from("10.0.0.2", LANE)).status).toBe(401)
  })

  it("refuses a body over 10 MB with a validation error", async () => {
    const { key } = await registerMerchant(server.url)
    const huge = JSON.stringify({ monto: 1, concepto: "x".repeat(11 * 1024 * 1024) })
    const reply = await raw(server.url, LANE, huge, {
      "x-switch-key": key,
      "content-type": "application/json"
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe("validation")
  })

  it("stops reading a body at 10 MB on the app's routes too, sent whole or in chunks", async () => {
    const { key } = await registerMerchant(server.url)
    const bytes = new TextEncoder().encode(JSON.stringify({ items: [], concepto: "x".repeat(11 << 20) }))
    const headers = { "x-switch-key": key, "content-type": "application/json" }
    const send = (path: string, chunked: boolean) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers,
        body: chunked
          ? new ReadableStream({
              start(controller) {
                for (let at = 0; at < bytes.length; at += 1 << 20)
                  controller.enqueue(bytes.subarray(at, at + (1 << 20)))
                controller.close()
              }
            })
          : bytes,
        duplex: "half"
      } as RequestInit).then(
        async (response) => {
          const body = (await response.json()) as { error: string; detail: unknown }
          // Refused for its size, not for its fields: the rest was never read.
          const size = JSON.stringify(body.detail).includes("demasiado grande")
          return { status: response.status, error: size ? body.error : "leído entero" }
        },
        // The platform drops the connection once past the limit; the answer may not arrive.
        () => ({ status: 0, error: "cortada" })
      )
    for (const [path, code] of [
      [APP, "validation"],
      ["/switch/v1/lotes", "validation"],
      ["/switch/v1/cobrar", "VALIDATION"]
    ] as const) {
      for (const chunked of [false, true]) {
        const answer = await send(path, chunked)
        // A declared size is refused unread and answered; a chunked body may see the cut.
        if (chunked)
          expect([
            { status: 400, error: code },
            { status: 0, error: "cortada" }
          ]).toContainEqual(answer)
        else expect(answer).toEqual({ status: 400, error: code })
      }
    }
    const listed = await call(server.url, "GET", "/switch/v1/links", { key })
    expect([listed.status, listed.body]).toEqual([200, []])
  })

  it("answers a new link as GET then shows it, every field the table sets by default included", async () => {
    const { key } = await registerMerchant(server.url)
    const body = {
      monto: 99.99,
      concepto: "Café ☕",
      metadata: { z: "1", a: "2" },
      expira_horas: 2,
      failure_url: "https://tienda.example/ko"
    }
    const created = await call(server.url, "POST", LANE, { key, body })
    const got = await call(server.url, "GET", `/switch/v1/links/${created.body.id}`, { key })
    expect(got.status).toBe(200)
    expect(created.body).toEqual(got.body)
  })

  it("survives clients that leave mid-body, and answers the next request", async () => {
    const { key } = await registerMerchant(server.url)
    const { port } = new URL(server.url)
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((done) => {
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write(
            `POST ${LANE} HTTP/1.1\r\nhost: x\r\nx-switch-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"monto":`
          )
          setTimeout(() => {
            socket.destroy()
            done()
          }, 20)
        })
      })
    }
    const after = await call(server.url, "POST", LANE, { key, body: { monto: 1, concepto: "x" } })
    expect(after.status).toBe(201)
  })

  it("checks the key before reading the body: no key and a huge body is 401", async () => {
    const huge = JSON.stringify({ monto: 1, concepto: "x".repeat(11 * 1024 * 1024) })
    const reply = await raw(server.url, LANE, huge, { "content-type": "application/json" })
    expect(reply.status).toBe(401)
  })

  it("refuses text with half a surrogate pair, which Postgres would store as another text", async () => {
    const { key } = await registerMerchant(server.url)
    const headers = { "x-switch-key": key, "content-type": "application/json" }
    for (const body of [
      '{"monto":1,"concepto":"a\\ud800b"}',
      '{"monto":1,"concepto":"x","metadata":{"k":"\\udfff"}}',
      '{"monto":1,"concepto":"x","idempotency_key":"a\\ud800"}'
    ]) {
      const lane = await raw(server.url, LANE, body, headers)
      expect(lane.status, body).toBe(400)
      expect(lane.body.error).toBe("validation")
      expect(seen(lane)).toEqual(seen(await raw(server.url, APP, body, headers)))
    }
    const pair = await raw(server.url, LANE, '{"monto":1,"concepto":"\\ud83d\\ude00"}', headers)
    expect(pair.status).toBe(201)
    expect(pair.body.concepto).toBe("😀")
    const list = await call(server.url, "GET", "/switch/v1/links", { key })
    expect(list.body.map((l: { concepto: string }) => l.concepto)).toEqual(["😀"])
  })

  it("answers metadata in the order every later read shows it", async () => {
    const { key } = await registerMerchant(server.url)
    const response = await fetch(`${server.url}${LANE}`, {
      method: "POST",
      headers: { "x-switch-key": key, "content-type": "application/json" },
      body: JSON.stringify({ monto: 1, concepto: "x", metadata: { zz: "1", "10": "3", a: "2" } })
    })
    const created = await response.text()
    const id = JSON.parse(created).id
    const got = await fetch(`${server.url}/switch/v1/links/${id}`, { headers: { "x-switch-key": key } })
    const metadataText = (text: string) => /"metadata":(\{[^}]*\})/.exec(text)?.[1]
    expect(metadataText(created)).toBe(metadataText(await got.text()))
  })
})
