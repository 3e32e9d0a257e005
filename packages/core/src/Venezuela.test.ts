import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option } from "effect"
import * as Venezuela from "./Venezuela.js"

const digitString = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((ds) => ds.join(""))

const bankCode = fc.constantFrom(...Venezuela.banks.map((bank) => bank.codigo))
const rifLetter = fc.constantFrom(...Venezuela.tiposDoc)

const buildAccount = (bank: string, branch: string, account: string): string =>
  `${bank}${branch}${Option.getOrThrow(Venezuela.accountCheckDigits(bank, branch, account))}${account}`

/** The same text with the digit at `index` replaced by each other digit. */
const digitVariants = (text: string, index: number): Array<string> =>
  Array.from({ length: 10 }, (_, d) => String(d))
    .filter((d) => d !== text[index])
    .map((d) => text.slice(0, index) + d + text.slice(index + 1))

describe("Venezuela banks", () => {
  it("holds the 25 banks of bancos-ve.csv with their accents", () => {
    expect(Venezuela.banks).toHaveLength(25)
    expect(new Set(Venezuela.banks.map((bank) => bank.codigo)).size).toBe(25)
    expect(Venezuela.bankByCode("0104")).toEqual(
      Option.some({ codigo: "0104", nombre: "Venezolano de Crédito" })
    )
    expect(Venezuela.bankByCode("0128")).toEqual(Option.some({ codigo: "0128", nombre: "Caroní" }))
    expect(Venezuela.bankByCode("0191")).toEqual(
      Option.some({ codigo: "0191", nombre: "BNC Banco Nacional de Crédito" })
    )
  })

  it("knows only listed codes, written as exactly 4 digits", () => {
    expect(Venezuela.isBankCode("0134")).toBe(true)
    expect(Venezuela.isBankCode("0116")).toBe(false)
    expect(Venezuela.isBankCode("134")).toBe(false)
    expect(Venezuela.isBankCode(" 0134")).toBe(false)
    expect(Venezuela.bankByCode("9999")).toEqual(Option.none())
  })
})

