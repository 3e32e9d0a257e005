import { describe, expect, it } from "vitest"
import { resolveClient, trustList } from "./ClientAddress.js"

const trusted = trustList(["10.0.0.0/8", "127.0.0.1"])!

describe("client address behind trusted proxies", () => {
  it("no entries trust nobody; a bad entry is refused at start", () => {
    expect(trustList([])).toBeNull()
    for (const bad of ["proxy.local", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/8/1", "::1/129"]) {
      expect(() => trustList([bad]), bad).toThrow(/SWITCH_PROXIES_CONFIABLES/)
    }
  })

  it("an untrusted peer is the client, whatever X-Forwarded-For says", () => {
    expect(resolveClient("203.0.113.9", "1.2.3.4", trusted)).toBe("203.0.113.9")
    expect(resolveClient("::ffff:203.0.113.9", undefined, trusted)).toBe("203.0.113.9")
  })

  it("a trusted peer's request belongs to the right-most address that is not a trusted proxy", () => {
    expect(resolveClient("127.0.0.1", "198.51.100.7", trusted)).toBe("198.51.100.7")
    // The client wrote the left part itself; the proxies appended the rest.
    expect(resolveClient("::ffff:10.1.2.3", "6.6.6.6, 198.51.100.7, 10.9.9.9", trusted)).toBe("198.51.100.7")
    expect(resolveClient("10.1.2.3", "10.2.2.2, 10.3.3.3", trusted)).toBe("10.2.2.2")
    expect(resolveClient("10.1.2.3", "basura", trusted)).toBe("10.1.2.3")
  })

  it("reads hops with ports, and stops at one that is not an address instead of skipping it", () => {
    expect(resolveClient("127.0.0.1", "198.51.100.7:51234", trusted)).toBe("198.51.100.7")
    expect(resolveClient("127.0.0.1", "[2001:db8::7]:443", trusted)).toBe("2001:db8::7")
    // The proxy wrote something unreadable after the client's forged entry: never trust the forgery.
    expect(resolveClient("127.0.0.1", "6.6.6.6, proxy-interno, 10.9.9.9", trusted)).toBe("10.9.9.9")
    expect(resolveClient("127.0.0.1", "6.6.6.6, basura", trusted)).toBe("127.0.0.1")
  })
})
