/**
 * The guard every vitest config loads (loopbackOnly.ts): a connection off the loopback address
 * fails before anything is sent, and is reported; loopback, unix sockets and `.invalid` names
 * behave as they would without it.
 */
import dns from "node:dns"
import { createServer as createHttpServer } from "node:http"
import { type AddressInfo, connect, createServer, type LookupFunction, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connect as tlsConnect } from "node:tls"
import { afterEach, describe, expect, it } from "vitest"
import { isLoopback, takeViolations } from "./loopbackOnly.js"

/** How `socket` ends: "connect", or its error's code. */
const outcome = (socket: Socket) =>
  new Promise<string>((done) => {
    socket.once("connect", () => {
      socket.destroy()
      done("connect")
    })
    socket.once("secureConnect", () => {
      socket.destroy()
      done("connect")
    })
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? String(error)))
  })

afterEach(() => {
  // Whatever a test here tried on purpose is not a failure of the suite.
  takeViolations()
})

describe("no test connects off the loopback address", () => {
  it("a connection to 10.0.0.1 or 93.184.216.34 fails before it is made, and is reported", async () => {
    expect(await outcome(connect(443, "10.0.0.1"))).toBe("EFUERADELOOPBACK")
    expect(await outcome(connect({ host: "93.184.216.34", port: 80 }))).toBe("EFUERADELOOPBACK")
    expect(await outcome(tlsConnect({ host: "93.184.216.34", port: 443, servername: "x" }))).toBe(
      "EFUERADELOOPBACK"
    )
    expect(takeViolations()).toEqual(["10.0.0.1:443", "93.184.216.34:80", "93.184.216.34:443"])
  })

  it("fetch and DNS lookups of a public name fail and are reported; nothing is asked of DNS", async () => {
    const failed = await fetch("http://93.184.216.34/").then(
      () => null,
      (error: { cause?: NodeJS.ErrnoException }) => error.cause?.code
    )
    expect(failed).toBe("EFUERADELOOPBACK")
    await expect(dns.promises.lookup("example.com")).rejects.toMatchObject({ code: "EFUERADELOOPBACK" })
    const code = await new Promise((done) => dns.lookup("example.com", (e) => done(e?.code)))
    expect(code).toBe("EFUERADELOOPBACK")
    expect(takeViolations()).toEqual(["93.184.216.34:80", "example.com", "example.com"])
  })

  it("loopback, localhost and unix sockets connect; a name under .invalid fails as unknown, unreported", async () => {
    const server = createServer((s) => s.end())
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    const port = (server.address() as AddressInfo).port
    const unix = createServer((s) => s.end())
    const path = join(tmpdir(), `loopback-${process.pid}-${Date.now()}.sock`)
    await new Promise<void>((done) => unix.listen(path, done))
    const http = createHttpServer((_, res) => res.end("ok"))
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done))
    try {
      expect(await outcome(connect(port, "127.0.0.1"))).toBe("connect")
      expect(await outcome(connect({ port, host: "localhost" }))).toBe("connect")
      expect(await outcome(connect(path))).toBe("connect")
      const httpPort = (http.address() as AddressInfo).port
      expect(await (await fetch(`http://127.0.0.1:${httpPort}/`)).text()).toBe("ok")
      expect(await outcome(connect(443, "hooks.invalid"))).toBe("ENOTFOUND")
      const viaFetch = await fetch("https://hooks.invalid/x").then(
        () => null,
        (error: { cause?: NodeJS.ErrnoException }) => error.cause?.code
      )
      expect(viaFetch).toBe("ENOTFOUND")
      expect(takeViolations()).toEqual([])
    } finally {
      server.close()
      unix.close()
      http.close()
    }
  })

  it("a name with its own resolver is judged by that resolver's answers", async () => {
    const server = createServer((s) => s.end())
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    const port = (server.address() as AddressInfo).port
    // A resolver in Node's lookup shape: one address, or all of them when asked.
    const resolveTo =
      (address: string): LookupFunction =>
      (_, options, callback) =>
        options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)
    try {
      expect(await outcome(connect({ host: "propio.example", port, lookup: resolveTo("127.0.0.1") }))).toBe(
        "connect"
      )
      expect(await outcome(connect({ host: "afuera.example", port, lookup: resolveTo("10.0.0.1") }))).toBe(
        "EFUERADELOOPBACK"
      )
      expect(takeViolations()).toEqual(["afuera.example (10.0.0.1)"])
    } finally {
      server.close()
    }
  })

  it("knows loopback from the rest without DNS", () => {
    for (const host of [
      "127.0.0.1",
      "127.9.8.7",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
      "localhost",
      "a.localhost",
      ""
    ])
      expect(isLoopback(host), host).toBe(true)
    for (const host of [
      "10.0.0.1",
      "93.184.216.34",
      "0.0.0.0",
      "::",
      "::ffff:10.0.0.1",
      "fe80::1",
      "example.com",
      "128.0.0.1"
    ])
      expect(isLoopback(host), host).toBe(false)
  })
})
