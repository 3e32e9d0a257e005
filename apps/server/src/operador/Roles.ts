/**
 * Who may call each operators' route (issue 41): one table, an allow-list keyed by the route as
 * routing declares it (method and path with its `:params`). The console's session check
 * (`operador()` in OperadorRoutes.ts) reads the entry of the route that routing matched, never the
 * request's own spelling of the path; a route missing here refuses every operator (`403
 * rol_insuficiente`). The sign-in (`POST /admin/v1/operador/sesion`) takes no session, and the
 * admin token's routes (admin/AdminRoutes.ts) take the token, not an operator. The admin OpenAPI
 * shows each entry as its operation's `x-roles`.
 */
import type { Rol } from "./OperadorService.js"

/** Every role, reading; or the roles that may act. */
export type Quien = "todos" | ReadonlyArray<Rol>

export const ROLES_POR_RUTA: Readonly<Record<string, Quien>> = {
  "GET /admin/v1/operador/sesion": "todos",
  "DELETE /admin/v1/operador/sesion": "todos",
  "GET /admin/v1/operador/resumen": "todos",
  "GET /admin/v1/operador/comercios": "todos",
  "GET /admin/v1/operador/comercios/:codigo": "todos",
  "POST /admin/v1/operador/comercios/:codigo/aprobar": ["riesgo"],
  "POST /admin/v1/operador/comercios/:codigo/revisar": ["riesgo"],
  "POST /admin/v1/operador/comercios/:codigo/suspender": ["riesgo"],
  "POST /admin/v1/operador/comercios/:codigo/reactivar": ["riesgo"],
  "PATCH /admin/v1/operador/comercios/:codigo": ["riesgo"],
  "GET /admin/v1/operador/revision": "todos",
  "POST /admin/v1/operador/revision/liquidaciones/:id/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/marcar-pagada": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/marcar-pagada/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/cerrar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/pagar": ["tesoreria"],
  "POST /admin/v1/operador/revision/liquidaciones/:id/pagar/confirmar": ["tesoreria"],
  "GET /admin/v1/operador/auditoria": "todos",
  "GET /admin/v1/operador/auditoria.csv": "todos",
  "GET /admin/v1/operador/revision/respuestas": "todos",
  "POST /admin/v1/operador/revision/acciones/:id/anular": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/marcar-pagada": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/marcar-pagada/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/cerrar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/pagar": ["tesoreria"],
  "POST /admin/v1/operador/revision/repartos/:link_id/:indice/pagar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/transacciones/:id/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/transacciones/:id/marcar-pagada": ["tesoreria"],
  "POST /admin/v1/operador/revision/transacciones/:id/marcar-pagada/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/transacciones/:id/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/transacciones/:id/cerrar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/links/:id/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/links/:id/marcar-pagada": ["tesoreria"],
  "POST /admin/v1/operador/revision/links/:id/marcar-pagada/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/links/:id/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/links/:id/cerrar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/reembolsos/:id/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/reembolsos/:id/marcar-pagada": ["tesoreria"],
  "POST /admin/v1/operador/revision/reembolsos/:id/marcar-pagada/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/reembolsos/:id/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/reembolsos/:id/cerrar/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/cargos-tarjeta/:id/consultar": ["tesoreria"],
  "POST /admin/v1/operador/revision/cargos-tarjeta/:id/marcar-acreditado": ["tesoreria"],
  "POST /admin/v1/operador/revision/cargos-tarjeta/:id/marcar-acreditado/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/revision/cargos-tarjeta/:id/cerrar": ["tesoreria"],
  "POST /admin/v1/operador/revision/cargos-tarjeta/:id/cerrar/confirmar": ["tesoreria"],
  "GET /admin/v1/operador/tasa-bcv": "todos",
  "POST /admin/v1/operador/tasa-bcv": ["tesoreria"],
  "POST /admin/v1/operador/tasa-bcv/fuente": ["tesoreria"],
  "POST /admin/v1/operador/tasa-bcv/propuestas/:id/confirmar": ["tesoreria"],
  "POST /admin/v1/operador/tasa-bcv/propuestas/:id/rechazar": ["tesoreria"],
  "GET /admin/v1/operador/incidentes": "todos",
  "POST /admin/v1/operador/incidentes": ["riesgo", "tesoreria"],
  "POST /admin/v1/operador/incidentes/:id/cerrar": ["riesgo", "tesoreria"],
  "GET /admin/v1/operador/alertas": "todos",
  "GET /admin/v1/operador/operadores": "todos",
  "POST /admin/v1/operador/operadores/:id/desactivar": ["riesgo"],
  "POST /admin/v1/operador/operadores/:id/activar": ["riesgo"],
  "POST /admin/v1/operador/operadores/:id/restablecer-totp": ["riesgo"],
  "GET /admin/v1/operador/cuentas-bloqueadas": ["riesgo"],
  "POST /admin/v1/operador/cuentas-bloqueadas": ["riesgo"],
  "POST /admin/v1/operador/cuentas-bloqueadas/:clave/desbloquear": ["riesgo"]
}

/** The roles of the route `method path` as routing declares it; undefined: nobody's. */
export const rolesDe = (method: string, path: string): Quien | undefined =>
  ROLES_POR_RUTA[`${method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase()} ${path}`]

/** Whether an operator of `rol` may call a route whose entry is `quien`. */
export const admite = (quien: Quien | undefined, rol: Rol): boolean =>
  quien !== undefined && (quien === "todos" || quien.includes(rol))
