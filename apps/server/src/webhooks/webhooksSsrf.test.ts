/**
 * Webhook SSRF rules (DESIGN §7), with SWITCH_WEBHOOK_ALLOW_PRIVATE off: internal destinations
 * are `422 destino_bloqueado` at creation and edit, and refused again at connect time.
 */
import type { LookupAddress } from "node:dns"
import { Effect, FastCheck as fc } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { type Receiver, startReceiver } from "../../test/webhooksReceiver.js"
import { makeSender } from "./Sender.js"
import { checkShape, checkUrl, guardedLookup, isPublicAddress } from "./Ssrf.js"

let server: TestServer
let liveKey: string

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  const merchant = await registerMerchant(server.url)
  liveKey = await approveMerchant(server, merchant.codigo)
})
afterAll(() => server?.close())

const BLOCKED = [
  "https://127.0.0.1/",
  "https://127.1/",
  "https://2130706433/",
  "https://0x7f000001/",
  "https://0x7f.1/",
  "https://0177.0.0.1/",
  "https://0.0.0.0/",
  "https://10.0.0.1/",
  "https://172.16.5.4/",
  "https://192.168.1.1/",
  "https://169.254.169.254/latest/meta-data/",
  "https://100.64.0.1/",
  "https://198.18.0.1/",
  "https://224.0.0.1/",
  "https://240.0.0.1/",
  "https://255.255.255.255/",
  "https://[::1]/",
  "https://[::]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:7f00:1]/",
  "https://[::ffff:169.254.169.254]/",
  "https://[::ffff:a00:1]/",
  "https://[::127.0.0.1]/",
  "https://[fd00::1]/",
  "https://[fc00::1]/",
  "https://[fe80::1]/",
  "https://[ff02::1]/",
  "https://[2002:7f00:1::1]/",
  "https://[2002:a9fe:a9fe::1]/",
  "https://[64:ff9b::7f00:1]/",
  "https://[2001:db8::1]/",
  "https://localhost/",
  "https://api.localhost/",
  "https://localhost./hooks"
]

/**
 * A DNS label. `xn--` begins a punycode label, which WHATWG URL decodes and refuses when it is
 * not valid punycode (`xn--a`): that URL fails to parse at all, another refusal than the one
 * these properties are about.
 */
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => !l.startsWith("xn--"))
const labels = fc.array(label, { minLength: 2, maxLength: 4 })
/** WHATWG URL reads a host whose last label is a number (`12`, `0x`, `0x1f`) as an IPv4 address. */
const endsInNumber = (parts: ReadonlyArray<string>) =>
  /^(\d+|0x[0-9a-f]*)$/i.test(parts[parts.length - 1] ?? "")
/** Host names as WHATWG URL keeps them and DNS allows them (a trailing root dot too). */
const wellFormedHost = fc
  .tuple(labels, fc.boolean())
  .filter(([parts]) => !endsInNumber(parts))
  .map(([parts, root]) => `${parts.join(".")}${root ? "." : ""}`)
/** Characters WHATWG URL keeps in a host that no DNS name has. */
const STRAY = [..."!\"$&'()*+,;=_`{}~"]
/** A well-formed name spoiled one way: what WHATWG URL still parses but names no host. */
const malformedHost = fc
  .tuple(labels, fc.nat(), fc.integer({ min: 0, max: 6 }), fc.constantFrom(...STRAY))
  .filter(([parts]) => !endsInNumber(parts))
  .map(([parts, at, how, stray]) => {
    const i = at % parts.length
    const spoiled = [...parts]
    switch (how) {
      case 0: // an empty label between two others
        spoiled.splice(1 + (at % (parts.length - 1)), 0, "")
        break
      case 1: // two or more trailing dots
        return `${parts.join(".")}${".".repeat(2 + (at % 3))}`
      case 2: // leading dots
        return `${".".repeat(1 + (at % 2))}${parts.join(".")}`
      case 3: // a hyphen first or last in a label
        spoiled[i] = at % 2 === 0 ? `-${parts[i]}` : `${parts[i]}-`
        break
      case 4: // a character DNS names do not have
        spoiled[i] = `${parts[i]}${stray}x`
        break
      case 5: // a label over 63 characters
        spoiled[i] = `${parts[i]}${"a".repeat(64)}`
        break
      default: // a name over 253 characters
        return `${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.${parts.join(".")}`
    }
    return spoiled.join(".")
  })