describe("Venezuela accounts", () => {
  it("accepts a published Mercantil account and computes its check digits", () => {
    // From reyesoft/php-bank-accounts' test suite: 0105 0194 65 1194079423.
    expect(Venezuela.accountCheckDigits("0105", "0194", "1194079423")).toEqual(Option.some("65"))
    expect(Venezuela.isValidAccount("01050194651194079423")).toBe(true)
  })

  it("maps a mod-11 result of 10 to 0 and of 11 to 1", () => {
    // 0000 0000: sum 0, 11 - 0 = 11 -> 1. 0002 0000: 2 * 6 = 12, 12 mod 11 = 1, 11 - 1 = 10 -> 0.
    expect(Venezuela.accountCheckDigits("0000", "0000", "0000000000")).toEqual(Option.some("11"))
    expect(Venezuela.accountCheckDigits("0002", "0000", "0000000000")).toEqual(Option.some("01"))
  })

  it("refuses wrong check digits, unknown banks and anything but 20 digits", () => {
    expect(Venezuela.validateAccount("01340946340001361695")).toEqual(Either.left("digito_control"))
    expect(Venezuela.validateAccount("01160194651194079423")).toEqual(Either.left("banco_desconocido"))
    expect(Venezuela.validateAccount("0105019465119407942")).toEqual(Either.left("formato"))
    expect(Venezuela.validateAccount("010501946511940794231")).toEqual(Either.left("formato"))
    expect(Venezuela.validateAccount("0105019465119407942a")).toEqual(Either.left("formato"))
    expect(Venezuela.isValidAccount("")).toBe(false)
  })

  it("reads written forms with separators but isValidAccount wants the bare 20 digits", () => {
    expect(Venezuela.validateAccount(" 0105-0194-65-1194079423 ")).toEqual(
      Either.right("01050194651194079423")
    )
    expect(Venezuela.validateAccount("0105 0194 65 1194079423")).toEqual(Either.right("01050194651194079423"))
    expect(Venezuela.isValidAccount("0105-0194-65-1194079423")).toBe(false)
  })

  it("accountCheckDigits refuses parts of the wrong length", () => {
    expect(Venezuela.accountCheckDigits("105", "0194", "1194079423")).toEqual(Option.none())
    expect(Venezuela.accountCheckDigits("0105", "0194", "119407942")).toEqual(Option.none())
    expect(Venezuela.accountCheckDigits("0105", "01a4", "1194079423")).toEqual(Option.none())
  })

  it.prop(
    "an account built with its computed check digits validates",
    [bankCode, digitString(4), digitString(10)],
    ([bank, branch, account]) => {
      const full = buildAccount(bank, branch, account)
      expect(Venezuela.isValidAccount(full)).toBe(true)
      expect(Venezuela.validateAccount(full)).toEqual(Either.right(full))
    }
  )

  it.prop(
    "changing either check digit to any other digit is refused",
    [bankCode, digitString(4), digitString(10), fc.constantFrom(8, 9)],
    ([bank, branch, account, index]) => {
      for (const altered of digitVariants(buildAccount(bank, branch, account), index)) {
        expect(Venezuela.validateAccount(altered)).toEqual(Either.left("digito_control"))
      }
    }
  )

  it.prop(
    "changing one branch digit is caught by the check digits",
    [bankCode, digitString(4), digitString(10), fc.integer({ min: 4, max: 7 })],
    ([bank, branch, account, index]) => {
      for (const altered of digitVariants(buildAccount(bank, branch, account), index)) {
        expect(Venezuela.isValidAccount(altered)).toBe(false)
      }
    }
  )

  it("shows only the bank code and last 4 digits of an account", () => {
    expect(Venezuela.maskAccount("01050194651194079423")).toBe("0105 **** 9423")
    expect(Venezuela.maskAccount("123")).toBe("**** 123")
    expect(Venezuela.ultimos4("0105-0194-65-1194079423")).toBe("9423")
    expect(Venezuela.ultimos4("12")).toBe("12")
  })
})

