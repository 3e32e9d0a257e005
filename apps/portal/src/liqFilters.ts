/**
 * The Liquidaciones screen's filters, kept in the address (`?estado=LIQUIDADA&desde=2026-11-01`),
 * as `GET /liquidaciones` parameters (a page of {@link PAGE_SIZE}) and as its total's filters: the
 * same settlements counted and listed. Amounts are the net credited, in Bs.
 */
import type { LiquidacionFiltros, LiquidacionListParams } from "@switch/sdk"
import { parseBolivares } from "./format.js"

export const PAGE_SIZE = 20

export const LIQ_ESTADOS = ["PENDIENTE", "LIQUIDADA", "REVISION", "RECHAZADA"] as const

export const LIQ_ORDENES = ["reciente", "antiguo", "monto_desc", "monto_asc"] as const
export type LiqOrden = (typeof LIQ_ORDENES)[number]

export interface LiqFilters {
  readonly estado: string
  readonly desde: string
  readonly hasta: string
  /** Net amounts in Bs as typed (`1.234,56`); ignored when not an amount. */
  readonly min: string
  readonly max: string
  /** The list's order: newest first unless another is chosen. */
  readonly orden: LiqOrden
  readonly pagina: number
}

export const EMPTY: LiqFilters = {
  estado: "",
  desde: "",
  hasta: "",
  min: "",
  max: "",
  orden: "reciente",
  pagina: 1
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** An amount typed in a filter as the API reads it (`1234.56`); undefined when empty or not one. */
const monto = (text: string): string | undefined => {
  const value = parseBolivares(text)
  return value === undefined || value < 0 ? undefined : value.toFixed(2)
}

/** The filters an address's query string holds; anything unknown or malformed is left out. */
export const fromSearch = (search: string): LiqFilters => {
  const params = new URLSearchParams(search)
  const day = (name: string) => {
    const value = params.get(name) ?? ""
    return DAY.test(value) ? value : ""
  }
  const estado = params.get("estado") ?? ""
  const orden = params.get("orden") ?? ""
  const pagina = Number(params.get("pagina") ?? "1")
  return {
    estado: (LIQ_ESTADOS as ReadonlyArray<string>).includes(estado) ? estado : "",
    desde: day("desde"),
    hasta: day("hasta"),
    min: (params.get("min") ?? "").slice(0, 20),
    max: (params.get("max") ?? "").slice(0, 20),
    orden: (LIQ_ORDENES as ReadonlyArray<string>).includes(orden) ? (orden as LiqOrden) : "reciente",
    pagina: Number.isInteger(pagina) && pagina >= 1 ? pagina : 1
  }
}

/** The query string of `filters` (empty ones and the default order left out), with its `?`, or "". */
export const toSearch = (filters: LiqFilters): string => {
  const params = new URLSearchParams()
  if (filters.estado !== "") params.set("estado", filters.estado)
  if (filters.desde !== "") params.set("desde", filters.desde)
  if (filters.hasta !== "") params.set("hasta", filters.hasta)
  if (filters.min.trim() !== "") params.set("min", filters.min.trim())
  if (filters.max.trim() !== "") params.set("max", filters.max.trim())
  if (filters.orden !== "reciente") params.set("orden", filters.orden)
  if (filters.pagina > 1) params.set("pagina", String(filters.pagina))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

/** How many filters are in use (the fold's count): the default order and the page aside. */
export const enUso = (filters: LiqFilters): number =>
  [filters.estado, filters.desde, filters.hasta, filters.min.trim(), filters.max.trim()].filter(
    (v) => v !== ""
  ).length + (filters.orden === "reciente" ? 0 : 1)

/** The filters as the API takes them: days in Caracas time, `hasta` through the end of its day. */
export const toFiltros = (filters: LiqFilters): LiquidacionFiltros => {
  const min = monto(filters.min)
  const max = monto(filters.max)
  return {
    ...(filters.estado === "" ? {} : { estado: filters.estado }),
    ...(filters.desde === "" ? {} : { desde: filters.desde }),
    ...(filters.hasta === "" ? {} : { hasta: `${filters.hasta}T23:59:59.999` }),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max })
  }
}

/** One page of the list, one row more than shown to know whether a next page exists. */
export const toListParams = (filters: LiqFilters): LiquidacionListParams => ({
  ...toFiltros(filters),
  ...(filters.orden === "reciente" ? {} : { orden: filters.orden }),
  limit: PAGE_SIZE + 1,
  offset: (filters.pagina - 1) * PAGE_SIZE
})

/** A settlement's state as the portal says it (the list, Inicio). */
export const LIQ_LABEL: Readonly<Record<string, string>> = {
  PENDIENTE: "En curso",
  LIQUIDADA: "Acreditada",
  REVISION: "En revisión",
  RECHAZADA: "Rechazada"
}

/** The state badge's class of a settlement's state. */
export const liqClase = (estado: string) =>
  estado === "LIQUIDADA" ? "pagado" : estado === "RECHAZADA" ? "cancelado" : "pendiente"
