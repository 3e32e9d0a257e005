/**
 * The portal's screens other than Inicio and the sign-in, each loaded when first opened
 * (React.lazy): the first screen downloads only what it shows (src/budget.test.ts holds it to
 * its budget). Each screen module is fetched once; the ones that share a file share its chunk.
 */
import { type ComponentType, lazy } from "react"

// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own bound; each screen keeps its props' type
const pantalla = <M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K
) => lazy(async () => ({ default: (await load())[name] }))

const links = () => import("./screens/Links.js")
const lotes = () => import("./screens/Lotes.js")
const contrasena = () => import("./screens/Contrasena.js")

export const AccionesMasivas = pantalla(() => import("./screens/AccionesMasivas.js"), "AccionesMasivas")
export const Actividad = pantalla(() => import("./screens/Actividad.js"), "Actividad")
export const Aplicaciones = pantalla(() => import("./screens/Aplicaciones.js"), "Aplicaciones")
export const Autorizar = pantalla(() => import("./screens/Autorizar.js"), "Autorizar")
export const Buscar = pantalla(() => import("./screens/Buscar.js"), "Buscar")
export const Clientes = pantalla(() => import("./screens/Clientes.js"), "Clientes")
export const Configuracion = pantalla(() => import("./screens/Configuracion.js"), "Configuracion")
export const DefinirContrasena = pantalla(contrasena, "DefinirContrasena")
export const Olvide = pantalla(contrasena, "Olvide")
export const VerificarCorreo = pantalla(contrasena, "VerificarCorreo")
export const CuentasAprobadas = pantalla(() => import("./screens/CuentasAprobadas.js"), "CuentasAprobadas")
export const Desarrolladores = pantalla(() => import("./screens/Desarrolladores.js"), "Desarrolladores")
export const Equipo = pantalla(() => import("./screens/Equipo.js"), "Equipo")
export const Eventos = pantalla(() => import("./screens/Eventos.js"), "Eventos")
export const Links = pantalla(links, "Links")
export const LinkNuevo = pantalla(links, "LinkNuevo")
export const LinkDetalle = pantalla(links, "LinkDetalle")
export const Liquidaciones = pantalla(() => import("./screens/Liquidaciones.js"), "Liquidaciones")
export const Lotes = pantalla(lotes, "Lotes")
export const LoteNuevo = pantalla(lotes, "LoteNuevo")
export const LoteDetalle = pantalla(lotes, "LoteDetalle")
export const MiPagina = pantalla(() => import("./screens/MiPagina.js"), "MiPagina")
export const Seguridad = pantalla(() => import("./screens/Seguridad.js"), "Seguridad")
export const Transacciones = pantalla(() => import("./screens/Transacciones.js"), "Transacciones")
export const WebhookDetalle = pantalla(() => import("./screens/WebhookDetalle.js"), "WebhookDetalle")