describe("Venezuela phones", () => {
  it("normalises common written forms to 11 digits", () => {
    const canonical = Option.some("04141234567")
    expect(Venezuela.normalizePhone("04141234567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("0414-123.45.67")).toEqual(canonical)
    expect(Venezuela.normalizePhone("(0414) 123 4567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("+58 414 1234567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("+58-414-123-4567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("584141234567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("00584141234567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("+58 0414 1234567")).toEqual(canonical)
    expect(Venezuela.normalizePhone("4141234567")).toEqual(canonical)
  })

  it("accepts every mobile operator prefix", () => {
    for (const prefix of ["0412", "0414", "0416", "0422", "0424", "0426"]) {
      expect(Venezuela.normalizePhone(`${prefix}7654321`)).toEqual(Option.some(`${prefix}7654321`))
    }
  })

  it("refuses landlines, other countries, other prefixes and wrong lengths", () => {
    expect(Venezuela.isValidPhone("02121234567")).toBe(false)
    expect(Venezuela.isValidPhone("04151234567")).toBe(false)
    expect(Venezuela.isValidPhone("+57 414 1234567")).toBe(false)
    expect(Venezuela.isValidPhone("0414123456")).toBe(false)
    expect(Venezuela.isValidPhone("041412345678")).toBe(false)
    expect(Venezuela.isValidPhone("0414123456a")).toBe(false)
    expect(Venezuela.isValidPhone("")).toBe(false)
  })

  it.prop(
    "a canonical mobile number normalises to itself and from its +58 form",
    [fc.constantFrom(...Venezuela.mobilePrefixes), digitString(7)],
    ([prefix, rest]) => {
      const canonical = `${prefix}${rest}`
      expect(Venezuela.normalizePhone(canonical)).toEqual(Option.some(canonical))
      expect(Venezuela.normalizePhone(`+58 ${canonical.slice(1, 4)} ${rest}`)).toEqual(Option.some(canonical))
    }
  )

  it("telefono_pagador follows SPEC: optional leading 0, then 4 and 9 more digits", () => {
    expect(Venezuela.isTelefonoPagador("04141234567")).toBe(true)
    expect(Venezuela.isTelefonoPagador("4141234567")).toBe(true)
    // SPEC's rule is the shape only, not the operator list.
    expect(Venezuela.isTelefonoPagador("04991234567")).toBe(true)
    expect(Venezuela.isTelefonoPagador("02121234567")).toBe(false)
    expect(Venezuela.isTelefonoPagador("0414123456")).toBe(false)
    expect(Venezuela.isTelefonoPagador("041412345678")).toBe(false)
    expect(Venezuela.isTelefonoPagador("0414-1234567")).toBe(false)
    expect(Venezuela.isTelefonoPagador("+584141234567")).toBe(false)
    expect(Venezuela.isTelefonoPagador("004141234567")).toBe(false)
  })

  it.prop(
    "telefono_pagador is exactly /^0?4\\d{9}$/",
    [fc.string({ unit: fc.constantFrom("0", "4", "1", "9", "-", "+", " "), maxLength: 13 })],
    ([text]) => {
      expect(Venezuela.isTelefonoPagador(text)).toBe(/^0?4\d{9}$/.test(text))
    }
  )
})

describe("Venezuela RIF", () => {
  it("verifies published RIFs of banks and the state", () => {
    for (const rif of [
      "G-20009997-6", // Banco de Venezuela
      "J-07013380-5", // Banesco
      "J-00002961-0", // Mercantil
      "J-00002967-9", // Provincial
      "J-00002970-9", // Venezolano de Crédito
      "G-20000303-0", // SENIAT
      "J-00123072-6" // PDVSA
    ]) {
      expect(Venezuela.isValidRif(rif), rif).toBe(true)
    }
  })

  it("computes the check digit with letter values V1 E2 J3 P4 G5", () => {
    expect(Venezuela.rifCheckDigit("G", "20009997")).toEqual(Option.some(6))
    expect(Venezuela.rifCheckDigit("J", "07013380")).toEqual(Option.some(5))
    // Same body, different letters: the letter weighs 4 times its value.
    expect(Venezuela.rifCheckDigit("V", "12345678")).toEqual(Option.some(1))
    expect(Venezuela.rifCheckDigit("E", "12345678")).toEqual(Option.some(8))
    expect(Venezuela.rifCheckDigit("J", "12345678")).toEqual(Option.some(4))
    expect(Venezuela.rifCheckDigit("G", "12345678")).toEqual(Option.some(7))
    // P: sum 154 is 0 mod 11, 11 - 0 = 11 -> 0. Mercantil: sum 78 is 1 mod 11, 11 - 1 = 10 -> 0.
    expect(Venezuela.rifCheckDigit("P", "12345678")).toEqual(Option.some(0))
    expect(Venezuela.rifCheckDigit("J", "00002961")).toEqual(Option.some(0))
    expect(Venezuela.rifCheckDigit("X", "12345678")).toEqual(Option.none())
    expect(Venezuela.rifCheckDigit("J", "1234567")).toEqual(Option.none())
  })

  it("reads a RIF with or without hyphens, in any case", () => {
    const banesco = Option.some({ letra: "J", numero: "07013380", digito: 5 })
    expect(Venezuela.parseRif("J-07013380-5")).toEqual(banesco)
    expect(Venezuela.parseRif("J070133805")).toEqual(banesco)
    expect(Venezuela.parseRif(" j-07013380-5 ")).toEqual(banesco)
    expect(Venezuela.parseRif("J 07013380 5")).toEqual(banesco)
    expect(Venezuela.parseRif("J-7013380-5")).toEqual(Option.none())
    expect(Venezuela.parseRif("X-07013380-5")).toEqual(Option.none())
    expect(Venezuela.parseRif("J-07013380-4")).toEqual(Option.none())
    expect(Venezuela.formatRif({ letra: "J", numero: "07013380", digito: 5 })).toBe("J-07013380-5")
  })

  it.prop("a RIF with its computed check digit verifies", [rifLetter, digitString(8)], ([letter, body]) => {
    const digit = Option.getOrThrow(Venezuela.rifCheckDigit(letter, body))
    expect(digit).toBeGreaterThanOrEqual(0)
    expect(digit).toBeLessThanOrEqual(9)
    expect(Venezuela.isValidRif(`${letter}-${body}-${digit}`)).toBe(true)
    expect(Venezuela.isValidRif(`${letter}${body}${digit}`)).toBe(true)
  })

  it.prop("any other check digit is refused", [rifLetter, digitString(8)], ([letter, body]) => {
    const rif = `${letter}${body}${Option.getOrThrow(Venezuela.rifCheckDigit(letter, body))}`
    for (const altered of digitVariants(rif, 9)) expect(Venezuela.isValidRif(altered)).toBe(false)
  })
})

describe("Venezuela identity documents", () => {
  it("names every tipo_doc", () => {
    expect(Object.keys(Venezuela.tipoDocNombre).sort()).toEqual(["E", "G", "J", "P", "V"])
    expect(Venezuela.isTipoDoc("V")).toBe(true)
    expect(Venezuela.isTipoDoc("C")).toBe(false)
    expect(Venezuela.isTipoDoc("v")).toBe(false)
  })

  it("a cédula is V or E with 1 to 8 digits", () => {
    expect(Venezuela.isValidCedula("V-12.345.678")).toBe(true)
    expect(Venezuela.isValidCedula("e84123456")).toBe(true)
    expect(Venezuela.isValidCedula("V1")).toBe(true)
    expect(Venezuela.isValidCedula("V123456789")).toBe(false)
    expect(Venezuela.isValidCedula("V0")).toBe(false)
    expect(Venezuela.isValidCedula("J12345678")).toBe(false)
    expect(Venezuela.isValidCedula("12345678")).toBe(false)
  })

  it("parses a cédula with its letter in the text or in tipo_doc", () => {
    const expected = Either.right({ tipo_doc: "V", numero: "12345678" })
    expect(Venezuela.parseIdentificacion("V-12.345.678")).toEqual(expected)
    expect(Venezuela.parseIdentificacion("v 12345678")).toEqual(expected)
    expect(Venezuela.parseIdentificacion("12345678", "V")).toEqual(expected)
    expect(Venezuela.parseIdentificacion("V-01234567")).toEqual(
      Either.right({ tipo_doc: "V", numero: "1234567" })
    )
    expect(Venezuela.parseIdentificacion("E-84.123.456", "e")).toEqual(
      Either.right({ tipo_doc: "E", numero: "84123456" })
    )
  })

  it("parses a company RIF and checks its digit", () => {
    expect(Venezuela.parseIdentificacion("J-07013380-5")).toEqual(
      Either.right({ tipo_doc: "J", numero: "070133805" })
    )
    expect(Venezuela.parseIdentificacion("070133805", "J")).toEqual(
      Either.right({ tipo_doc: "J", numero: "070133805" })
    )
    expect(Venezuela.parseIdentificacion("G200099976")).toEqual(
      Either.right({ tipo_doc: "G", numero: "200099976" })
    )
    expect(Venezuela.parseIdentificacion("J-07013380-4")).toEqual(Either.left("digito_verificador"))
    expect(Venezuela.parseIdentificacion("J-07013380")).toEqual(Either.left("formato"))
  })

  it("a 9-digit V or E number is a personal RIF and must verify", () => {
    expect(Venezuela.parseIdentificacion("V-12345678-1")).toEqual(
      Either.right({ tipo_doc: "V", numero: "123456781" })
    )
    expect(Venezuela.parseIdentificacion("V-12345678-0")).toEqual(Either.left("digito_verificador"))
  })

  it("a passport is 4 to 15 letters and digits", () => {
    expect(Venezuela.parseIdentificacion("P-ab123456")).toEqual(
      Either.right({ tipo_doc: "P", numero: "AB123456" })
    )
    expect(Venezuela.parseIdentificacion("P-12")).toEqual(Either.left("formato"))
  })

  it("refuses a missing, unknown or contradicting type letter", () => {
    expect(Venezuela.parseIdentificacion("12345678")).toEqual(Either.left("tipo_doc"))
    expect(Venezuela.parseIdentificacion("X-12345678")).toEqual(Either.left("tipo_doc"))
    expect(Venezuela.parseIdentificacion("12345678", "Z")).toEqual(Either.left("tipo_doc"))
    expect(Venezuela.parseIdentificacion("V-12345678", "E")).toEqual(Either.left("tipo_doc"))
  })

  it("refuses empty, zero and malformed numbers", () => {
    expect(Venezuela.parseIdentificacion("")).toEqual(Either.left("tipo_doc"))
    expect(Venezuela.parseIdentificacion("V")).toEqual(Either.left("formato"))
    expect(Venezuela.parseIdentificacion("V-0000")).toEqual(Either.left("formato"))
    expect(Venezuela.parseIdentificacion("V-12a45")).toEqual(Either.left("formato"))
    expect(Venezuela.parseIdentificacion("V-1234567890")).toEqual(Either.left("formato"))
  })

  it("formats identities back as text", () => {
    expect(Venezuela.formatIdentificacion({ tipo_doc: "V", numero: "12345678" })).toBe("V-12345678")
    expect(Venezuela.formatIdentificacion({ tipo_doc: "J", numero: "070133805" })).toBe("J-07013380-5")
    expect(Venezuela.formatIdentificacion({ tipo_doc: "P", numero: "123456789" })).toBe("P-123456789")
  })

  it.prop(
    "a parsed RIF formats back to a text that parses to the same value",
    [rifLetter.filter((l) => l !== "P"), digitString(8)],
    ([letter, body]) => {
      const rif = `${letter}${body}${Option.getOrThrow(Venezuela.rifCheckDigit(letter, body))}`
      const parsed = Either.getOrThrow(Venezuela.parseIdentificacion(rif))
      expect(Venezuela.parseIdentificacion(Venezuela.formatIdentificacion(parsed))).toEqual(
        Either.right(parsed)
      )
    }
  )
})

describe("Venezuela.parseMerchantId: a merchant's identificacion at sign-up", () => {
  it.prop(
    "a J, G or P RIF is accepted only with its own check digit",
    [fc.constantFrom("J", "G", "P"), digitString(8)],
    ([letter, body]) => {
      const digit = Option.getOrThrow(Venezuela.rifCheckDigit(letter, body))
      expect(Either.isRight(Venezuela.parseMerchantId(`${letter}-${body}-${digit}`))).toBe(true)
      const wrong = (digit + 1) % 10
      expect(Venezuela.parseMerchantId(`${letter}-${body}-${wrong}`)).toEqual(
        Either.left("digito_verificador")
      )
    }
  )

  it("a cédula takes V or E and digits; anything else is refused", () => {
    expect(Either.isRight(Venezuela.parseMerchantId("V-12.345.678"))).toBe(true)
    expect(Either.isRight(Venezuela.parseMerchantId("12345678", "E"))).toBe(true)
    expect(Either.isLeft(Venezuela.parseMerchantId("12345678"))).toBe(true)
    expect(Either.isLeft(Venezuela.parseMerchantId("V-12A45678"))).toBe(true)
    expect(Either.isLeft(Venezuela.parseMerchantId("J-123"))).toBe(true)
    expect(Either.isLeft(Venezuela.parseMerchantId("P-AB12345"))).toBe(true)
    expect(Either.isLeft(Venezuela.parseMerchantId("hola"))).toBe(true)
  })
})
