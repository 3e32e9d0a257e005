/**
 * The admin API's reference, `GET /admin/v1/openapi.json` (kept out of the public
 * `/openapi.json`): the token routes for automation and the operators' console routes, each with
 * a Spanish summary. It is written here by hand, route by route, beside the plain routes it
 * documents (admin/AdminRoutes.ts, operador/OperadorRoutes.ts); a test checks that every route
 * answers and every operation has its summary. A console operation's `x-roles` is its entry in
 * Roles.ts, the one table of who may call it.
 */
import { rolesDe } from "./Roles.js"

type Op = readonly [method: string, path: string, summary: string, security: "token" | "operador" | "ninguna"]

export const ADMIN_OPERATIONS: ReadonlyArray<Op> = [
  ["get", "/admin/v1/comercios/{codigo}", "Ver un comercio (vista de administración)", "token"],
  [
    "patch",
    "/admin/v1/comercios/{codigo}",
    "Cambiar límites, comisión, cuenta de liquidación o estado",
    "token"
  ],
  [
    "post",
    "/admin/v1/comercios/{codigo}/aprobar",
    "Aprobar un comercio (KYC) con su cuenta de liquidación; una llave live solo con emitir_llave: true",
    "token"
  ],
  [
    "post",
    "/admin/v1/comercios/{codigo}/revisar",
    "Marcar revisado: levanta los topes de cuenta nueva",
    "token"
  ],
  ["post", "/admin/v1/comercios/{codigo}/cuentas-aprobadas", "Aprobar una cuenta de reparto", "token"],
  ["get", "/admin/v1/tasa-bcv", "Ver la tasa BCV vigente", "token"],
  [
    "put",
    "/admin/v1/tasa-bcv",
    "Fijar la tasa BCV; un salto mayor que SWITCH_TASA_SALTO_MAX_PCT queda por confirmar en la consola",
    "token"
  ],
  ["post", "/admin/v1/operadores", "Crear un operador (devuelve su secreto TOTP una sola vez)", "token"],
  ["post", "/admin/v1/operador/sesion", "Iniciar sesión de operador con contraseña y código TOTP", "ninguna"],
  ["get", "/admin/v1/operador/sesion", "Ver la sesión de operador", "operador"],
  ["delete", "/admin/v1/operador/sesion", "Cerrar la sesión de operador", "operador"],
  ["get", "/admin/v1/operador/resumen", "Cifras de la consola: comercios y dinero por atender", "operador"],
  [
    "get",
    "/admin/v1/operador/comercios",
    "Listar comercios por estado (pendientes de KYC por omisión)",
    "operador"
  ],
  ["get", "/admin/v1/operador/comercios/{codigo}", "Ver un comercio", "operador"],
  [
    "post",
    "/admin/v1/operador/comercios/{codigo}/aprobar",
    "Aprobar un comercio (rol riesgo); no emite ni muestra llaves",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/comercios/{codigo}/revisar",
    "Marcar revisado un comercio (rol riesgo)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/comercios/{codigo}/suspender",
    "Suspender un comercio (rol riesgo)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/comercios/{codigo}/reactivar",
    "Reactivar un comercio (rol riesgo)",
    "operador"
  ],
  [
    "patch",
    "/admin/v1/operador/comercios/{codigo}",
    "Cambiar comisión, tope de propina, límites y pilotos (reparto, tarjeta) de un comercio (rol riesgo)",
    "operador"
  ],
  ["get", "/admin/v1/operador/revision", "Cola de dinero en revisión, con antigüedad y monto", "operador"],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/consultar",
    "Consultar al banco ahora (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/marcar-pagada",
    "Marcar pagada con la referencia del banco (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/marcar-pagada/confirmar",
    "Confirmar el marcar pagado de una liquidación que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/cerrar",
    "Cerrar sin pagar, con una nota (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/cerrar/confirmar",
    "Confirmar el cerrar sin pagar de una liquidación que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/pagar",
    "Pedir el pago por el banco (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/liquidaciones/{id}/pagar/confirmar",
    "Confirmar el pago pedido por otro operador y enviarlo al banco",
    "operador"
  ],
  [
    "get",
    "/admin/v1/operador/auditoria",
    "Leer la auditoría, la más reciente primero, por páginas",
    "operador"
  ],
  ["get", "/admin/v1/operador/auditoria.csv", "Exportar la auditoría en CSV", "operador"],
  [
    "get",
    "/admin/v1/operador/revision/respuestas",
    "Historial de respuestas del banco sobre un elemento de la cola (objeto_tipo, objeto_id)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/acciones/{id}/anular",
    "Anular un marcar pagado o cerrar sin pagar que espera confirmación (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/marcar-pagada",
    "Marcar pagada una parte del reparto con la referencia del banco (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/marcar-pagada/confirmar",
    "Confirmar el marcar pagado de una parte del reparto que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/cerrar",
    "Cerrar sin pagar una parte del reparto, con una nota (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/cerrar/confirmar",
    "Confirmar el cerrar sin pagar de una parte del reparto que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/consultar",
    "Consultar al banco ahora por la orden de una parte del reparto (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/pagar",
    "Pedir el pago de una parte del reparto por el banco (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/repartos/{link_id}/{indice}/pagar/confirmar",
    "Confirmar el pago de una parte del reparto pedido por otro operador y enviarlo al banco",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/transacciones/{id}/consultar",
    "Consultar al banco ahora por una operación de la API directa (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/transacciones/{id}/marcar-pagada",
    "Dar por liquidada una operación de la API directa con la referencia del banco (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/transacciones/{id}/marcar-pagada/confirmar",
    "Confirmar el marcar pagado de una operación de la API directa que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/transacciones/{id}/cerrar",
    "Cerrar una operación de la API directa como no hecha, o su revisión, con una nota (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/transacciones/{id}/cerrar/confirmar",
    "Confirmar el cerrar sin pagar de una operación de la API directa que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/links/{id}/consultar",
    "Consultar al banco ahora por el pago de un link en revisión (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/links/{id}/marcar-pagada",
    "Dar por pagado un link en revisión con la referencia del banco (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/links/{id}/marcar-pagada/confirmar",
    "Confirmar el marcar pagado de un link en revisión que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/links/{id}/cerrar",
    "Cerrar sin cobro un link en revisión, con una nota: vuelve a quedar pendiente (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/cargos-tarjeta/{id}/consultar",
    "Consultar al procesador de tarjetas por un cargo aprobado que no llegó en su cierre nocturno (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/cargos-tarjeta/{id}/marcar-acreditado",
    "Dar por acreditado un cargo con tarjeta faltante con la referencia del crédito: se liquida al comercio y se envía link.acreditado (rol tesorería; no aplica a un cargo duplicado)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/cargos-tarjeta/{id}/marcar-acreditado/confirmar",
    "Confirmar el dar por acreditado un cargo con tarjeta que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/cargos-tarjeta/{id}/cerrar",
    "Cerrar con una nota un cargo con tarjeta faltante o duplicado (reembolsado en el procesador), sin liquidarlo (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/cargos-tarjeta/{id}/cerrar/confirmar",
    "Confirmar el cierre con nota de un cargo con tarjeta que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/links/{id}/cerrar/confirmar",
    "Confirmar el cerrar sin pagar de un link en revisión que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/reembolsos/{id}/consultar",
    "Consultar al banco ahora por la orden de un reembolso del portal, sin reenviarla (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/reembolsos/{id}/marcar-pagada",
    "Dar por pagado un reembolso del portal con la referencia del banco: envía link.devuelto (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/reembolsos/{id}/marcar-pagada/confirmar",
    "Confirmar el marcar pagado de un reembolso del portal que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/reembolsos/{id}/cerrar",
    "Cerrar sin pagar un reembolso del portal, con una nota: el monto vuelve a poder reembolsarse (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/revision/reembolsos/{id}/cerrar/confirmar",
    "Confirmar el cerrar sin pagar de un reembolso del portal que pidió otro operador (rol tesorería; cuatro ojos)",
    "operador"
  ],
  [
    "get",
    "/admin/v1/operador/tasa-bcv",
    "Tasa BCV vigente, si está vencida, y su historial con quién fijó cada una",
    "operador"
  ],
  ["post", "/admin/v1/operador/tasa-bcv", "Fijar la tasa BCV a mano (rol tesorería)", "operador"],
  [
    "post",
    "/admin/v1/operador/tasa-bcv/fuente",
    "Traer ahora la tasa BCV de la fuente configurada (rol tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/tasa-bcv/propuestas/{id}/confirmar",
    "Confirmar una tasa BCV propuesta por otro (salto grande; rol tesorería, cuatro ojos)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/tasa-bcv/propuestas/{id}/rechazar",
    "Rechazar una tasa BCV propuesta: no entra en vigor (rol tesorería)",
    "operador"
  ],
  [
    "get",
    "/admin/v1/operador/incidentes",
    "Incidentes por banco: abiertos y de los últimos 7 días",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/incidentes",
    "Abrir un incidente de un banco, visible en /estado (rol riesgo o tesorería)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/incidentes/{id}/cerrar",
    "Cerrar un incidente (rol riesgo o tesorería)",
    "operador"
  ],
  ["get", "/admin/v1/operador/alertas", "Alertas abiertas de la consola", "operador"],
  ["get", "/admin/v1/operador/operadores", "Listar los operadores", "operador"],
  [
    "post",
    "/admin/v1/operador/operadores/{id}/desactivar",
    "Desactivar un operador y cerrar sus sesiones (rol riesgo)",
    "operador"
  ],
  ["post", "/admin/v1/operador/operadores/{id}/activar", "Reactivar un operador (rol riesgo)", "operador"],
  [
    "post",
    "/admin/v1/operador/operadores/{id}/restablecer-totp",
    "Restablecer el TOTP de otro operador: no muestra secreto; lo configura él al volver a entrar (rol riesgo)",
    "operador"
  ],
  [
    "get",
    "/admin/v1/operador/cuentas-bloqueadas",
    "Cuentas bloqueadas por los controles de seguridad del reparto (split) (rol riesgo)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/cuentas-bloqueadas",
    "Bloquear una cuenta para el reparto: `{tipo, banco, valor, motivo}` (rol riesgo)",
    "operador"
  ],
  [
    "post",
    "/admin/v1/operador/cuentas-bloqueadas/{clave}/desbloquear",
    "Desbloquear una cuenta para el reparto (rol riesgo)",
    "operador"
  ]
]

