import { describe, expect, it } from "vitest"
import * as Csv from "./Csv.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const HASH = "a".repeat(64)

const table = (text: string) => {
  const { text: decoded, bom } = Csv.decode(bytes(text))
  return Csv.parse(decoded, bom)
}

describe("reading", () => {
  it("detects a semicolon delimiter and keeps quoted delimiters, quotes and line breaks inside cells", () => {
    const t = table('monto;concepto\r\n10,50;"Mensualidad; marzo"\r\n20;"Dice ""hola""\ny adiós"\r\n')
    expect(t.delimiter).toBe(";")
    expect(t.header).toEqual(["monto", "concepto"])
    expect(t.records.map((r) => r.cells)).toEqual([
      ["10,50", "Mensualidad; marzo"],
      ["20", 'Dice "hola"\ny adiós']
    ])
  })

  it("drops a UTF-8 BOM and remembers it for the output", () => {
    const t = table("\uFEFFmonto,concepto\n5,Café\n")
    expect(t.bom).toBe(true)
    expect(t.header[0]).toBe("monto")
    expect(t.records[0]?.cells).toEqual(["5", "Café"])
  })

  it("refuses a file that is not UTF-8, saying how to fix it", () => {
    const latin1 = new Uint8Array([0x6d, 0x6f, 0x6e, 0x74, 0x6f, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a])
    expect(() => Csv.decode(latin1)).toThrow(/UTF-8/)
  })

  it("numbers rows as a spreadsheet does, counting blank lines and multi-line cells", () => {
    const t = table('monto,concepto\n1,a\n\n2,"x\ny"\n3,b\n')
    expect(t.records.map((r) => r.row)).toEqual([2, 4, 6])
  })

  it("refuses an unclosed quote", () => {
    expect(() => table('monto,concepto\n1,"abierta\n')).toThrow(/comilla/)
  })
})

describe("amounts", () => {
  it.each([
    ["150", 15000],
    ["150.5", 15050],
    ["150,50", 15050],
    ["1.234,56", 123456],
    ["1,234.56", 123456],
    ["1.234.567", 123456700],
    [" 7,00 ", 700],
    ["Bs 20,10", 2010]
  ])("reads %s as %i cents", (text, cents) => {
    expect(Csv.parseMonto(text)).toEqual({ cents })
  })

  it.each([
    ["", /obligatorio/],
    ["0", /mayor que 0/],
    ["-5", /mayor que 0/],
    ["1,234", /ambiguo/],
    ["12.345,6789", /decimales/],
    ["12,3,4", /no es un monto/],
    ["abc", /no es un monto/],
    ["1.23.4", /no es un monto/]
  ])("refuses %j", (text, message) => {
    const result = Csv.parseMonto(text)
    expect("error" in result && result.error).toMatch(message)
  })
})

describe("validation", () => {
  it("reports every bad row by row and column and returns no items", () => {
    const t = table(
      [
        "monto,concepto,cliente_telefono",
        "10,Bien,0414",
        "abc,Mal monto,",
        "5,,",
        `7,${"x".repeat(141)},`
      ].join("\n")
    )
    const { items, errors } = Csv.validate(t, HASH)
    expect(items).toEqual([])
    expect(errors).toEqual([
      { fila: 3, columna: "monto (A)", mensaje: '"abc" no es un monto válido' },
      { fila: 4, columna: "concepto (B)", mensaje: "es obligatorio" },
      { fila: 5, columna: "concepto (B)", mensaje: "admite como máximo 140 caracteres (tiene 141)" }
    ])
  })

  it("catches an unquoted delimiter inside a concept as an extra column", () => {
    const t = table("monto,concepto\n10,Mensualidad marzo, hermano\n")
    const { errors } = Csv.validate(t, HASH)
    expect(errors[0]).toMatchObject({ fila: 2, columna: null })
    expect(errors[0]?.mensaje).toMatch(/3 columnas/)
  })

  it("requires the monto and concepto columns", () => {
    const { errors } = Csv.validate(table("importe,concepto\n1,a\n"), HASH)
    expect(errors).toEqual([{ fila: 1, columna: "monto", mensaje: "falta la columna en el encabezado" }])
  })

  it("refuses an idempotency key repeated in the file", () => {
    const { errors } = Csv.validate(table("monto,concepto,idempotency_key\n1,a,k1\n2,b,k1\n"), HASH)
    expect(errors).toEqual([
      { fila: 3, columna: "idempotency_key (C)", mensaje: "repite la clave de la fila 2" }
    ])
  })

  it("builds items with customer data and derives a key from the file and row when the column is empty", () => {
    const t = table(
      "Monto;Concepto;referencia_externa;cliente_nombre;cliente_telefono;idempotency_key\n" +
        "10,5;Uno;PED-1;Ana;04141234567;\n20;Dos;;;;propia\n"
    )
    const { items, errors } = Csv.validate(t, HASH)
    expect(errors).toEqual([])
    expect(items).toMatchObject([
      {
        row: 2,
        monto: 10.5,
        concepto: "Uno",
        referencia_externa: "PED-1",
        cliente: { nombre: "Ana", telefono: "04141234567" },
        idempotency_key: Csv.itemKey(HASH, 2)
      },
      { row: 3, monto: 20, concepto: "Dos", idempotency_key: "propia" }
    ])
    expect(items[1]).not.toHaveProperty("cliente")
    expect(Csv.itemKey(HASH, 2).length).toBeLessThanOrEqual(64)
    expect(Csv.loteKey(HASH, 3, 3).length).toBeLessThanOrEqual(64)
  })

  it("derives the same keys from the same bytes and different keys from a changed file", () => {
    const a = Csv.fileHash(bytes("monto,concepto\n1,a\n"))
    expect(Csv.fileHash(bytes("monto,concepto\n1,a\n"))).toBe(a)
    expect(Csv.fileHash(bytes("monto,concepto\n1,b\n"))).not.toBe(a)
  })
})

describe("batches and output", () => {
  it("splits 1,200 items into batches of 500, 500 and 200", () => {
    const parts = Csv.chunk(Array.from({ length: 1200 }, (_, i) => i))
    expect(parts.map((p) => p.length)).toEqual([500, 500, 200])
  })

  it("writes the input rows with link_id and url, in the input's delimiter and with its BOM", () => {
    const t = table('\uFEFFmonto;concepto;nota\n10;"Uno; dos";x\n')
    const { items } = Csv.validate(t, HASH)
    const links = new Map([[items[0]!.idempotency_key, { link_id: "L1", url: "https://s/l/L1" }]])
    expect(Csv.writeWithLinks(t, items, links)).toBe(
      '\uFEFFmonto;concepto;nota;link_id;url\r\n10;"Uno; dos";x;L1;https://s/l/L1\r\n'
    )
  })

  it("names spreadsheet columns past Z", () => {
    expect([0, 25, 26, 27, 701].map(Csv.columnLetter)).toEqual(["A", "Z", "AA", "AB", "ZZ"])
  })
})
