import { describe, expect, it } from "vitest"
import { sessionOnly, sessionReaches, sessionRefusal } from "./Security.js"

describe("who may call with a portal session", () => {
  it("the owner reaches every route a session reaches; no session reaches the direct API", () => {
    for (const [method, path] of [
      ["POST", "/switch/v1/links"],
      ["GET", "/switch/v1/llaves"],
      ["POST", "/switch/v1/webhooks"],
      ["DELETE", "/switch/v1/webhooks/abc"]
    ] as const)
      expect(sessionRefusal("propietario", method, path), `${method} ${path}`).toBeUndefined()
    for (const path of [
      "/switch/v1/pagar",
      "/switch/v1/cobrar/token",
      "/switch/v1/reintegro",
      "/switch/v1/flow/config"
    ]) {
      expect(sessionRefusal("propietario", "POST", path), path).toBe("solo_llave")
      expect(sessionReaches(path), path).toBe(false)
    }
    expect(sessionReaches("/switch/v1/links")).toBe(true)
  })

  it("a cajero is refused keys, webhooks and the request log, reading included, and makes links and batches", () => {
    for (const path of [
      "/switch/v1/llaves",
      "/switch/v1/llaves/x/revocar",
      "/switch/v1/webhooks",
      "/switch/v1/webhooks/x/probar",
      "/switch/v1/eventos",
      "/switch/v1/eventos/evt_x/reenviar",
      "/switch/v1/logs"
    ])
      for (const method of ["GET", "POST"])
        expect(sessionRefusal("cajero", method, path), `${method} ${path}`).toBe("rol_no_permitido")
    expect(sessionRefusal("cajero", "POST", "/switch/v1/links")).toBeUndefined()
    expect(sessionRefusal("cajero", "POST", "/switch/v1/lotes")).toBeUndefined()
    expect(sessionRefusal("cajero", "POST", "/switch/v1/links/x/cancelar")).toBeUndefined()
    // A look-alike path is not the keys route.
    expect(sessionRefusal("cajero", "GET", "/switch/v1/llavesx")).toBeUndefined()
  })

  it("lectura only reads, but may sign out and switch its session's mode", () => {
    expect(sessionRefusal("lectura", "GET", "/switch/v1/links")).toBeUndefined()
    expect(sessionRefusal("lectura", "POST", "/switch/v1/links")).toBe("rol_no_permitido")
    expect(sessionRefusal("lectura", "DELETE", "/switch/v1/sesion")).toBeUndefined()
    expect(sessionRefusal("lectura", "POST", "/switch/v1/sesion/modo")).toBeUndefined()
  })

  it("only propietario reaches the team, reading it included", () => {
    for (const rol of ["cajero", "lectura"] as const)
      for (const [method, path] of [
        ["GET", "/switch/v1/equipo"],
        ["POST", "/switch/v1/equipo"],
        ["PATCH", "/switch/v1/equipo/abc"],
        ["DELETE", "/switch/v1/equipo/abc"],
        ["GET", "/switch/v1/actividad"]
      ] as const)
        expect(sessionRefusal(rol, method, path), `${rol} ${method} ${path}`).toBe("rol_no_permitido")
    expect(sessionRefusal("propietario", "GET", "/switch/v1/equipo")).toBeUndefined()
    expect(sessionOnly("/switch/v1/equipo/abc")).toBe(true)
    expect(sessionOnly("/switch/v1/links")).toBe(false)
  })

  it("mi página: every role reads, only the owner changes it, and a key never reaches it", () => {
    for (const rol of ["cajero", "lectura"] as const) {
      expect(sessionRefusal(rol, "GET", "/switch/v1/mi-pagina")).toBeUndefined()
      expect(sessionRefusal(rol, "PUT", "/switch/v1/mi-pagina")).toBe("rol_no_permitido")
    }
    expect(sessionRefusal("propietario", "PUT", "/switch/v1/mi-pagina")).toBeUndefined()
    expect(sessionOnly("/switch/v1/mi-pagina")).toBe(true)
  })

  it("bulk actions: a propietario's session only, reading included", () => {
    for (const rol of ["cajero", "lectura"] as const)
      for (const method of ["GET", "POST"])
        expect(sessionRefusal(rol, method, "/switch/v1/acciones-masivas/x")).toBe("rol_no_permitido")
    expect(sessionRefusal("propietario", "POST", "/switch/v1/acciones-masivas")).toBeUndefined()
    expect(sessionOnly("/switch/v1/acciones-masivas")).toBe(true)
  })

  it("a link's refunds: every role reads them, only propietario refunds, never with a key", () => {
    const path = "/switch/v1/links/4f0b8f0e-7c1a-4d0e-9a51-1f6f0c1d2e3f/reembolsos"
    for (const rol of ["cajero", "lectura"] as const) {
      expect(sessionRefusal(rol, "GET", path)).toBeUndefined()
      expect(sessionRefusal(rol, "POST", path), rol).toBe("rol_no_permitido")
    }
    expect(sessionRefusal("propietario", "POST", path)).toBeUndefined()
    expect(sessionOnly("/switch/v1/links/{id}/reembolsos")).toBe(true)
    expect(sessionOnly("/switch/v1/links/{id}/historial")).toBe(false)
  })

  it("links priced in dollars are a session's only; lectura reads them", () => {
    expect(sessionOnly("/switch/v1/links/dolares")).toBe(true)
    expect(sessionOnly("/switch/v1/links/{id}/dolares")).toBe(true)
    expect(sessionRefusal("cajero", "POST", "/switch/v1/links/dolares")).toBeUndefined()
    expect(sessionRefusal("lectura", "POST", "/switch/v1/links/dolares")).toBe("rol_no_permitido")
    expect(sessionRefusal("lectura", "GET", "/switch/v1/links/abc/dolares")).toBeUndefined()
  })

  it("tips: every role of a session reads them, only propietario changes them", () => {
    expect(sessionOnly("/switch/v1/propinas")).toBe(true)
    expect(sessionRefusal("cajero", "GET", "/switch/v1/propinas")).toBeUndefined()
    expect(sessionRefusal("cajero", "PUT", "/switch/v1/propinas")).toBe("rol_no_permitido")
    expect(sessionRefusal("propietario", "PUT", "/switch/v1/propinas")).toBeUndefined()
  })
})
