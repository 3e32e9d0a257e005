import { Writable } from "node:stream"
import { describe, expect, it } from "vitest"
import { displayWidth, Output, stripAnsi, truncate } from "./Output.js"

const capture = (options: { json?: boolean; tty?: boolean } = {}) => {
  let out = ""
  let err = ""
  const stream = (write: (text: string) => void, tty: boolean) =>
    Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          write(String(chunk))
          done()
        }
      }),
      { isTTY: tty }
    )
  const output = new Output(
    {
      out: stream((text) => {
        out += text
      }, options.tty === true),
      err: stream((text) => {
        err += text
      }, false),
      env: {}
    },
    { json: options.json === true }
  )
  return { output, out: () => out, err: () => err }
}

describe("table alignment", () => {
  it("pads by the columns a cell takes on screen: escape codes take none, wide characters two", () => {
    const run = capture({ tty: true })
    const o = run.output
    const rows = [
      { estado: o.green("pagado"), concepto: "Pedido 1" },
      { estado: "pendiente", concepto: "Café" },
      { estado: "日本語", concepto: "🎉 fiesta" }
    ]
    o.table(rows, [
      { title: "estado", value: (row) => row.estado },
      { title: "concepto", value: (row) => row.concepto },
      { title: "fin", value: () => "|" }
    ])
    const lines = stripAnsi(run.out()).trimEnd().split("\n")
    // Every row's last column starts at the same screen column.
    const columnOf = (line: string) => displayWidth(line.slice(0, line.lastIndexOf("|")))
    const starts = lines.slice(1).map(columnOf)
    expect(new Set(starts).size, lines.join("\n")).toBe(1)
    expect(displayWidth(lines[0]!.slice(0, lines[0]!.indexOf("FIN")))).toBe(starts[0])
  })

  it("measures and cuts text by screen columns", () => {
    expect(displayWidth("\u001b[32mpagado\u001b[0m")).toBe(6)
    expect(displayWidth("日本")).toBe(4)
    expect(displayWidth("🎉")).toBe(2)
    expect(displayWidth("cafe\u0301")).toBe(4)
    expect(displayWidth(truncate("日本語テキスト", 7))).toBeLessThanOrEqual(7)
    expect(truncate("abcdefgh", 5)).toBe("abcd…")
  })
})

describe("--json", () => {
  it("writes messages for people as JSON lines too", () => {
    const run = capture({ json: true })
    run.output.note(run.output.green("Listo."), { evento: "listo" })
    expect(JSON.parse(run.err())).toEqual({ mensaje: "Listo.", evento: "listo" })
  })
})
