import { describe, expect, it } from "vitest"
import { cifrar, claveDe, descifrar } from "./Cifrado.js"

/**
 * The vector, worked outside this code from the published method (SHA-256 of the secret, its
 * first 16 bytes as the AES-128 key, ECB, PKCS#5 padding, base64), with coreutils and openssl:
 *
 *   printf 'secreto-de-prueba' | sha256sum
 *     0d0eb9cbe6597cf6ee1d08613b2c44c7 9d46cec25256f7497365521244e33ea7
 *   K=0d0eb9cbe6597cf6ee1d08613b2c44c7
 *   printf '584141234567' | openssl enc -aes-128-ecb -K $K -base64      jUySbcWKZUk3566GrOhzuQ==
 *   printf 'V12345678' | openssl enc -aes-128-ecb -K $K -base64         F1wfhF7Q2sROjHCbwPO+ug==
 *   printf '0123456789abcdef' | openssl enc -aes-128-ecb -K $K -base64 -A
 *     rVi2u6eoqiZjZPnDDHoP2jxdAuLt5M8dH50hUCdhntI=   (a full block adds a whole padding block)
 */
const SECRETO = "secreto-de-prueba"

describe("Mercantil field encryption", () => {
  it("the key is the first 16 bytes of the SHA-256 of the merchant secret", () => {
    expect(claveDe(SECRETO).toString("hex")).toBe("0d0eb9cbe6597cf6ee1d08613b2c44c7")
  })

  it("encrypts as the vector worked by hand from the published method", () => {
    const clave = claveDe(SECRETO)
    expect(cifrar(clave, "584141234567")).toBe("jUySbcWKZUk3566GrOhzuQ==")
    expect(cifrar(clave, "V12345678")).toBe("F1wfhF7Q2sROjHCbwPO+ug==")
    expect(cifrar(clave, "0123456789abcdef")).toBe("rVi2u6eoqiZjZPnDDHoP2jxdAuLt5M8dH50hUCdhntI=")
  })

  it("decrypts what it encrypts, and a wrong secret does not read it", () => {
    const clave = claveDe(SECRETO)
    for (const texto of ["", "1", "00001111", "V12345678", "ñandú 584141234567 ".repeat(3)])
      expect(descifrar(clave, cifrar(clave, texto))).toBe(texto)
    const otra = claveDe("otro-secreto")
    let leido: string | null = null
    try {
      leido = descifrar(otra, cifrar(clave, "584141234567"))
    } catch {}
    expect(leido).not.toBe("584141234567")
  })
})
