import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { openApiSpec } from "./Api.js"
import { Conflict, NotFound, ValidationError } from "./Errors.js"

describe("the contract", () => {
  const spec = openApiSpec()

  it("is OpenAPI 3.1.0 with info.version 0.1.0 and the x-switch-key scheme", () => {
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.info.version).toBe("0.1.0")
    const schemes = spec.components.securitySchemes as Record<
      string,
      { type: string; in: string; name: string }
    >
    expect(Object.values(schemes)).toContainEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "x-switch-key" })
    )
  })

  it("lists every public route and no admin or internal route", () => {
    const paths = Object.keys(spec.paths)
    for (const path of [
      "/switch/v1/links",
      "/switch/v1/links/{id}",
      "/switch/v1/links/{id}/cancelar",
      "/switch/v1/links/{id}/simular",
      "/switch/v1/lotes",
      "/switch/v1/lotes/{id}",
      "/switch/v1/lotes/{id}/cancelar",
      "/switch/v1/verificar/{codigo}",
      "/switch/v1/transacciones",
      "/switch/v1/comercios/registrar",
      "/switch/v1/llaves",
      "/switch/v1/llaves/{id}/revocar",
      "/switch/v1/config"
    ]) {
      expect(paths).toContain(path)
    }
    expect(paths.some((p) => p.startsWith("/admin"))).toBe(false)
    expect(paths).not.toContain("/switch/v1/bancos")
  })

  it("documents the link-create body with SPEC's limits", () => {
    const op = (spec.paths["/switch/v1/links"] as Record<string, any>).post
    expect(op.responses["201"]).toBeDefined()
    expect(JSON.stringify(spec)).toContain("idempotency_key")
  })

  it("encodes errors in SPEC's shape, without _tag", () => {
    expect(Schema.encodeSync(NotFound)(new NotFound())).toEqual({ error: "not_found" })
    expect(Schema.encodeSync(Conflict)(new Conflict({ error: "no_cancelable", estado: "pagado" }))).toEqual({
      error: "no_cancelable",
      estado: "pagado"
    })
    expect(
      Schema.encodeSync(ValidationError)(
        new ValidationError({ detail: { fieldErrors: { monto: ["es obligatorio"] } } })
      )
    ).toEqual({ error: "validation", detail: { fieldErrors: { monto: ["es obligatorio"] } } })
  })
})
