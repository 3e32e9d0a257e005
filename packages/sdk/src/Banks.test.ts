import { Venezuela } from "@switch/core"
import { describe, expect, it } from "vitest"
import { banks } from "./Banks.js"

describe("banks", () => {
  it("are the server's banks (@switch/core's Venezuela.banks), code and name", () => {
    expect(banks).toEqual(Venezuela.banks.map((b) => ({ codigo: b.codigo, nombre: b.nombre })))
  })
})
