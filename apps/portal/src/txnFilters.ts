/**
 * The Transacciones screen's filters, kept in the address (`?estado=LIQUIDADA&desde=2026-11-01`),
 * as `GET /transacciones` parameters (a page of {@link PAGE_SIZE}) and as the export's filters:
 * the same rows on screen and in the file.
 */
import type { TransaccionFiltros, TransaccionListParams } from "@switch/sdk"
import { parseBolivares } from "./format.js"

export const PAGE_SIZE = 20

export const TXN_ESTADOS = [
  "LIQUIDADA",
  "ACEPTADA",
  "PENDIENTE",
  "ENVIANDO",
  "REVISION",
  "RECHAZADA",
  "DESCONOCIDA",
  "ERROR"
] as const

export const TXN_ESTADO_LABEL: Readonly<Record<string, string>> = {
  LIQUIDADA: "Liquidada",
  ACEPTADA: "Aceptada",
  PENDIENTE: "Pendiente",
  ENVIANDO: "Enviando",
  REVISION: "En revisión",
  RECHAZADA: "Rechazada",
  DESCONOCIDA: "Desconocida",
  ERROR: "Error"
}

export const OPERACIONES = [
  "cobro",
  "pago",
  "reverso",
  "devolucion",
  "devolucion_debito",
  "devolucion_retorno",
  "liquidacion",
  "reparto"
] as const

export const OPERACION_LABEL: Readonly<Record<string, string>> = {
  cobro: "Cobro",
  pago: "Pago",
  reverso: "Reverso",
  devolucion: "Devolución",
  devolucion_debito: "Débito de devolución",
  devolucion_retorno: "Retorno de devolución",
  liquidacion: "Liquidación",
  reparto: "Reparto"
}

export interface TxnFilters {
  readonly estado: string
  readonly operacion: string
  readonly desde: string
  readonly hasta: string
  /** The search: an id's start, a bank reference or a receipt code. */
  readonly q: string
  /** Amounts in Bs as typed (`1.234,56`); ignored when not an amount. */
  readonly min: string
  readonly max: string
  /** The list's order: newest first unless another is chosen. */
  readonly orden: TxnOrden
  readonly pagina: number
}

export const TXN_ORDENES = ["reciente", "antiguo", "monto_desc", "monto_asc"] as const
export type TxnOrden = (typeof TXN_ORDENES)[number]

export const EMPTY: TxnFilters = {
  estado: "",
  operacion: "",
  desde: "",
  hasta: "",
  q: "",
  min: "",
  max: "",
  orden: "reciente",
  pagina: 1
}

/** An amount typed in a filter as the API reads it (`1234.56`); undefined when empty or not one. */
const monto = (text: string): string | undefined => {
  const value = parseBolivares(text)
  return value === undefined || value < 0 ? undefined : value.toFixed(2)
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The filters an address's query string holds; anything unknown or malformed is left out. */
export const fromSearch = (search: string): TxnFilters => {
  const params = new URLSearchParams(search)
  const pick = (name: string, allowed: ReadonlyArray<string>) => {
    const value = params.get(name) ?? ""
    return allowed.includes(value) ? value : ""
  }
  const day = (name: string) => {
    const value = params.get(name) ?? ""
    return DAY.test(value) ? value : ""
  }
  const pagina = Number(params.get("pagina") ?? "1")
  return {
    estado: pick("estado", TXN_ESTADOS),
    operacion: pick("operacion", OPERACIONES),
    desde: day("desde"),
    hasta: day("hasta"),
    q: (params.get("q") ?? "").slice(0, 80),
    min: (params.get("min") ?? "").slice(0, 20),
    max: (params.get("max") ?? "").slice(0, 20),
    orden: (TXN_ORDENES as ReadonlyArray<string>).includes(params.get("orden") ?? "")
      ? (params.get("orden") as TxnOrden)
      : "reciente",
    pagina: Number.isInteger(pagina) && pagina >= 1 ? pagina : 1
  }
}

/** The query string of `filters` (empty ones left out), with its `?`, or "". */
export const toSearch = (filters: TxnFilters): string => {
  const params = new URLSearchParams()
  if (filters.estado !== "") params.set("estado", filters.estado)
  if (filters.operacion !== "") params.set("operacion", filters.operacion)
  if (filters.desde !== "") params.set("desde", filters.desde)
  if (filters.hasta !== "") params.set("hasta", filters.hasta)
  if (filters.q.trim() !== "") params.set("q", filters.q.trim())
  if (filters.min.trim() !== "") params.set("min", filters.min.trim())
  if (filters.max.trim() !== "") params.set("max", filters.max.trim())
  if (filters.orden !== "reciente") params.set("orden", filters.orden)
  if (filters.pagina > 1) params.set("pagina", String(filters.pagina))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

/** The filters as the API takes them: days in Caracas time, `hasta` through the end of its day. */
export const toFiltros = (filters: TxnFilters): TransaccionFiltros => {
  const min = monto(filters.min)
  const max = monto(filters.max)
  return {
    ...(filters.estado === "" ? {} : { estado: filters.estado }),
    ...(filters.operacion === "" ? {} : { operacion: filters.operacion }),
    ...(filters.desde === "" ? {} : { desde: filters.desde }),
    ...(filters.hasta === "" ? {} : { hasta: `${filters.hasta}T23:59:59.999` }),
    ...(filters.q.trim() === "" ? {} : { q: filters.q.trim() }),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max })
  }
}

/** One page of the list, one row more than shown to know whether a next page exists. */
export const toListParams = (filters: TxnFilters): TransaccionListParams => ({
  ...toFiltros(filters),
  ...(filters.orden === "reciente" ? {} : { orden: filters.orden }),
  limit: PAGE_SIZE + 1,
  offset: (filters.pagina - 1) * PAGE_SIZE
})