describe("webhook SSRF", () => {
  it(`refuses ${BLOCKED.length} internal destinations with 422 destino_bloqueado`, async () => {
    for (const url of BLOCKED) {
      const reply = await call(server.url, "POST", "/switch/v1/webhooks", {
        key: liveKey,
        body: { url, eventos: ["link.pagado"] }
      })
      expect([reply.status, reply.body.error], url).toEqual([422, "destino_bloqueado"])
    }
    const list = await call(server.url, "GET", "/switch/v1/webhooks", { key: liveKey })
    expect(list.body).toEqual([])
  })

  it("refuses non-https, other ports and credentials with 400", async () => {
    for (const url of [
      "http://93.184.216.34/",
      "ftp://93.184.216.34/",
      "https://93.184.216.34:8443/",
      "https://user:pass@93.184.216.34/",
      "no es url"
    ]) {
      const reply = await call(server.url, "POST", "/switch/v1/webhooks", {
        key: liveKey,
        body: { url, eventos: ["link.pagado"] }
      })
      expect(reply.status, url).toBe(400)
      expect(reply.body.detail.fieldErrors.url, url).toBeDefined()
    }
  })

  it("refuses malformed host names with 400, generated: empty labels, stray dots, bad hyphens, other characters, overlong", async () => {
    const samples = fc.sample(malformedHost, { numRuns: 40, seed: 41 })
    for (const host of ["vm..", "vm...", ".vm", "a..b.example", "..", ...samples]) {
      const url = `https://${host}/h`
      const reply = await call(server.url, "POST", "/switch/v1/webhooks", {
        key: liveKey,
        body: { url, eventos: ["link.pagado"] }
      })
      expect([reply.status, reply.body.error], url).toEqual([400, "validation"])
      expect(reply.body.detail.fieldErrors.url, url).toEqual(["el nombre del servidor no es válido"])
    }
    const list = await call(server.url, "GET", "/switch/v1/webhooks", { key: liveKey })
    expect(list.body).toEqual([])
  })

  it("every generated malformed host is refused by its shape, with or without the development switch, and a well-formed one is not", () => {
    fc.assert(
      fc.property(malformedHost, (host) => {
        for (const allowPrivate of [false, true]) {
          const shape = checkShape(`https://${host}/h`, allowPrivate)
          expect(shape instanceof URL ? shape.hostname : shape, host).toEqual({
            _tag: "Invalida",
            detail: "el nombre del servidor no es válido"
          })
        }
      }),
      { numRuns: 500 }
    )
    fc.assert(
      fc.property(wellFormedHost, (host) => {
        expect(checkShape(`https://${host}/h`, false), host).toBeInstanceOf(URL)
      }),
      { numRuns: 500 }
    )
    // A punycode label that does not decode is no URL at all.
    expect(checkShape("https://xn--a..a/h", false)).toEqual({
      _tag: "Invalida",
      detail: "no es una URL válida"
    })
    expect(checkShape("https://xn--a.example/h", true)).toEqual({
      _tag: "Invalida",
      detail: "no es una URL válida"
    })
  })

  it("accepts public addresses on 443 and 80, and refuses an edit to an internal one", async () => {
    const a = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: "https://93.184.216.34/hooks", eventos: ["link.pagado"] }
    })
    expect(a.status).toBe(201)
    const b = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: "https://[2606:4700:4700::1111]:443/x", eventos: ["*"] }
    })
    expect(b.status).toBe(201)
    const edit = await call(server.url, "PATCH", `/switch/v1/webhooks/${a.body.id}`, {
      key: liveKey,
      body: { url: "https://[::ffff:10.1.2.3]/" }
    })
    expect([edit.status, edit.body.error]).toEqual([422, "destino_bloqueado"])
  })

  it("a host name that resolves to 127.0.0.1 (or to any internal address among others) is refused", async () => {
    const toLoopback = async () => ["127.0.0.1"]
    expect(
      await checkUrl("https://rebind.example/", { allowPrivate: false, lookup: toLoopback })
    ).toMatchObject({
      _tag: "Bloqueada"
    })
    const mixed = async () => ["93.184.216.34", "10.0.0.7"]
    expect(await checkUrl("https://mixto.example/", { allowPrivate: false, lookup: mixed })).toMatchObject({
      _tag: "Bloqueada"
    })
    const publicOnly = async () => ["93.184.216.34", "2606:4700:4700::1111"]
    expect(await checkUrl("https://bien.example/", { allowPrivate: false, lookup: publicOnly })).toBeNull()
    expect(await checkUrl("http://127.0.0.1:9999/", { allowPrivate: true })).toBeNull()
  })

  it("classifies addresses: public unicast only", () => {
    for (const ip of ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isPublicAddress(ip), ip).toBe(true)
    for (const ip of [
      "127.0.0.1",
      "::1",
      "fe80::1",
      "::ffff:192.168.0.1",
      "2002:c0a8:1::",
      "fd12::1",
      "nombre"
    ])
      expect(isPublicAddress(ip), ip).toBe(false)
  })
})

