/**
 * `switch listen --forward-to` against the real server: each notice reaches a local receiver
 * signed with the printed secret (verified with the SDK), and a server crash and restart loses
 * no notice and repeats none.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { Switch } from "@switch/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeCli, restartableServer, spawnCli, until } from "./support.js"

interface Received {
  readonly body: string
  readonly headers: IncomingHttpHeaders
}

let server: Awaited<ReturnType<typeof restartableServer>>
let cli: ReturnType<typeof makeCli>
let receiver: Server
let receiverUrl: string
const received: Array<Received> = []

beforeAll(async () => {
  server = await restartableServer()
  cli = makeCli(server.url)
  await cli.run(["login", "--key", server.demoKey])
  receiver = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk) => {
      body += chunk
    })
    req.on("end", () => {
      received.push({ body, headers: req.headers })
      res.end("ok")
    })
  })
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", () => done()))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`
}, 240_000)
afterAll(async () => {
  receiver?.close()
  cli?.cleanup()
  await server?.stop()
})

const eventIds = () => received.map((r) => JSON.parse(r.body).id as string)

describe("listen", () => {
  it("--print-secret prints the same stable secret every time, for scripts", async () => {
    const first = await cli.run(["listen", "--print-secret"])
    expect(first.code).toBe(0)
    expect(first.stdout.trim()).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
    const second = await cli.run(["listen", "--print-secret"])
    expect(second.stdout).toBe(first.stdout)
  })

  it("an unknown event name or a bad key ends listen with exit 2 or 1, never a silent stop", async () => {
    expect((await cli.run(["listen", "--events", "link.nada"])).code).toBe(2)
    const bad = await cli.run(["listen", "--forward-to", receiverUrl], {
      env: { SWITCH_KEY: "demo:sk_test_malo" }
    })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain("unauthorized")
  })

  it("forwards a triggered event signed with the printed secret and survives a server restart without losing the next event", async () => {
    const secret = (await cli.run(["listen", "--print-secret"])).stdout.trim()
    const listen = spawnCli(["listen", "--forward-to", receiverUrl, "--events", "link.pagado"], {
      ...cli.env,
      SWITCH_KEY: server.demoKey
    })
    try {
      await until(() => listen.stderr().includes("Listo."), "listen to be ready")
      expect(listen.stderr()).toContain(secret)

      const first = await cli.json(["trigger", "link.pagado"])
      await until(() => received.length >= 1, "the first notice")
      const notice = received[0]!
      const event = await Switch.webhooks.verify(
        notice.body,
        notice.headers as Record<string, string>,
        secret
      )
      expect(event).toMatchObject({ evento: "link.pagado", data: { link_id: first.link_id, mode: "test" } })
      expect(notice.headers["x-service-event"]).toBe("link.pagado")
      expect(notice.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/)
      expect(notice.headers["x-service-delivery"]).toBe(`listen_${event.id}`)
      await until(() => /<-- \[200\] POST/.test(listen.stdout()), "the forward line")

      // The server dies mid-stream; the next event happens before listen is back.
      await server.crash()
      await until(() => listen.stderr().includes("Conexión perdida"), "listen to notice the drop")
      await server.start()
      const second = await cli.json(["trigger", "link.pagado"])
      await until(() => received.length >= 2, "the notice made across the restart", 60_000)
      await until(() => listen.stderr().includes("Reconectado"), "listen to say it reconnected")

      // A third event after reconnection, then check nothing was lost or repeated.
      const third = await cli.json(["trigger", "link.pagado"])
      await until(() => received.length >= 3, "the third notice")
      await new Promise((r) => setTimeout(r, 1500))
      const linkIds = received.map((r) => JSON.parse(r.body).data.link_id)
      expect(linkIds).toEqual([first.link_id, second.link_id, third.link_id])
      expect(new Set(eventIds()).size).toBe(3)
      for (const r of received) {
        await expect(
          Switch.webhooks.verify(r.body, r.headers as Record<string, string>, secret)
        ).resolves.toBeTruthy()
      }
      expect(listen.child.exitCode).toBeNull()
    } finally {
      await listen.stop()
    }
    expect(listen.child.exitCode).toBe(0)
  }, 180_000)
})
