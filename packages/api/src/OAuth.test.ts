import { describe, expect, it } from "@effect/vitest"
import { parseScopes, SCOPES, scopeFor, tokenAllows } from "./OAuth.js"

describe("OAuth scopes", () => {
  it("opens the links, a transaction's query, settlements and no more", () => {
    expect(scopeFor("GET", "/switch/v1/links")).toBe("links:read")
    expect(scopeFor("GET", "/switch/v1/links/abc")).toBe("links:read")
    expect(scopeFor("POST", "/switch/v1/links")).toBe("links:write")
    expect(scopeFor("POST", "/switch/v1/links/abc/cancelar")).toBe("links:write")
    expect(scopeFor("POST", "/switch/v1/consultar")).toBe("transacciones:read")
    expect(scopeFor("GET", "/switch/v1/liquidaciones")).toBe("liquidaciones:read")
  })

  it("never opens what sends, refunds or withdraws money, nor keys or webhooks", () => {
    for (const [method, path] of [
      ["POST", "/switch/v1/pagar"],
      ["POST", "/switch/v1/cobrar"],
      ["POST", "/switch/v1/dispersiones"],
      ["POST", "/switch/v1/reintegro"],
      ["POST", "/switch/v1/reverso"],
      ["POST", "/switch/v1/links/abc/simular"],
      ["POST", "/switch/v1/lotes"],
      ["POST", "/switch/v1/llaves"],
      ["POST", "/switch/v1/webhooks"],
      ["PUT", "/switch/v1/config"],
      ["GET", "/switch/v1/links/abc/cancelar"],
      ["POST", "/switch/v1/links/a/b/cancelar"]
    ] as const)
      expect(tokenAllows(SCOPES, method, path), `${method} ${path}`).toBe(false)
  })

  it("needs the route's own scope", () => {
    expect(tokenAllows(["links:read"], "POST", "/switch/v1/links")).toBe(false)
    expect(tokenAllows(["links:write"], "POST", "/switch/v1/links")).toBe(true)
  })

  it("parses a scope parameter, refusing unknown scopes", () => {
    expect(parseScopes("links:write links:read")).toEqual(["links:read", "links:write"])
    expect(parseScopes("links:read pagos:write")).toBeUndefined()
    expect(parseScopes("")).toEqual([])
  })
})
