/**
 * Who may call each admin route (issue 32), classified here route by route from
 * /admin/v1/openapi.json: a documented route without a class fails the suite. Token routes refuse
 * an operator session and a merchant's key; console routes refuse no credential, the admin
 * token and a merchant's key (401); routes limited to roles refuse a `soporte` session (403
 * `rol_insuficiente`) before reading anything else; reads answer `soporte`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

let stack: Stack
const PASSWORD = "clave-de-operador-aislamiento"

beforeAll(async () => {
  stack = await startStack({ SWITCH_REGISTROS_POR_HORA: "1000000" })
})
afterAll(() => stack?.stop())

type Clase = "token" | "ingreso" | "todos" | "riesgo" | "tesoreria" | "riesgo_tesoreria"

/** Every admin route, by `METHOD path` as documented. */
const CLASES: Record<string, Clase> = {
  "GET /admin/v1/comercios/{codigo}": "token",
  "PATCH /admin/v1/comercios/{codigo}": "token",
  "POST /admin/v1/comercios/{codigo}/aprobar": "token",
  "POST /admin/v1/comercios/{codigo}/revisar": "token",
  "POST /admin/v1/comercios/{codigo}/cuentas-aprobadas": "token",
  "GET /admin/v1/tasa-bcv": "token",
  "PUT /admin/v1/tasa-bcv": "token",
  "POST /admin/v1/operadores": "token",
  "POST /admin/v1/operador/sesion": "ingreso",
  "GET /admin/v1/operador/sesion": "todos",
  "DELETE /admin/v1/operador/sesion": "todos",
  "GET /admin/v1/operador/resumen": "todos",
  "GET /admin/v1/operador/comercios": "todos",
  "GET /admin/v1/operador/comercios/{codigo}": "todos",
  "POST /admin/v1/operador/comercios/{codigo}/aprobar": "riesgo",
  "POST /admin/v1/operador/comercios/{codigo}/revisar": "riesgo",
  "POST /admin/v1/operador/comercios/{codigo}/suspender": "riesgo",
  "POST /admin/v1/operador/comercios/{codigo}/reactivar": "riesgo",
  "PATCH /admin/v1/operador/comercios/{codigo}": "riesgo",
  "GET /admin/v1/operador/revision": "todos",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/marcar-pagada": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/marcar-pagada/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/cerrar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/pagar": "tesoreria",
  "POST /admin/v1/operador/revision/liquidaciones/{id}/pagar/confirmar": "tesoreria",
  "GET /admin/v1/operador/auditoria": "todos",
  "GET /admin/v1/operador/auditoria.csv": "todos",
  "GET /admin/v1/operador/revision/respuestas": "todos",
  "POST /admin/v1/operador/revision/acciones/{id}/anular": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/marcar-pagada": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/marcar-pagada/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/cerrar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/pagar": "tesoreria",
  "POST /admin/v1/operador/revision/repartos/{link_id}/{indice}/pagar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/transacciones/{id}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/transacciones/{id}/marcar-pagada": "tesoreria",
  "POST /admin/v1/operador/revision/transacciones/{id}/marcar-pagada/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/transacciones/{id}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/transacciones/{id}/cerrar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/links/{id}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/links/{id}/marcar-pagada": "tesoreria",
  "POST /admin/v1/operador/revision/links/{id}/marcar-pagada/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/links/{id}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/links/{id}/cerrar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/reembolsos/{id}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/reembolsos/{id}/marcar-pagada": "tesoreria",
  "POST /admin/v1/operador/revision/reembolsos/{id}/marcar-pagada/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/reembolsos/{id}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/reembolsos/{id}/cerrar/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/cargos-tarjeta/{id}/consultar": "tesoreria",
  "POST /admin/v1/operador/revision/cargos-tarjeta/{id}/marcar-acreditado": "tesoreria",
  "POST /admin/v1/operador/revision/cargos-tarjeta/{id}/marcar-acreditado/confirmar": "tesoreria",
  "POST /admin/v1/operador/revision/cargos-tarjeta/{id}/cerrar": "tesoreria",
  "POST /admin/v1/operador/revision/cargos-tarjeta/{id}/cerrar/confirmar": "tesoreria",
  "GET /admin/v1/operador/tasa-bcv": "todos",
  "POST /admin/v1/operador/tasa-bcv": "tesoreria",
  "POST /admin/v1/operador/tasa-bcv/fuente": "tesoreria",
  "POST /admin/v1/operador/tasa-bcv/propuestas/{id}/confirmar": "tesoreria",
  "POST /admin/v1/operador/tasa-bcv/propuestas/{id}/rechazar": "tesoreria",
  "GET /admin/v1/operador/incidentes": "todos",
  "POST /admin/v1/operador/incidentes": "riesgo_tesoreria",
  "POST /admin/v1/operador/incidentes/{id}/cerrar": "riesgo_tesoreria",
  "GET /admin/v1/operador/alertas": "todos",
  "GET /admin/v1/operador/operadores": "todos",
  "POST /admin/v1/operador/operadores/{id}/desactivar": "riesgo",
  "POST /admin/v1/operador/operadores/{id}/activar": "riesgo",
  "POST /admin/v1/operador/operadores/{id}/restablecer-totp": "riesgo",
  "GET /admin/v1/operador/cuentas-bloqueadas": "riesgo",
  "POST /admin/v1/operador/cuentas-bloqueadas": "riesgo",
  "POST /admin/v1/operador/cuentas-bloqueadas/{clave}/desbloquear": "riesgo"
}

