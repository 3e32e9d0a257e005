/**
 * The audit log's entries as sentences: who did what to which object, and where that object is
 * in the portal. An entry holds the request's method and path (`PATCH /switch/v1/equipo/508a…`),
 * never its body, so the object is named by its kind and the start of its id; the link leads to
 * its screen. Refused requests say so, with their HTTP result.
 */

/** An entry as the sentence shows it: the verb phrase, its object (if any) and the screen that shows it. */
export interface Frase {
  /** What was done, after the user's e-mail: "canceló", "invitó a". */
  readonly accion: string
  /** The object, as text: "el link 1a2b3c4d"; null when the action has none. */
  readonly objeto: string | null
  /** The portal path that shows the object (for the link); null when there is none. */
  readonly enlace: string | null
  /** Whether the service refused it (HTTP result 400 or more). */
  readonly rechazada: boolean
}

const corto = (id: string) => decodeURIComponent(id).slice(0, 8)

interface Regla {
  readonly metodo: string
  readonly ruta: RegExp
  readonly frase: (id: string) => Omit<Frase, "rechazada">
}

const ID = "([^/]+)"
const r = (metodo: string, ruta: string, frase: Regla["frase"]): Regla => ({
  metodo,
  ruta: new RegExp(`^/switch/v1/${ruta.replaceAll("{id}", ID)}$`),
  frase
})

const REGLAS: ReadonlyArray<Regla> = [
  r("POST", "links", () => ({ accion: "creó un link", objeto: null, enlace: "/links" })),
  r("POST", "links/dolares", () => ({ accion: "creó un link en dólares", objeto: null, enlace: "/links" })),
  r("POST", "links/{id}/cancelar", (id) => ({
    accion: "canceló",
    objeto: `el link ${corto(id)}`,
    enlace: `/links/${id}`
  })),
  r("POST", "links/{id}/simular", (id) => ({
    accion: "simuló el pago de",
    objeto: `el link ${corto(id)}`,
    enlace: `/links/${id}`
  })),
  r("POST", "links/{id}/reembolsos", (id) => ({
    accion: "reembolsó el cobro de",
    objeto: `el link ${corto(id)}`,
    enlace: `/links/${id}`
  })),
  r("POST", "lotes", () => ({ accion: "creó un lote de links", objeto: null, enlace: "/lotes" })),
  r("POST", "lotes/{id}/cancelar", (id) => ({
    accion: "canceló los links abiertos de",
    objeto: `el lote ${corto(id)}`,
    enlace: `/lotes/${id}`
  })),
  r("POST", "llaves", () => ({
    accion: "creó una llave de la API",
    objeto: null,
    enlace: "/desarrolladores"
  })),
  r("POST", "llaves/{id}/revocar", (id) => ({
    accion: "revocó",
    objeto: `la llave ${corto(id)}`,
    enlace: "/desarrolladores"
  })),
  r("POST", "llaves/{id}/rotar", (id) => ({
    accion: "rotó",
    objeto: `la llave ${corto(id)}`,
    enlace: "/desarrolladores"
  })),
  r("POST", "webhooks", () => ({ accion: "registró un webhook", objeto: null, enlace: "/desarrolladores" })),
  r("PATCH", "webhooks/{id}", (id) => ({
    accion: "cambió",
    objeto: `el webhook ${corto(id)}`,
    enlace: `/desarrolladores/webhooks/${id}`
  })),
  r("DELETE", "webhooks/{id}", (id) => ({
    accion: "eliminó",
    objeto: `el webhook ${corto(id)}`,
    enlace: "/desarrolladores"
  })),
  r("POST", "webhooks/{id}/probar", (id) => ({
    accion: "envió un aviso de prueba a",
    objeto: `el webhook ${corto(id)}`,
    enlace: `/desarrolladores/webhooks/${id}`
  })),
  r("POST", "eventos/{id}/reenviar", (id) => ({
    accion: "reenvió",
    objeto: `el aviso ${corto(id)}`,
    enlace: "/desarrolladores/eventos"
  })),
  r("POST", "equipo", () => ({ accion: "invitó a un usuario al equipo", objeto: null, enlace: "/equipo" })),
  r("PATCH", "equipo/{id}", (id) => ({
    accion: "cambió el rol de",
    objeto: `el usuario ${corto(id)} del equipo`,
    enlace: "/equipo"
  })),
  r("DELETE", "equipo/{id}", (id) => ({
    accion: "quitó del equipo a",
    objeto: `el usuario ${corto(id)}`,
    enlace: "/equipo"
  })),
  r("DELETE", "sesion", () => ({ accion: "cerró su sesión", objeto: null, enlace: null })),
  r("POST", "sesion/cerrar-todas", () => ({
    accion: "cerró todas sus sesiones",
    objeto: null,
    enlace: "/seguridad"
  })),
  r("POST", "sesion/modo", () => ({ accion: "cambió entre modo prueba y live", objeto: null, enlace: null })),
  r("POST", "sesion/totp", () => ({
    accion: "empezó a activar el segundo factor",
    objeto: null,
    enlace: "/seguridad"
  })),
  r("POST", "sesion/totp/confirmar", () => ({
    accion: "activó el segundo factor",
    objeto: null,
    enlace: "/seguridad"
  })),
  r("POST", "sesion/totp/desactivar", () => ({
    accion: "quitó el segundo factor",
    objeto: null,
    enlace: "/seguridad"
  })),
  r("POST", "sesion/totp/recuperacion", () => ({
    accion: "hizo códigos de recuperación nuevos",
    objeto: null,
    enlace: "/seguridad"
  })),
  r("PUT", "mi-pagina", () => ({ accion: "cambió su página de pago", objeto: null, enlace: "/mi-pagina" })),
  r("PUT", "propinas", () => ({ accion: "cambió las propinas", objeto: null, enlace: "/configuracion" })),
  r("PUT", "resumen-diario", () => ({
    accion: "cambió el resumen diario por correo",
    objeto: null,
    enlace: "/configuracion"
  })),
  r("POST", "cuentas-aprobadas", () => ({
    accion: "aprobó una cuenta para repartos",
    objeto: null,
    enlace: "/cuentas-aprobadas"
  })),
  r("DELETE", "cuentas-aprobadas/{id}", (id) => ({
    accion: "quitó",
    objeto: `la cuenta para repartos ${corto(id)}`,
    enlace: "/cuentas-aprobadas"
  })),
  r("POST", "acciones-masivas", () => ({
    accion: "empezó una acción masiva",
    objeto: null,
    enlace: "/acciones-masivas"
  })),
  r("accion_masiva_terminada", "acciones-masivas/{id}", (id) => ({
    accion: "terminó",
    objeto: `la acción masiva ${corto(id)}`,
    enlace: "/acciones-masivas"
  }))
]

