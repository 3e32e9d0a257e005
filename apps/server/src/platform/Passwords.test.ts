import { describe, expect, it } from "vitest"
import { hashPassword, verifyNone, verifyPassword } from "./Passwords.js"

describe("passwords", () => {
  it("a hash verifies its password and no other, and two hashes of one password differ", async () => {
    const hash = await hashPassword("clave-segura-123")
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(await verifyPassword("clave-segura-123", hash)).toBe(true)
    expect(await verifyPassword("clave-segura-124", hash)).toBe(false)
    expect(await hashPassword("clave-segura-123")).not.toBe(hash)
  })
  it("anything that is not a scrypt hash never verifies", async () => {
    expect(await verifyPassword("x", "")).toBe(false)
    expect(await verifyPassword("x", "plain")).toBe(false)
    expect(await verifyNone("x")).toBe(false)
  })
})
