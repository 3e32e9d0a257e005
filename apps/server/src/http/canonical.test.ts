import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { isCanonical } from "./Canonical.js"

const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/)
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`)
const query = fc.option(fc.stringMatching(/^[a-z]=[a-z0-9]{0,6}$/), { nil: undefined })
const target = fc.tuple(path, query).map(([p, q]) => (q === undefined ? p : `${p}?${q}`))

describe("a request target's canonical form", () => {
  it("takes the routes' own spelling, with a trailing slash and a query", () => {
    for (const ok of [
      "/",
      "/switch/v1/links",
      "/switch/v1/links/",
      "/switch/v1/links?limit=5&q=a//b;c",
      "/l/abc%2Fd"
    ])
      expect(isCanonical(ok), ok).toBe(true)
  })

  it("refuses the spellings the router used to take for another route", () => {
    for (const bad of [
      "/switch/v1//equipo",
      "//switch/v1/llaves",
      "/switch/v1/%6claves",
      "/switch/v1/%6Claves",
      "/switch/v1/llaves;x",
      "/switch/v1/./llaves",
      "/switch/v1/x/../llaves",
      "/switch/v1/llaves/..",
      "/switch/v1/%2e%2e/llaves",
      "/switch/v1\\llaves",
      "/switch/v1/llaves%",
      "/switch/v1/llaves%zz",
      "http://127.0.0.1:8080/switch/v1/llaves",
      "*"
    ])
      expect(isCanonical(bad), bad).toBe(false)
  })

  it.prop("any canonical target stays canonical", [target], ([t]) => {
    expect(isCanonical(t)).toBe(true)
  })

  it.prop(
    "an empty, dot or escaped-unreserved segment anywhere makes it not canonical",
    [path, fc.nat(), fc.constantFrom("", ".", "..", "%61", "%7E", "%2D", "%30", "x;y")],
    ([p, at, inserted]) => {
      const parts = p.split("/").slice(1)
      const i = at % parts.length
      const spelled = `/${[...parts.slice(0, i), inserted, ...parts.slice(i)].join("/")}`
      expect(isCanonical(spelled), spelled).toBe(false)
    }
  )

  it.prop("an absolute-form target is never canonical", [target], ([t]) => {
    expect(isCanonical(`http://host${t}`)).toBe(false)
    expect(isCanonical(`https://host:8443${t}`)).toBe(false)
  })
})