/**
 * What a route says beyond its summary: a description and the answers it adds to the common
 * ones, keyed by `method path`.
 */
export const ADMIN_DETAILS: Readonly<
  Record<
    string,
    {
      description: string
      responses: Record<string, { description: string }>
      requestBody?: Record<string, unknown>
    }
  >
> = {
  "post /admin/v1/operador/sesion": {
    description:
      '`{email, password, codigo}`: la sesión (cookie `switch_operador`) y su `csrf_token`. Si un operador de riesgo restableció su TOTP, la contraseña correcta sin `codigo` responde `202 {estado: "totp_por_configurar", totp_secret, totp_uri}` (sin sesión; solo a ese operador) y el primer código válido de ese secreto abre la sesión.',
    responses: { "202": { description: "TOTP restablecido: el secreto nuevo, para configurarlo" } }
  },
  "put /admin/v1/tasa-bcv": {
    description:
      'Cuerpo `{ves_por_usd}`. Una tasa a no más de SWITCH_TASA_SALTO_MAX_PCT (20 % por omisión) de la vigente, o la primera, entra en vigor: `200 {ves_por_usd, actualizada_en}`. Más lejos, no se usa: queda propuesta y responde `202 {estado: "pendiente_confirmacion", propuesta, vigente}`; la confirma (o rechaza) un operador de tesorería en la consola, y mientras tanto todo convierte a la vigente.',
    responses: {
      "202": { description: "Salto grande: tasa propuesta, pendiente de confirmación en la consola" }
    }
  },
  "post /admin/v1/operador/tasa-bcv": {
    description:
      'Fija la tasa (`201`), o, si se aleja de la vigente más de SWITCH_TASA_SALTO_MAX_PCT, la propone (`202 {estado: "pendiente_confirmacion", pendiente, ...}`): otro operador de tesorería la confirma con `.../propuestas/{id}/confirmar`.',
    responses: {
      "201": { description: "Tasa fijada" },
      "202": { description: "Salto grande: propuesta, pendiente de otro operador" }
    }
  },
  "post /admin/v1/comercios/{codigo}/aprobar": {
    description:
      'KYC hecho y modo live habilitado, con la cuenta de liquidación a nombre del comercio (en el cuerpo o ya registrada; si no, `409 cuenta_liquidacion_requerida`). **No emite llave** salvo que quien llama la pida explícitamente con `"emitir_llave": true` en el cuerpo: entonces responde `api_key` (`sk_live_…`) una sola vez, con `Cache-Control: no-store`. Sin esa petición el dueño del comercio crea sus llaves live en el portal. Aprobar de nuevo responde `ya_aprobado: true` y nunca emite otra llave. La consola (`/admin/v1/operador/comercios/{codigo}/aprobar`) jamás emite ni muestra llaves.',
    requestBody: {
      required: false,
      content: {
        "application/json": {
          schema: {
            type: "object",
            additionalProperties: false,
            properties: {
              cuenta_liquidacion: { type: "object", description: "Instrument a nombre del comercio" },
              emitir_llave: {
                type: "boolean",
                default: false,
                description: "true: emite y devuelve una primera llave live (api_key), mostrada una sola vez"
              }
            }
          }
        }
      }
    },
    responses: {
      "200": {
        description:
          "Aprobado: `{codigo, estado, kyc_tier}`, más `api_key` solo con `emitir_llave: true`; `ya_aprobado: true` si ya lo estaba"
      }
    }
  },
  "post /admin/v1/operador/cuentas-bloqueadas": {
    description:
      "Una cuenta bloqueada (por tipo, banco y número) no se acepta en un reparto al crear el link (`split_beneficiario_bloqueado`) y ninguna parte se le paga, ni automáticamente ni por un operador. `409 cuenta_ya_bloqueada` si ya lo está. Auditado.",
    responses: {
      "201": { description: "Cuenta bloqueada: `{clave, tipo, banco, valor, motivo, created_at}`" },
      "409": { description: "`cuenta_ya_bloqueada`" }
    }
  },
  "post /admin/v1/comercios/{codigo}/cuentas-aprobadas": {
    description:
      "La misma regla que `POST /switch/v1/cuentas-aprobadas` del panel: tipo, banco, número (dígitos de control) y cédula o RIF del titular (`400 validation`); hasta 20 (`409 limite_cuentas`); una cuenta que Switch ya conoce a nombre de otro titular se rechaza (`409 cuenta_otro_titular`). Responde `201` con la lista cuando la cuenta se agrega y `200` con la lista igual cuando ya estaba.",
    responses: {
      "200": { description: "La cuenta ya estaba aprobada: la lista igual" },
      "201": { description: "Cuenta agregada: la lista con ella" }
    }
  }
}

