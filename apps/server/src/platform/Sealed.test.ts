import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { open, seal } from "./Sealed.js"

const secret = Redacted.make("secreto-del-servidor")

describe("sealed secrets", () => {
  it("round-trips, never shows the plaintext, and differs every time", () => {
    const a = seal(secret, "webhook", "id-1", "whsec_abc")
    const b = seal(secret, "webhook", "id-1", "whsec_abc")
    expect(a).toMatch(/^v1:[A-Za-z0-9+/]+=*$/)
    expect(a).not.toContain("whsec_abc")
    expect(a).not.toBe(b)
    expect(open(secret, "webhook", "id-1", a)).toBe("whsec_abc")
  })

  it("refuses another row's id, another purpose, another server secret or a changed byte", () => {
    const sealed = seal(secret, "webhook", "id-1", "whsec_abc")
    expect(() => open(secret, "webhook", "id-2", sealed)).toThrow()
    expect(() => open(secret, "flow", "id-1", sealed)).toThrow()
    expect(() => open(Redacted.make("otro"), "webhook", "id-1", sealed)).toThrow()
    const bytes = Buffer.from(sealed.slice(3), "base64")
    bytes[14] = (bytes[14] ?? 0) ^ 1
    expect(() => open(secret, "webhook", "id-1", `v1:${bytes.toString("base64")}`)).toThrow()
    // A value cut short (a shorter tag would otherwise be accepted) is refused.
    const short = Buffer.from(sealed.slice(3), "base64").subarray(0, 20).toString("base64")
    expect(() => open(secret, "webhook", "id-1", `v1:${short}`)).toThrow()
    const truncatedTag = Buffer.from(sealed.slice(3), "base64")
    expect(() =>
      open(
        secret,
        "webhook",
        "id-1",
        `v1:${truncatedTag.subarray(0, truncatedTag.length - 12).toString("base64")}`
      )
    ).toThrow()
  })

  it("reads a value stored before sealing as it is", () => {
    expect(open(secret, "webhook", "id-1", "whsec_viejo")).toBe("whsec_viejo")
  })
})
