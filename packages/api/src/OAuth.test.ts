import { describe, expect, it } from "@effect/vitest"
import { parseScopes } from "./OAuth.js"

// Which endpoint each scope opens is the endpoints' grant: Permisos.test.ts.
describe("OAuth scopes", () => {
  it("parses a scope parameter, refusing unknown scopes", () => {
    expect(parseScopes("links:write links:read")).toEqual(["links:read", "links:write"])
    expect(parseScopes("links:read pagos:write")).toBeUndefined()
    expect(parseScopes("")).toEqual([])
  })
})