const params = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" }
  }))

export const adminOpenApi = () => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [method, path, summary, security] of ADMIN_OPERATIONS) {
    const operation = {
      summary,
      operationId: `${method}${path.replace(/[^a-zA-Z0-9]+/g, "_")}`,
      parameters: params(path),
      security:
        security === "token" ? [{ adminToken: [] }] : security === "operador" ? [{ operador: [] }] : [],
      // Who may call it, from the one table of the operators' routes (Roles.ts).
      ...(security === "operador"
        ? { "x-roles": rolesDe(method, path.replace(/\{(\w+)\}/g, ":$1")) ?? [] }
        : {}),
      responses: {
        "200": { description: "Correcto" },
        "400": { description: "Validación" },
        "401": { description: "Sin credencial válida" },
        "403": { description: "Rol insuficiente, CSRF o cuatro ojos" },
        "404": { description: "No existe" },
        "409": { description: "Conflicto de estado" }
      }
    }
    // Marking paid and closing from the queue: four eyes from SWITCH_CUATRO_OJOS_DESDE (cola/Cola.ts).
    if (/\/revision\/.+\/(marcar-pagada|marcar-acreditado|cerrar)$/.test(path))
      Object.assign(operation.responses, {
        "202": {
          description:
            "Desde SWITCH_CUATRO_OJOS_DESDE: pedido, pendiente (`estado: pendiente_confirmacion`) hasta que otro operador de tesorería lo confirme en `…/confirmar`"
        }
      })
    const details = ADMIN_DETAILS[`${method} ${path}`]
    if (details !== undefined) {
      Object.assign(operation, { description: details.description })
      if (details.requestBody !== undefined) Object.assign(operation, { requestBody: details.requestBody })
      Object.assign(operation.responses, details.responses)
    }
    paths[path] = { ...paths[path], [method]: operation }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switch: API de administración",
      version: "1",
      description:
        "Rutas de operadores y de automatización. El token `x-admin-token` (SWITCH_ADMIN_TOKEN) sirve a scripts; la consola usa la cookie `switch_operador` con el encabezado `x-csrf-token` en cada cambio."
    },
    components: {
      securitySchemes: {
        adminToken: { type: "apiKey", in: "header", name: "x-admin-token" },
        operador: { type: "apiKey", in: "cookie", name: "switch_operador" }
      }
    },
    paths
  }
}
