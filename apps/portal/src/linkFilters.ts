/**
 * The Links screen's filters, kept in the address (`?estado=pendiente&q=torta&pagina=2`) so a
 * reload, the back button or a shared address shows the same list; and the same filters as
 * `GET /links` parameters, a page of {@link PAGE_SIZE} at a time.
 */
import type { LinkListParams } from "@switch/sdk"

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

export interface LinkFilters {
  readonly estado: Estado | EstadoReembolso | ""
  readonly q: string
  readonly desde: string
  readonly hasta: string
  readonly origen: string
  readonly pagina: number
}

export const EMPTY: LinkFilters = { estado: "", q: "", desde: "", hasta: "", origen: "", pagina: 1 }

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
