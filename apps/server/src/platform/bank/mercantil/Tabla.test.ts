import { describe, expect, it } from "vitest"
import { leer, leerBusqueda, motivoDe, type Salida } from "./Tabla.js"

const http = (status: number, body: unknown): Salida => ({ _tag: "Respuesta", status, body })

/** `transaction_c2p_response` as the published answers show it. */
const c2p = (trx_status: string, extra: Record<string, unknown> = {}) => ({
  transaction_c2p_response: {
    amount: 10.5,
    currency: "ves",
    trx_status,
    payment_reference: "000012345678",
    trx_internal_status: "0000",
    authorization_code: "123456",
    invoice_number: "op_1",
    processing_date: "2026-11-29 10:00:00",
    ...extra
  }
})

const errorList = (...errores: Array<[string, string]>) => ({
  error_list: errores.map(([error_code, description]) => ({ error_code, description }))
})

describe("Mercantil's answers to the port (the table)", () => {
  it("approved settles the money: LIQUIDADA with the payment reference", () => {
    for (const op of ["compra", "anulacion", "vuelto"] as const)
      expect(leer(op, http(200, c2p("approved")))).toEqual({
        estado: "LIQUIDADA",
        referencia_banco: "000012345678",
        endtoend: null,
        motivo_rechazo: null
      })
  })

  it("an approved key request only says the key was sent: ACEPTADA", () => {
    expect(leer("clave", http(200, c2p("approved"))).estado).toBe("ACEPTADA")
  })

  it("an error list in a 4xx is an explicit rejection with SPEC's reason from its description", () => {
    const casos: Array<[string, string]> = [
      ["Saldo insuficiente", "SALDO_INSUFICIENTE"],
      ["Clave de pago inválida", "OTP_INVALIDO"],
      ["Cliente no afiliado al servicio", "NO_AFILIADO_SERVICIO"],
      ["Cédula no coincide con el teléfono", "BENEFICIARIO_NO_COINCIDE"],
      ["Excede el límite diario", "EXCEDE_LIMITE"],
      ["Cuenta bloqueada", "CUENTA_BLOQUEADA"],
      ["Monto inválido", "MONTO_INVALIDO"],
      ["Operación duplicada", "DUPLICADA"],
      ["X-IBM-Client-Id inválido", "FIRMA_AUTH"]
    ]
    for (const [description, motivo] of casos)
      expect(leer("compra", http(400, errorList(["9999", description])))).toMatchObject({
        estado: "RECHAZADA",
        motivo_rechazo: motivo
      })
  })

  it("a rejection whose description names no reason gets the generic one", () => {
    expect(leer("compra", http(400, errorList(["0999", "Transacción no procesada"])))).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "DESCONOCIDO"
    })
    expect(leer("compra", http(200, c2p("rejected", { trx_internal_status: "1234" })))).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "DESCONOCIDO"
    })
  })

  it("the first description that names a reason decides among several errors", () => {
    expect(
      leer("compra", http(400, errorList(["0001", "Error"], ["0051", "Fondos insuficientes"])))
    ).toMatchObject({ motivo_rechazo: "SALDO_INSUFICIENTE" })
  })

  it("no answer, a 5xx, an unknown shape or an unknown status are unclear, never rejected", () => {
    const unclear: Array<Salida> = [
      { _tag: "SinRespuesta" },
      http(500, errorList(["0500", "Saldo insuficiente"])),
      http(502, null),
      http(503, c2p("approved")),
      http(200, null),
      http(200, { otra: "cosa" }),
      http(200, c2p("pending")),
      http(200, c2p("")),
      http(200, errorList(["0051", "Saldo insuficiente"])),
      http(400, { mensaje: "sin lista" }),
      http(404, "<html>")
    ]
    for (const salida of unclear)
      for (const op of ["compra", "anulacion", "vuelto"] as const)
        expect(leer(op, salida).estado, JSON.stringify(salida)).toBe("DESCONOCIDA")
  })

  it("a call that provably never left is a rejection with nothing done", () => {
    expect(leer("compra", { _tag: "NoEnviada" })).toMatchObject({
      estado: "RECHAZADA",
      motivo_rechazo: "BANCO_NO_DISPONIBLE"
    })
  })

  it("descriptions are read without case or accents", () => {
    expect(motivoDe("SALDO INSUFICIENTE")).toBe("SALDO_INSUFICIENTE")
    expect(motivoDe("clave de pago invalida")).toBe("OTP_INVALIDO")
    expect(motivoDe("")).toBe("DESCONOCIDO")
  })
})

describe("Mercantil's search to the port", () => {
  const item = (trx_status: string, invoice_number: string | null) =>
    c2p(trx_status, { invoice_number }).transaction_c2p_response
  it("the order found approved is LIQUIDADA; found rejected is RECHAZADA", () => {
    expect(leerBusqueda("op_1", http(200, { transaction_list: [item("approved", "op_1")] })).estado).toBe(
      "LIQUIDADA"
    )
    expect(leerBusqueda("op_1", http(200, { transaction_list: [item("rejected", "op_1")] })).estado).toBe(
      "RECHAZADA"
    )
  })

  it("an empty list is the bank saying it never received it", () => {
    expect(leerBusqueda("op_1", http(200, { transaction_list: [] }))).toMatchObject({
      estado: "DESCONOCIDA",
      noRecibida: true
    })
    expect(leerBusqueda("op_1", http(200, { transaction_list: [item("approved", "op_2")] }))).toMatchObject({
      estado: "DESCONOCIDA",
      noRecibida: true
    })
  })

  it("a failed search, an unknown shape or an ambiguous match says nothing", () => {
    for (const salida of [
      { _tag: "SinRespuesta" } as const,
      http(500, null),
      http(400, errorList(["1", "x"])),
      http(200, {}),
      http(200, { transaction_list: [{ sin: "estado" }] }),
      http(200, { transaction_list: [item("approved", null), item("approved", null)] })
    ]) {
      const a = leerBusqueda("op_1", salida)
      expect(a.estado).toBe("DESCONOCIDA")
      expect(a.noRecibida).toBeUndefined()
    }
  })
})