const concrete = (path: string) =>
  path
    .replace("{codigo}", "nadie")
    .replace("{id}", "00000000-0000-0000-0000-000000000000")
    .replace("{link_id}", "00000000-0000-0000-0000-000000000000")
    .replace("{indice}", "0")
    .replace("{clave}", "c-0105-01050000000000000000")

describe("who may call each admin route", () => {
  it("every documented route is classified, and each refuses the callers its class does not accept", async () => {
    const spec = (await call(stack.url, "GET", "/admin/v1/openapi.json")).body
    const documented = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`)
    )
    expect(
      documented.filter((r) => CLASES[r] === undefined),
      "routes without a class"
    ).toEqual([])
    expect(
      Object.keys(CLASES).filter((r) => !documented.includes(r)),
      "classified routes the document lacks"
    ).toEqual([])

    const email = `soporte-${Date.now().toString(36)}@switch.example`
    const made = await call(stack.url, "POST", "/admin/v1/operadores", {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { email, password: PASSWORD, rol: "soporte" }
    })
    const signed = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
      body: { email, password: PASSWORD, codigo: totpCode(made.body.totp_secret, totpStep(Date.now())) }
    })
    expect(signed.status).toBe(200)
    const soporte = {
      cookie: (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? "",
      "x-csrf-token": signed.body.csrf_token as string
    }
    const merchant = { "x-switch-key": stack.demoKey }
    const failures: Array<string> = []
    const expectStatus = async (
      route: string,
      who: string,
      headers: Record<string, string>,
      ok: (s: number, b: any) => boolean
    ) => {
      const [method, path] = route.split(" ") as [string, string]
      const reply = await call(stack.url, method, concrete(path), {
        headers,
        ...(method === "GET" ? {} : { body: {} })
      })
      if (!ok(reply.status, reply.body))
        failures.push(`${route} as ${who}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 80)}`)
    }
    for (const [route, clase] of Object.entries(CLASES)) {
      if (route === "DELETE /admin/v1/operador/sesion") continue
      if (clase === "ingreso") continue
      await expectStatus(route, "merchant key", merchant, (s) => s === 401)
      await expectStatus(route, "nobody", {}, (s) => s === 401)
      if (clase === "token") {
        await expectStatus(route, "soporte", soporte, (s) => s === 401)
        continue
      }
      await expectStatus(route, "admin token", { "x-admin-token": ADMIN_TOKEN }, (s) => s === 401)
      if (clase === "todos")
        await expectStatus(route, "soporte", soporte, (s) => s < 400 || s === 404 || s === 400)
      else
        await expectStatus(route, "soporte", soporte, (s, b) => s === 403 && b?.error === "rol_insuficiente")
    }
    expect(failures).toEqual([])
  })
})
