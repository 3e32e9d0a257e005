import { describe, expect, it } from "vitest"
import {
  AuthenticationError,
  BankCloseError,
  ConflictError,
  errorFromResponse,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  SwitchError,
  ValidationError
} from "./Errors.js"

const headers = { "x-request-id": "req_123" }

describe("error messages", () => {
  it("say what happened and what to do in Spanish, then the code and the status", () => {
    expect(errorFromResponse(409, { error: "no_cancelable", estado: "pagado" }, {}).message).toBe(
      "El link ya está pagado y no se puede cancelar (no_cancelable, HTTP 409)"
    )
    expect(errorFromResponse(401, { error: "unauthorized" }, {}).message).toBe(
      "La llave de API falta, no es válida o fue revocada; revise la llave o cree una nueva (unauthorized, HTTP 401)"
    )
    expect(errorFromResponse(403, { error: "requiere_llave_live" }, {}).message).toMatch(
      /^Esta operación requiere una llave live .* \(requiere_llave_live, HTTP 403\)$/
    )
  })

  it("have a sentence for every error code of SPEC's tables", () => {
    const spec: Array<[number, string]> = [
      [400, "validation"],
      [400, "label_reservado"],
      [401, "unauthorized"],
      [403, "comercio_suspendido"],
      [403, "requiere_llave_live"],
      [403, "solo_modo_prueba"],
      [403, "pagar_no_habilitado"],
      [403, "reintegro_no_habilitado"],
      [403, "solo_uso_interno"],
      [403, "cuenta_no_permitida"],
      [404, "not_found"],
      [404, "no_encontrado"],
      [409, "no_cancelable"],
      [409, "no_simulable"],
      [409, "idempotency_key_en_uso"],
      [409, "item_duplicado"],
      [409, "limite_webhooks"],
      [409, "tope_diario_excedido"],
      [409, "tope_acumulado_excedido"],
      [409, "cobro_con_split_repartido"],
      [409, "cobro_no_confirmado_banco"],
      [409, "reintegro_en_curso"],
      [409, "cobro_ya_liquidado_al_comercio"],
      [409, "reintegro_intento_ambiguo"],
      [409, "reintegro_sin_intento_previo"],
      [409, "reintegro_ya_pagado"],
      [422, "destino_bloqueado"],
      [503, "cierre_bancario"],
      [503, "split_no_disponible_ahora"],
      [500, "error_interno"],
      [400, "split_no_disponible"],
      [400, "split_invalido"],
      [400, "split_max_beneficiarios"],
      [422, "split_excede_neto"],
      [422, "split_requiere_liquidacion_inmediata"],
      [400, "split_cuenta_no_preaprobada"],
      [400, "split_beneficiario_bloqueado"]
    ]
    const genericOf = (status: number) =>
      errorFromResponse(status, { error: "x" }, {}).message.replace(` (x, HTTP ${status})`, "")
    for (const [status, code] of spec) {
      const message = errorFromResponse(status, { error: code }, {}).message
      expect(message.endsWith(` (${code}, HTTP ${status})`), message).toBe(true)
      const sentence = message.slice(0, -` (${code}, HTTP ${status})`.length)
      expect(sentence, message).not.toBe(genericOf(status))
      expect(sentence).not.toContain(code)
      expect(sentence.length, message).toBeGreaterThan(20)
    }
  })

  it("use the server's detail when it is a sentence, and add a detail that is not", () => {
    expect(
      errorFromResponse(
        404,
        { error: "no_encontrado", detail: "No existe un comprobante con ese código." },
        {}
      ).message
    ).toBe("No existe un comprobante con ese código (no_encontrado, HTTP 404)")
    expect(errorFromResponse(400, { error: "split_invalido", detail: "items.0" }, {}).message).toBe(
      "El reparto no es válido: items.0 (split_invalido, HTTP 400)"
    )
  })

  it("give an unknown code a generic sentence by status, with the code and the status", () => {
    expect(errorFromResponse(409, { error: "algo_nuevo" }, {}).message).toBe(
      "La solicitud choca con el estado actual del objeto (algo_nuevo, HTTP 409)"
    )
    const gateway = errorFromResponse(502, "<html>bad gateway</html>", {})
    expect(gateway.message).toBe(
      "Falla interna de Switch; reintente con la misma idempotency_key (error_interno, HTTP 502)"
    )
    expect(gateway.detail).toBe("<html>bad gateway</html>")
  })

  it("keep code, status, detail and request id for programs", () => {
    const error = errorFromResponse(
      409,
      { error: "no_cancelable", estado: "pagado" },
      { "x-request-id": "req_9" }
    )
    expect([error.code, error.status, error.detail, error.requestId]).toEqual([
      "no_cancelable",
      409,
      undefined,
      "req_9"
    ])
  })
})

