import { createServer } from "node:net"
import { describe, expect, it } from "vitest"
import { ephemeralStart, freePort } from "./FreePort.mjs"

describe("freePort", () => {
  it("draws ports below the range of outgoing connections, which a server can then bind", async () => {
    const start = ephemeralStart()
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()))
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024)
      expect(port).toBeLessThan(start)
    }
    const server = createServer()
    await new Promise<void>((done, fail) => {
      server.once("error", fail)
      server.listen(ports[0], "127.0.0.1", done)
    })
    await new Promise((done) => server.close(done))
  })

  it("passes over a port some server already listens on", async () => {
    const start = ephemeralStart()
    const taken = createServer()
    const port = await freePort()
    await new Promise<void>((done) => taken.listen(port, "127.0.0.1", done))
    try {
      const random = Math.random
      // The first draw lands on the taken port, the next one beside it.
      const bottom = Math.max(1024, start - 12_000)
      const draws = [(port - bottom + 0.5) / (start - bottom)]
      Math.random = () => draws.shift() ?? random()
      try {
        expect(await freePort()).not.toBe(port)
      } finally {
        Math.random = random
      }
    } finally {
      await new Promise((done) => taken.close(done))
    }
  })
})
