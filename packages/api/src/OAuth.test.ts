import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
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

describe("OAuth scopes, for any request", () => {
  const method = FastCheck.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")
  const segment = FastCheck.stringMatching(/^[a-z0-9_-]{1,12}$/)
  const path = FastCheck.array(segment, { minLength: 1, maxLength: 4 }).map(
    (parts) => `/switch/v1/${parts.join("/")}`
  )
  const scopes = FastCheck.subarray([...SCOPES])

  it.prop(
    "no token, whatever its scopes, reaches a route that moves money",
    [method, segment, scopes],
    ([m, tail, s]) => {
      for (const money of ["pagar", "cobrar", "dispersiones", "reintegro", "reverso"]) {
        expect(tokenAllows(s, m, `/switch/v1/${money}`)).toBe(false)
        expect(tokenAllows(s, m, `/switch/v1/${money}/${tail}`)).toBe(false)
      }
    }
  )

  it.prop(
    "a token reaches a route only with the one scope that route needs",
    [method, path, scopes],
    ([m, p, s]) => {
      const needed = scopeFor(m, p)
      expect(tokenAllows(s, m, p)).toBe(needed !== undefined && s.includes(needed))
      if (needed === undefined) expect(tokenAllows(SCOPES, m, p)).toBe(false)
    }
  )

  it.prop("writing needs links:write: no read scope opens an unsafe method", [method, path], ([m, p]) => {
    if (m !== "GET" && m !== "HEAD" && p !== "/switch/v1/consultar")
      expect(
        tokenAllows(["links:read", "transacciones:read", "liquidaciones:read", "bancos:read"], m, p)
      ).toBe(false)
  })
})