/** Sign-ins: recorded with their own action names and no object. */
const INGRESOS: Readonly<Record<string, string>> = {
  ingreso: "inició sesión",
  ingreso_fallido: "intentó entrar con una contraseña errada",
  ingreso_fallido_codigo: "escribió un código de ingreso errado",
  ingreso_bloqueado: "quedó bloqueado por muchos intentos de ingreso",
  ingreso_codigo_recuperacion: "entró con un código de recuperación"
}

/** A section of the service, named for a sentence when no rule knows the path. */
const SECCIONES: Readonly<Record<string, string>> = {
  links: "los links",
  lotes: "los lotes",
  llaves: "las llaves de la API",
  webhooks: "los webhooks",
  eventos: "los avisos",
  equipo: "el equipo",
  sesion: "su sesión",
  "mi-pagina": "su página de pago",
  propinas: "las propinas",
  "resumen-diario": "el resumen diario por correo",
  "cuentas-aprobadas": "las cuentas para repartos",
  "acciones-masivas": "las acciones masivas"
}

/** The sentence of an entry: its action (a method or a sign-in name), its path and its HTTP result. */
export const frase = (entrada: {
  readonly accion: string
  readonly objeto: string | null
  readonly resultado: number
}): Frase => {
  const rechazada = entrada.resultado >= 400
  const ingreso = INGRESOS[entrada.accion]
  if (ingreso !== undefined)
    // A failed sign-in is the entry itself, not a refused request.
    return { accion: ingreso, objeto: null, enlace: null, rechazada: false }
  const ruta = entrada.objeto ?? ""
  for (const regla of REGLAS) {
    if (regla.metodo !== entrada.accion) continue
    const match = regla.ruta.exec(ruta)
    if (match !== null) return { ...regla.frase(match[1] ?? ""), rechazada }
  }
  const seccion = /^\/switch\/v1\/([^/]+)/.exec(ruta)?.[1] ?? ""
  return {
    accion: `hizo un cambio en ${SECCIONES[seccion] ?? "el panel"}`,
    objeto: null,
    enlace: null,
    rechazada
  }
}