describe("error mapping", () => {
  it("maps every SPEC status to a class a caller can branch on, keeping code, detail and request id", () => {
    const cases: Array<[number, unknown, new (...args: Array<any>) => SwitchError, string]> = [
      [
        400,
        { error: "validation", detail: { fieldErrors: { monto: ["es obligatorio"] } } },
        ValidationError,
        "validation"
      ],
      [400, { error: "split_invalido", detail: "items.0" }, ValidationError, "split_invalido"],
      [422, { error: "destino_bloqueado" }, ValidationError, "destino_bloqueado"],
      [401, { error: "unauthorized" }, AuthenticationError, "unauthorized"],
      [403, { error: "requiere_llave_live" }, PermissionError, "requiere_llave_live"],
      [404, { error: "not_found" }, NotFoundError, "not_found"],
      [409, { error: "no_cancelable", estado: "pagado" }, ConflictError, "no_cancelable"],
      [429, null, RateLimitError, "demasiadas_solicitudes"],
      [503, { error: "cierre_bancario", reintentar_en: 600 }, BankCloseError, "cierre_bancario"],
      [503, { error: "split_no_disponible_ahora" }, ServerError, "split_no_disponible_ahora"],
      [500, { error: "error_interno" }, ServerError, "error_interno"],
      [502, "<html>bad gateway</html>", ServerError, "error_interno"]
    ]
    for (const [status, body, Class, code] of cases) {
      const error = errorFromResponse(status, body, headers)
      expect(error).toBeInstanceOf(Class)
      expect(error).toBeInstanceOf(SwitchError)
      expect(error).toBeInstanceOf(Error)
      expect(error.status).toBe(status)
      expect(error.code).toBe(code)
      expect(error.requestId).toBe("req_123")
      expect(error.raw).toEqual(body)
      expect(error.type).toBe(Class.name)
    }
  })

  it("reads validation detail into fieldErrors and a readable message", () => {
    const error = errorFromResponse(
      400,
      {
        error: "validation",
        detail: { fieldErrors: { monto: ["debe ser mayor que 0"], concepto: ["es obligatorio"] } }
      },
      {}
    ) as ValidationError
    expect(error.fieldErrors.monto).toEqual(["debe ser mayor que 0"])
    expect(error.message).toBe(
      "Los datos enviados no son válidos: monto: debe ser mayor que 0; concepto: es obligatorio (validation, HTTP 400)"
    )
  })

  it("reads a list filter's parametro", () => {
    const error = errorFromResponse(
      400,
      { error: "validation", parametro: "min", detail: "min debe ser un número" },
      {}
    )
    expect((error as ValidationError).parametro).toBe("min")
    expect(error.message).toContain("min debe ser un número")
  })

  it("gives the conflicting estado", () => {
    expect(
      (errorFromResponse(409, { error: "no_cancelable", estado: "pagado" }, {}) as ConflictError).estado
    ).toBe("pagado")
  })

  it("takes retryAfter from Retry-After, else from reintentar_en", () => {
    expect((errorFromResponse(429, {}, { "retry-after": "17" }) as RateLimitError).retryAfter).toBe(17)
    expect((errorFromResponse(429, { reintentar_en: 9 }, {}) as RateLimitError).retryAfter).toBe(9)
  })

  it("gives the bank close's reintentarEn and motivo", () => {
    const error = errorFromResponse(
      503,
      { error: "cierre_bancario", motivo: "Cierre diario", reintentar_en: 3600 },
      { "retry-after": "3600" }
    ) as BankCloseError
    expect(error.reintentarEn).toBe(3600)
    expect(error.motivo).toBe("Cierre diario")
  })
})
