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
    expect(error.message).toBe("validation (400): monto: debe ser mayor que 0; concepto: es obligatorio")
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
