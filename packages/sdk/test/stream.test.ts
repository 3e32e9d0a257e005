/**
 * The event stream survives a dropped connection: a proxy on loopback passes the stream
 * through from the real server and then cuts every connection, as a network or a restart would.
 */
import { createServer, type IncomingHttpHeaders, request } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AuthenticationError, Switch, type SwitchEvent } from "../src/index.js"
import { baseUrl, eventually, newMerchant } from "./support.js"

/** Forwards requests to `target`, streaming answers; `cut()` drops every open connection. */
const cuttingProxy = async (target: string) => {
  const sockets = new Set<Socket>()
  const requests: Array<IncomingHttpHeaders> = []
  const server = createServer((req, res) => {
    requests.push(req.headers)
    const upstream = request(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    cut: () => {
      for (const socket of sockets) socket.destroy()
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

let proxy: Awaited<ReturnType<typeof cuttingProxy>>
beforeAll(async () => {
  proxy = await cuttingProxy(baseUrl())
})
afterAll(() => proxy.close())

const paid = (events: Array<SwitchEvent>) =>
  events.flatMap((e) => (e.evento === "link.pagado" ? [e.data.link_id] : []))

describe("eventos.stream", () => {
  it("reconnects after a dropped connection and resumes after the last notice: none lost, none repeated", async () => {
    const merchant = await newMerchant()
    const sw = new Switch({ key: merchant.key, baseUrl: proxy.url })
    const controller = new AbortController()
    const seen: Array<SwitchEvent> = []
    const streaming = (async () => {
      for await (const event of sw.eventos.stream({ signal: controller.signal })) seen.push(event)
    })()
    const pay = async () => {
      const link = await merchant.sw.links.create({ monto: 7, concepto: "reconexión" })
      await merchant.sw.links.simulate(link.id, "pagado")
      return link.id
    }
    try {
      await eventually(async () => (proxy.requests.length > 0 ? true : undefined), 10_000)
      await new Promise((r) => setTimeout(r, 300))
      const first = await pay()
      await eventually(async () => (paid(seen).includes(first) ? true : undefined), 10_000)

      proxy.cut()
      // Paid while the client is disconnected: it must still arrive, once.
      const second = await pay()
      await eventually(async () => (paid(seen).includes(second) ? true : undefined), 15_000)
      expect(paid(seen)).toEqual([first, second])
      const again = proxy.requests.at(-1)
      expect(proxy.requests.length).toBeGreaterThanOrEqual(2)
      // The reconnection asked to resume after the last notice it had seen.
      expect(again?.["last-event-id"]).toMatch(/^\d+$/)
    } finally {
      controller.abort()
      await streaming
    }
  })

  it("a connection dropped before its first notice still resumes where it started", async () => {
    const merchant = await newMerchant()
    const sw = new Switch({ key: merchant.key, baseUrl: proxy.url })
    const controller = new AbortController()
    const seen: Array<SwitchEvent> = []
    const before = proxy.requests.length
    const streaming = (async () => {
      for await (const event of sw.eventos.stream({ signal: controller.signal })) seen.push(event)
    })()
    try {
      await eventually(async () => (proxy.requests.length > before ? true : undefined), 10_000)
      await new Promise((r) => setTimeout(r, 300))
      proxy.cut()
      const link = await merchant.sw.links.create({ monto: 8, concepto: "antes del primero" })
      await merchant.sw.links.simulate(link.id, "pagado")
      await eventually(async () => (paid(seen).includes(link.id) ? true : undefined), 15_000)
      expect(proxy.requests.at(-1)?.["last-event-id"]).toMatch(/^\d+$/)
    } finally {
      controller.abort()
      await streaming
    }
  })

  it("ends with the error when the server refuses the key, without retrying", async () => {
    const sw = new Switch({ key: "nadie:sk_test_00000000000000000000000000000000", baseUrl: proxy.url })
    const before = proxy.requests.length
    const stream = sw.eventos.stream()
    await expect(stream.next()).rejects.toBeInstanceOf(AuthenticationError)
    expect(proxy.requests.length - before).toBe(1)
  })
})
