import { describe, expect, it } from "vitest"
import { fromBase32, newTotpSecret, toBase32, totpCode, totpStep, totpUri, verifyTotp } from "./Totp.js"

// RFC 6238 appendix B: the SHA-1 secret is the ASCII "12345678901234567890"; codes are the last
// six digits of the eight the RFC lists.
const RFC_SECRET = toBase32(Buffer.from("12345678901234567890"))

describe("totp", () => {
  it("matches RFC 6238's SHA-1 test vectors", () => {
    const vectors: Array<[number, string]> = [
      [59, "287082"],
      [1111111109, "081804"],
      [1111111111, "050471"],
      [1234567890, "005924"],
      [2000000000, "279037"],
      [20000000000, "353130"]
    ]
    for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000))).toBe(code)
  })

  it("base32 round-trips and refuses what is not base32", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255])
    expect(fromBase32(toBase32(bytes))).toEqual(bytes)
    expect(toBase32(Buffer.from("foobar"))).toBe("MZXW6YTBOI")
    expect(fromBase32("mzxw 6ytb oi==")?.toString()).toBe("foobar")
    expect(fromBase32("MZ1")).toBeUndefined()
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/)
  })

  it("accepts the step either side, refuses older ones and a replayed step", () => {
    const secret = newTotpSecret()
    const at = 1_700_000_000_000
    const now = totpStep(at)
    expect(verifyTotp(secret, totpCode(secret, now), at)).toBe(now)
    expect(verifyTotp(secret, totpCode(secret, now - 1), at)).toBe(now - 1)
    expect(verifyTotp(secret, totpCode(secret, now + 1), at)).toBe(now + 1)
    expect(verifyTotp(secret, totpCode(secret, now - 2), at)).toBeUndefined()
    expect(verifyTotp(secret, totpCode(secret, now), at, now)).toBeUndefined()
    expect(verifyTotp(secret, "12345", at)).toBeUndefined()
    expect(verifyTotp(secret, "abcdef", at)).toBeUndefined()
  })

  it("writes the otpauth URI authenticator apps read", () => {
    expect(totpUri("ABC", "ana@tienda.com")).toBe(
      "otpauth://totp/Switch%3Aana%40tienda.com?secret=ABC&issuer=Switch&algorithm=SHA1&digits=6&period=30"
    )
  })
})
