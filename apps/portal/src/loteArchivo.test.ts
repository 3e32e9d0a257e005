import { deflateRawSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { chunks, LOTE_MAX_ITEMS, parseCsv, readCsv, readRows, toCsv } from "./loteArchivo.js"
import { readXlsx, sheetRows, unescapeXml } from "./xlsx.js"

describe("a batch file's CSV", () => {
  it("reads quotes, doubled quotes, line breaks inside quotes, CRLF and a BOM", () => {
    expect(parseCsv('\ufeffmonto,concepto\r\n10,"Torta, grande"\r\n5,"Dijo ""hola""\ny se fue"\r\n')).toEqual(
      [
        ["monto", "concepto"],
        ["10", "Torta, grande"],
        ["5", 'Dijo "hola"\ny se fue']
      ]
    )
  })
  it("takes ; as the separator when the header has more of them (Excel in Spanish)", () => {
    expect(parseCsv("monto;concepto\n1.234,56;Cuota")).toEqual([
      ["monto", "concepto"],
      ["1.234,56", "Cuota"]
    ])
  })
})

describe("a batch file's rows, checked against SPEC's batch rules", () => {
  it("makes items of the valid rows, with the optional fields only when present", () => {
    const file = readCsv(
      'monto,concepto,referencia,nombre,telefono,clave\n"1.234,56",Cuota 1,F-1,Ana,04141234567,k1\n10,Cuota 2,,,,\n'
    )
    expect(file.filas).toEqual([
      {
        fila: 2,
        item: {
          monto: 1234.56,
          concepto: "Cuota 1",
          referencia_externa: "F-1",
          cliente: { nombre: "Ana", telefono: "04141234567" },
          idempotency_key: "k1"
        }
      },
      { fila: 3, item: { monto: 10, concepto: "Cuota 2" } }
    ])
  })
  it("reports every row's errors with its spreadsheet row number and skips blank rows", () => {
    const long = "x".repeat(141)
    const file = readCsv(
      [
        "monto,concepto,referencia,clave",
        "10,Bien,,a",
        ",,,",
        "0,Cero,,",
        "-5,Negativo,,",
        '"10,123",Tres decimales,,',
        "diez,Texto,,",
        `10,${long},,`,
        "10,,,",
        `10,Ref larga,${"r".repeat(65)},`,
        "10,Clave repetida,,a",
        "10,Emoji 🎂 cuenta uno,,"
      ].join("\n")
    )
    const errors = file.filas.filter((f) => f.errores !== undefined).map((f) => [f.fila, f.errores])
    expect(errors).toEqual([
      [4, ["El monto debe ser mayor que 0"]],
      [5, ["El monto debe ser mayor que 0"]],
      [6, ["Monto «10,123» no es un número con hasta 2 decimales"]],
      [7, ["Monto «diez» no es un número con hasta 2 decimales"]],
      [8, ["El concepto admite como máximo 140 caracteres"]],
      [9, ["Falta el concepto"]],
      [10, ["La referencia admite como máximo 64 caracteres"]],
      [11, ["La clave de idempotencia repite la de la fila 2"]]
    ])
    expect(file.filas.filter((f) => f.item !== undefined).map((f) => f.fila)).toEqual([2, 12])
  })
  it("counts characters as code points, as the server does", () => {
    const file = readCsv(`monto,concepto\n1,${"🎂".repeat(140)}\n1,${"🎂".repeat(141)}`)
    expect(file.filas.map((f) => f.errores === undefined)).toEqual([true, false])
  })
  it("refuses a file without the monto and concepto headers, an empty one, and one of over 5,000 rows", () => {
    expect(readCsv("").error).toBe("El archivo está vacío.")
    expect(readCsv("importe,descripcion\n1,a").error).toMatch(/«monto» y «concepto»/)
    expect(readCsv("monto,concepto\n").error).toMatch(/no tiene filas/)
    const big = ["monto,concepto", ...Array.from({ length: 5001 }, (_, i) => `1,c${i}`)].join("\n")
    expect(readCsv(big).error).toMatch(/5001|5\.001/)
  })
  it("splits the valid rows into batches of at most 500, keeping each row's number", () => {
    const rows = [
      ["monto", "concepto"],
      ...Array.from({ length: 1203 }, (_, i) => [i === 7 ? "0" : "1", `c${i}`])
    ]
    const parts = chunks(readRows(rows).filas)
    expect(parts.map((p) => p.length)).toEqual([LOTE_MAX_ITEMS, LOTE_MAX_ITEMS, 202])
    expect(parts[0]?.[7]?.fila).toBe(10)
  })
})

describe("the result file", () => {
  it("quotes what needs quoting and defuses formulas", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["x,y", "=SUMA(1)"],
          [1.5, null]
        ]
      )
    ).toBe('\ufeffa,b\r\n"x,y",\'=SUMA(1)\r\n1.5,\r\n')
  })
})

/** A zip of `files`, deflated like Excel's, built by hand (the reader must not need a library either). */
const zip = (files: Record<string, string>): Uint8Array => {
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name)
    const data = deflateRawSync(Buffer.from(text))
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(Buffer.byteLength(text), 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(Buffer.byteLength(text), 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, dir, end]))
}

describe("an .xlsx batch file", () => {
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet><sheetData>
    <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>nombre</t></is></c></row>
    <row r="2"><c r="A2"><v>12.300000000000001</v></c><c r="B2" t="s"><v>2</v></c><c r="D2" t="s"><v>3</v></c></row>
    <row r="4"><c r="A4"><v>1234.5</v></c><c r="B4" t="str"><v>A &amp; B</v></c></row>
    <row r="5"><c r="A5"><v>1.234</v></c><c r="B5" t="inlineStr"><is><t>Tres decimales</t></is></c></row>
  </sheetData></worksheet>`
  const shared = `<sst><si><t>monto</t></si><si><t>concepto</t></si><si><r><t>Cuota </t></r><r><rPr/><t xml:space="preserve">de mayo</t></r></si><si><t>Ana &lt;Ñ&gt; &#233;</t></si></sst>`

  it("reads the first sheet with its shared strings, rich text, inline strings and gaps", async () => {
    const rows = await readXlsx(zip({ "xl/worksheets/sheet1.xml": sheet, "xl/sharedStrings.xml": shared }))
    expect(rows).toEqual([
      ["monto", "concepto", "", "nombre"],
      ["12,3", "Cuota de mayo", "", "Ana <Ñ> é"],
      [],
      ["1234,5", "A & B"],
      ["1,234", "Tres decimales"]
    ])
    expect(readRows(rows).filas).toEqual([
      { fila: 2, item: { monto: 12.3, concepto: "Cuota de mayo", cliente: { nombre: "Ana <Ñ> é" } } },
      { fila: 4, item: { monto: 1234.5, concepto: "A & B" } },
      { fila: 5, errores: ["Monto «1,234» no es un número con hasta 2 decimales"] }
    ])
  })
  it("refuses what is not a zip", async () => {
    await expect(readXlsx(new TextEncoder().encode("monto,concepto\n1,a"))).rejects.toThrow(/xlsx/)
  })
  it("resolves XML entities and reads a sheet without row numbers", () => {
    expect(unescapeXml("&amp;&#x41;&#66;&nada;")).toBe("&AB&nada;")
    expect(sheetRows('<row><c><v>1</v></c></row><row><c t="b"><v>1</v></c></row>', [])).toEqual([
      ["1"],
      ["VERDADERO"]
    ])
  })
})
