/**
 * The Links screen's filters, kept in the address (`?estado=pendiente&q=torta&pagina=2`) so a
 * reload, the back button or a shared address shows the same list; and the same filters as
 * `GET /links` parameters, a page of {@link PAGE_SIZE} at a time.
 */
import type { LinkListParams } from "@switch/sdk"
import { diaCaracas, parseBolivares } from "./format.js"

export const PAGE_SIZE = 20

export const ESTADOS = [
  "pendiente",
  "cobrando",
  "procesando",
  "revision",
  "pagado",
  "expirado",
  "cancelado"
] as const
export type Estado = (typeof ESTADOS)[number]

/**
 * A paid link's refund states (issue 45): not link states (SPEC keeps `pagado`) but filtered
 * beside them, as `GET /links?reembolso=`.
 */
export const REEMBOLSOS = ["reembolsado", "reembolsado_parcial"] as const
export type EstadoReembolso = (typeof REEMBOLSOS)[number]

/** The list's orders (`GET /links?orden=`): newest first unless another is chosen. */
export const ORDENES = ["reciente", "antiguo", "monto_desc", "monto_asc"] as const
export type Orden = (typeof ORDENES)[number]

export interface LinkFilters {
  readonly estado: Estado | EstadoReembolso | ""
  readonly q: string
  readonly desde: string
  readonly hasta: string
  readonly origen: string
  /** Amounts in Bs as typed (`1.234,56`); ignored when not an amount. */
  readonly min: string
  readonly max: string
  readonly orden: Orden
  readonly pagina: number
}

export const EMPTY: LinkFilters = {
  estado: "",
  q: "",
  desde: "",
  hasta: "",
  origen: "",
  min: "",
  max: "",
  orden: "reciente",
  pagina: 1
}

/** An amount typed in a filter, as the API takes it; undefined when empty or not an amount. */
const monto = (text: string): number | undefined => {
  const value = parseBolivares(text)
  return value === undefined || value < 0 ? undefined : value
}

/** The amount range of `filters`, as the API takes it (only the bounds that are amounts). */
const montos = (filters: LinkFilters): { min?: number; max?: number } => {
  const min = monto(filters.min)
  const max = monto(filters.max)
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) }
}

/** The date presets: today, the last 7 days (today included) and this month, as Caracas days. */
export const PRESETS = ["hoy", "7dias", "mes"] as const
export type Preset = (typeof PRESETS)[number]
export const PRESET_LABEL: Readonly<Record<Preset, string>> = {
  hoy: "Hoy",
  "7dias": "7 días",
  mes: "Este mes"
}

/** `desde` and `hasta` (Caracas days, both inclusive) of a preset at `now`. */
export const presetDias = (preset: Preset, now: Date): { desde: string; hasta: string } => {
  const hoy = diaCaracas(now)
  if (preset === "hoy") return { desde: hoy, hasta: hoy }
  if (preset === "mes") return { desde: `${hoy.slice(0, 8)}01`, hasta: hoy }
  return { desde: diaCaracas(new Date(now.getTime() - 6 * 86_400_000)), hasta: hoy }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The filters an address's query string holds; anything malformed is left out. */
export const fromSearch = (search: string): LinkFilters => {
  const params = new URLSearchParams(search)
  const estado = params.get("estado") ?? ""
  const day = (name: string) => {
    const value = params.get(name) ?? ""
    return DAY.test(value) ? value : ""
  }
  const pagina = Number(params.get("pagina") ?? "1")
  return {
    estado: ([...ESTADOS, ...REEMBOLSOS] as ReadonlyArray<string>).includes(estado)
      ? (estado as Estado | EstadoReembolso)
      : "",
    q: (params.get("q") ?? "").slice(0, 100),
    desde: day("desde"),
    hasta: day("hasta"),
    origen: ["api", "panel", "mi_pagina", "boton", "whatsapp"].includes(params.get("origen") ?? "")
      ? (params.get("origen") as string)
      : "",
    min: (params.get("min") ?? "").slice(0, 20),
    max: (params.get("max") ?? "").slice(0, 20),
    orden: (ORDENES as ReadonlyArray<string>).includes(params.get("orden") ?? "")
      ? (params.get("orden") as Orden)
      : "reciente",
    pagina: Number.isInteger(pagina) && pagina >= 1 ? pagina : 1
  }
}

/** The query string of `filters` (empty ones left out), with its `?`, or "" when none is set. */
export const toSearch = (filters: LinkFilters): string => {
  const params = new URLSearchParams()
  if (filters.estado !== "") params.set("estado", filters.estado)
  if (filters.q.trim() !== "") params.set("q", filters.q.trim())
  if (filters.desde !== "") params.set("desde", filters.desde)
  if (filters.hasta !== "") params.set("hasta", filters.hasta)
  if (filters.origen !== "") params.set("origen", filters.origen)
  if (filters.min.trim() !== "") params.set("min", filters.min.trim())
  if (filters.max.trim() !== "") params.set("max", filters.max.trim())
  if (filters.orden !== "reciente") params.set("orden", filters.orden)
  if (filters.pagina > 1) params.set("pagina", String(filters.pagina))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

/** The `GET /links` parameters of `filters`: one page, dates as Caracas days (the API reads them so). */
export const toListParams = (filters: LinkFilters): LinkListParams => ({
  ...(filters.estado === ""
    ? {}
    : (REEMBOLSOS as ReadonlyArray<string>).includes(filters.estado)
      ? { reembolso: filters.estado }
      : { estado: filters.estado }),
  ...(filters.q.trim() === "" ? {} : { q: filters.q.trim() }),
  ...(filters.desde === "" ? {} : { desde: filters.desde }),
  ...(filters.hasta === "" ? {} : { hasta: `${filters.hasta}T23:59:59` }),
  ...(filters.origen === "" ? {} : { origen: filters.origen }),
  ...montos(filters),
  ...(filters.orden === "reciente" ? {} : { orden: filters.orden }),
  limit: PAGE_SIZE + 1,
  offset: (filters.pagina - 1) * PAGE_SIZE
})

export const ESTADO_LABEL: Readonly<Record<Estado, string>> = {
  pendiente: "Pendiente",
  cobrando: "Cobrando",
  procesando: "Procesando",
  revision: "En revisión",
  pagado: "Pagado",
  expirado: "Expirado",
  cancelado: "Cancelado"
}

export const REEMBOLSO_LABEL: Readonly<Record<EstadoReembolso, string>> = {
  reembolsado: "Reembolsado",
  reembolsado_parcial: "Reembolsado parcialmente"
}

/** The label of a filter's state: a link state's, or a refund state's. */
export const estadoLabel = (estado: Estado | EstadoReembolso): string =>
  (REEMBOLSOS as ReadonlyArray<string>).includes(estado)
    ? REEMBOLSO_LABEL[estado as EstadoReembolso]
    : ESTADO_LABEL[estado as Estado]
