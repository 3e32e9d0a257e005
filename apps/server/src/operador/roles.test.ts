import { describe, expect, it } from "vitest"
import { ADMIN_OPERATIONS, adminOpenApi } from "./AdminOpenApi.js"
import { admite, ROLES_POR_RUTA, rolesDe } from "./Roles.js"

const route = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`

describe("the table of the operators' routes", () => {
  it("names every console route of the admin OpenAPI, and no other", () => {
    const documented = ADMIN_OPERATIONS.filter(([, , , security]) => security === "operador").map(([m, p]) =>
      route(m, p)
    )
    expect(
      documented.filter((r) => ROLES_POR_RUTA[r] === undefined),
      "console routes without roles"
    ).toEqual([])
    expect(
      Object.keys(ROLES_POR_RUTA).filter((r) => !documented.includes(r)),
      "roles of routes the document lacks"
    ).toEqual([])
  })

  it("refuses every role on a route it does not name, whatever its spelling", () => {
    for (const rol of ["soporte", "riesgo", "tesoreria"] as const) {
      expect(admite(rolesDe("POST", "/admin/v1/operador/nada"), rol)).toBe(false)
      expect(admite(rolesDe("POST", "/admin/v1/operador/comercios/:codigo/APROBAR"), rol)).toBe(false)
      expect(admite(rolesDe("POST", "/admin/v1//operador/comercios/:codigo/aprobar"), rol)).toBe(false)
    }
    expect(admite(rolesDe("POST", "/admin/v1/operador/comercios/:codigo/aprobar"), "riesgo")).toBe(true)
    expect(admite(rolesDe("POST", "/admin/v1/operador/comercios/:codigo/aprobar"), "soporte")).toBe(false)
    expect(admite(rolesDe("HEAD", "/admin/v1/operador/resumen"), "soporte")).toBe(true)
  })

  it("shows each console operation's roles in the admin OpenAPI as x-roles", () => {
    const spec = adminOpenApi() as { paths: Record<string, Record<string, { "x-roles"?: unknown }>> }
    const aprobar = spec.paths["/admin/v1/operador/comercios/{codigo}/aprobar"]?.post
    expect(aprobar?.["x-roles"]).toEqual(["riesgo"])
    expect(spec.paths["/admin/v1/operador/resumen"]?.get?.["x-roles"]).toBe("todos")
  })
})