describe("connect-time DNS check", () => {
  let rx: Receiver
  beforeAll(async () => {
    rx = await startReceiver()
  })
  afterAll(() => rx?.close())

  const resolveTo =
    (address: string, family: 4 | 6 = 4) =>
    (_: string, callback: (e: Error | null, a: Array<LookupAddress>) => void) =>
      callback(null, [{ address, family }])

  it("the lookup refuses an internal answer and passes a public one, in both callback forms", async () => {
    const internal = guardedLookup(resolveTo("169.254.169.254"))
    const refused = await new Promise<NodeJS.ErrnoException | null>((done) =>
      internal("meta.example", { all: true }, (e) => done(e))
    )
    expect(refused?.code).toBe("EDESTINOBLOQUEADO")
    const open = guardedLookup(resolveTo("93.184.216.34"))
    const one = await new Promise<unknown>((done) => open("ok.example", {}, (_e, address) => done(address)))
    expect(one).toBe("93.184.216.34")
    const all = await new Promise<unknown>((done) => open("ok.example", { all: true }, (_e, a) => done(a)))
    expect(all).toEqual([{ address: "93.184.216.34", family: 4 }])
  })

  it("a name that rebinds to loopback after creation is refused before any byte is sent", async () => {
    // The name resolves to 127.0.0.1 only when the delivery connects (DNS rebinding).
    const port = new URL(rx.url).port
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(makeSender({ allowPrivate: false, resolveAll: resolveTo("127.0.0.1") }), (sender) =>
          sender.send({ url: "https://rebind.example/hooks", headers: {}, body: "{}" })
        )
      )
    )
    expect(result.ok).toBe(false)
    expect(result.error).toMatch(/^destino_bloqueado/)
    // With the development flag the same receiver is reachable, so the refusal above was the guard.
    const allowed = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(makeSender({ allowPrivate: true }), (sender) =>
          sender.send({ url: `http://127.0.0.1:${port}/hooks`, headers: {}, body: "{}" })
        )
      )
    )
    expect(allowed).toEqual({ ok: true, status: 200, error: null })
    expect(rx.received).toHaveLength(1)
  })

  it("an IP literal is checked directly at delivery (no lookup happens for it)", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(
          makeSender({ allowPrivate: false, resolveAll: resolveTo("93.184.216.34") }),
          (sender) => sender.send({ url: "https://[::ffff:127.0.0.1]/hooks", headers: {}, body: "{}" })
        )
      )
    )
    expect(result.error).toMatch(/^destino_bloqueado/)
  })
})
