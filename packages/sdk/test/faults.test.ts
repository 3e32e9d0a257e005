/**
 * Retries against the real server through a fault-injecting proxy on loopback: the proxy
 * forwards to the server and then loses, delays or replaces answers.
 */
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConnectionError, Switch, TimeoutError } from "../src/index.js"
import { baseUrl, newMerchant } from "./support.js"

type Fault = "drop-response" | "delay-response" | "503" | undefined

/** A proxy whose next requests matching `method path` get `faults` in order. */
const faultyProxy = async (target: string) => {
  const plan: Array<{ method: string; path: string; fault: Fault }> = []
  const seen: Array<{ method: string; path: string; body: string }> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const path = (req.url ?? "").split("?")[0]!
      seen.push({ method: req.method ?? "", path, body: body.toString() })
      const index = plan.findIndex((p) => p.method === req.method && p.path === path)
      const fault = index === -1 ? undefined : plan.splice(index, 1)[0]!.fault
      if (fault === "503") {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" })
        res.end(JSON.stringify({ error: "no_disponible" }))
        return
      }
      const upstream = request(
        new URL(req.url ?? "/", target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const parts: Array<Buffer> = []
          answer.on("data", (c: Buffer) => parts.push(c))
          answer.on("end", () => {
            if (fault === "drop-response") {
              // The server did the work; the client never hears about it.
              req.socket.destroy()
              return
            }
            const send = () => {
              if (res.destroyed) return
              res.writeHead(answer.statusCode ?? 502, answer.headers)
              res.end(Buffer.concat(parts))
            }
            if (fault === "delay-response") setTimeout(send, 1500)
            else send()
          })
        }
      )
      upstream.end(body)
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    inject: (method: string, path: string, fault: Fault) => plan.push({ method, path, fault }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

let proxy: Awaited<ReturnType<typeof faultyProxy>>
let m: Awaited<ReturnType<typeof newMerchant>>
let sw: Switch
beforeAll(async () => {
  proxy = await faultyProxy(baseUrl())
  m = await newMerchant("flt")
  sw = new Switch({ key: m.key, baseUrl: proxy.url, retry: { initialDelayMs: 50, maxDelayMs: 200 } })
})
afterAll(() => proxy.close())

const linksWithConcept = async (concepto: string) =>
  (await m.sw.links.list({ q: concepto, limit: 200 })).filter((l) => l.concepto === concepto)

describe("retries through a faulty network", () => {
  it("a create whose first response is lost is retried with the same key and makes exactly one link", async () => {
    const concepto = `perdida ${Date.now()}`
    proxy.inject("POST", "/switch/v1/links", "drop-response")
    const before = proxy.seen.length
    const link = await sw.links.create({ monto: 33, concepto })
    const posts = proxy.seen.slice(before).filter((r) => r.method === "POST" && r.path === "/switch/v1/links")
    expect(posts).toHaveLength(2)
    const keys = posts.map((p) => JSON.parse(p.body).idempotency_key)
    expect(keys[0]).toBe(keys[1])
    expect(link.idempotent_replay).toBe(true)
    const found = await linksWithConcept(concepto)
    expect(found.map((l) => l.id)).toEqual([link.id])
  })

  it("a create that times out is retried and still makes exactly one link", async () => {
    const concepto = `lenta ${Date.now()}`
    proxy.inject("POST", "/switch/v1/links", "delay-response")
    const link = await sw.links.create({ monto: 34, concepto }, { timeout: 500 })
    expect(link.idempotent_replay).toBe(true)
    expect((await linksWithConcept(concepto)).map((l) => l.id)).toEqual([link.id])
  })

  it("a batch whose first response is lost is created once", async () => {
    const nombre = `lote perdido ${Date.now()}`
    proxy.inject("POST", "/switch/v1/lotes", "drop-response")
    const lote = await sw.lotes.create({ nombre, items: [{ monto: 1, concepto: "x" }] })
    expect(lote.idempotent_replay).toBe(true)
    expect((await m.sw.lotes.list({ limit: 200 })).filter((l) => l.nombre === nombre)).toHaveLength(1)
  })

  it("a 503 with Retry-After is waited out and retried", async () => {
    proxy.inject("GET", "/switch/v1/config", "503")
    const started = Date.now()
    expect((await sw.config.get()).comercio).toBe(m.codigo)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
  })

  it("a simulate whose response is lost is not resent (it is not idempotent)", async () => {
    const link = await m.sw.links.create({ monto: 5, concepto: "sim" })
    proxy.inject("POST", `/switch/v1/links/${link.id}/simular`, "drop-response")
    await expect(sw.links.simulate(link.id, "pagado")).rejects.toBeInstanceOf(ConnectionError)
    expect((await m.sw.links.get(link.id)).estado).toBe("pagado")
  })

  it("with retries off, a slow answer is a TimeoutError", async () => {
    proxy.inject("GET", "/switch/v1/config", "delay-response")
    await expect(sw.config.get({ timeout: 300, maxRetries: 0 })).rejects.toBeInstanceOf(TimeoutError)
  })

  it("a lost cancel answer is retried and reports the cancellation", async () => {
    const link = await m.sw.links.create({ monto: 6, concepto: "cancelar" })
    proxy.inject("POST", `/switch/v1/links/${link.id}/cancelar`, "drop-response")
    expect(await sw.links.cancel(link.id)).toEqual({ id: link.id, estado: "cancelado" })
  })
})
