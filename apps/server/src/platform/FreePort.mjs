// A loopback port free now, for Postgres and for the servers the tests and the bench start
// next. It is drawn below the range of outgoing connections: a port from that range (what
// listening on port 0 gives) can be taken by any client socket, of this process or of a test
// file running beside it, before the server meant to have it binds it (seen in CI as
// EADDRINUSE). Plain JavaScript, so the bench (tests/bench/run.mjs) runs it without a build.
import { readFileSync } from "node:fs"
import { createServer } from "node:net"

/** The first port of the range the kernel gives outgoing connections (Linux; else its default). */
export const ephemeralStart = () => {
  try {
    const first = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]
    )
    return Number.isInteger(first) && first > 2048 ? first : 32768
  } catch {
    return 32768
  }
}

const canListen = (port) =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/** @returns {Promise<number>} */
export const freePort = async () => {
  const top = ephemeralStart()
  const bottom = Math.max(1024, top - 12_000)
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom))
    if (await canListen(port)) return port
  }
  throw new Error(`no free loopback port between ${bottom} and ${top}`)
}
