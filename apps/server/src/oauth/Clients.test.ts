/**
 * Redirect URIs (issue 47): native apps come back on a private-use scheme (RFC 8252 §7.1) or a
 * loopback port of the moment (§7.3); a URI a browser would run, read locally or send off the
 * device in the clear is refused however it is spelled.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { redirectHost, redirectMatches, redirectRefusal } from "./Clients.js"

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/)
const reverseDomain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join("."))
const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/)
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join("/")}`)
const loopback = fc.constantFrom("127.0.0.1", "[::1]", "localhost")
const port = fc.integer({ min: 1, max: 65_535 })

/** Schemes a browser runs, reads locally with, or sends in the clear; none is a native app's. */
const dangerous = fc.constantFrom(
  "javascript:alert(1)",
  "javascript://%0Aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:,x",
  "file:///etc/passwd",
  "file://host/share",
  "vbscript:msgbox(1)",
  "blob:https://a.example/0f0e",
  "about:blank",
  "view-source:https://a.example/",
  "filesystem:https://a.example/temporary/x",
  "intent://cb#Intent;scheme=x;end",
  "ftp://a.example/cb",
  "ws://127.0.0.1/cb",
  "wss://a.example/cb",
  "mailto:a@b.example",
  "tel:+580000000",
  "http://asistente.example/cb",
  "http://127.0.0.1.example/cb",
  "http://10.0.0.1/cb",
  "myapp:/cb",
  "com.example.app://cb/x",
  "com.example.app:cb",
  "com.example.app:/cb#x",
  "https://a.example/cb#x",
  "https://user:pw@a.example/cb"
)

/** A spelling of `uri`: letters of its scheme in any case, a blank or control character in front or inside. */
const spelled = fc
  .tuple(
    dangerous,
    fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    fc.constantFrom("", " ", "\t", "\n", "\u0000", "\u000c"),
    fc.constantFrom("", "\t", "\n", "\r"),
    fc.nat({ max: 10 })
  )
  .map(([uri, upper, before, inside, at]) => {
    const colon = uri.indexOf(":")
    const scheme = [...uri.slice(0, colon)].map((c, i) => (upper[i % 12] ? c.toUpperCase() : c)).join("")
    const spot = Math.min(at, scheme.length)
    return `${before}${scheme.slice(0, spot)}${inside}${scheme.slice(spot)}${uri.slice(colon)}`
  })

/** What an accepted redirect URI may be: https, http on loopback, or a dotted scheme without authority. */
const safe = (raw: string) => {
  const url = new URL(raw)
  if (url.protocol === "https:") return true
  if (url.protocol === "http:") return ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)
  return url.protocol.slice(0, -1).includes(".") && url.host === "" && url.pathname.startsWith("/")
}

describe("redirect URIs", () => {
  it.prop(
    "a URI a browser would run, read locally or send in the clear is refused, however it is spelled",
    [spelled],
    ([uri]) => {
      expect(redirectRefusal(uri), JSON.stringify(uri)).toBeDefined()
      expect(redirectRefusal(uri, "web"), JSON.stringify(uri)).toBeDefined()
    }
  )

  it.prop(
    "whatever is accepted is https, http on a loopback address, or a private-use scheme",
    [fc.oneof(spelled, fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string())],
    ([uri]) => {
      if (redirectRefusal(uri) === undefined) expect(safe(uri), JSON.stringify(uri)).toBe(true)
    }
  )

  it.prop(
    "a native app's private-use scheme, a reversed domain with a single slash, is accepted; a web app's is not",
    [reverseDomain, path, fc.option(fc.stringMatching(/^[a-z]=[a-z0-9]{0,6}$/), { nil: undefined })],
    ([scheme, rest, query]) => {
      const uri = `${scheme}:${rest}${query === undefined ? "" : `?${query}`}`
      expect(redirectRefusal(uri), uri).toBeUndefined()
      expect(redirectRefusal(uri, "web"), uri).toBeDefined()
      expect(redirectHost(uri)).toBe(scheme)
      expect(redirectRefusal(`${scheme}:/${rest}`), "no naming authority: one slash").toBeDefined()
    }
  )

  it.prop(
    "a loopback redirect matches on any port, and only on its own host, path and query",
    [loopback, port, port, path, loopback, path],
    ([host, registeredPort, givenPort, rest, otherHost, otherPath]) => {
      const registered = [`http://${host}:${registeredPort}${rest}`]
      expect(redirectMatches(registered, `http://${host}:${givenPort}${rest}`)).toBe(true)
      expect(redirectMatches(registered, `http://${host}${rest}`)).toBe(true)
      if (otherHost !== host)
        expect(redirectMatches(registered, `http://${otherHost}:${givenPort}${rest}`)).toBe(false)
      if (otherPath !== rest)
        expect(redirectMatches(registered, `http://${host}:${givenPort}${otherPath}`)).toBe(false)
      expect(redirectMatches(registered, `http://${host}:${givenPort}${rest}?x=1`)).toBe(false)
      expect(redirectMatches(registered, `http://${host}:${givenPort}${rest}/../${rest.slice(1)}`)).toBe(
        false
      )
      expect(redirectMatches(registered, `https://${host}:${givenPort}${rest}`)).toBe(false)
    }
  )

  it("other redirect URIs match only as registered, to the character", () => {
    const registered = ["https://a.example/cb", "com.example.app:/cb"]
    expect(redirectMatches(registered, "https://a.example/cb")).toBe(true)
    expect(redirectMatches(registered, "com.example.app:/cb")).toBe(true)
    for (const other of [
      "https://a.example:8443/cb",
      "https://a.example/cb/",
      "https://A.example/cb",
      "com.example.app:/cb/",
      "com.example.app:/CB",
      "com.example.other:/cb"
    ])
      expect(redirectMatches(registered, other), other).toBe(false)
  })
})
