/**
 * Passwords of portal users, hashed with scrypt (node:crypto): `scrypt$N$r$p$salt$hash`, base64
 * parts, so the cost can rise later and old hashes still verify. Verifying compares in constant
 * time; {@link verifyNone} spends the same work when there is no user, so the answer's timing
 * does not tell whether an e-mail exists.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto"

const COST = { N: 16384, r: 8, p: 1 } as const
const KEY_LENGTH = 64

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error === null ? resolve(key) : reject(error))
    )
  )

/** A new hash of `password`, with a fresh random salt. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16)
  const key = await derive(password, salt, COST)
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64"), key.toString("base64")].join("$")
}

/** Whether `password` matches `stored`; false for anything that is not one of our hashes. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || key === undefined) return false
  const expected = Buffer.from(key, "base64")
  const actual = await derive(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p)
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

const NONE = hashPassword(randomBytes(12).toString("base64"))

/** The work of one verification, for a sign-in whose e-mail has no user; always false. */
export const verifyNone = async (password: string): Promise<false> => {
  await verifyPassword(password, await NONE)
  return false
}
