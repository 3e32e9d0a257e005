/**
 * The merchant's own payment page's settings (migration 0020): read by merchant id (the portal)
 * or by the merchant's code (the public page), and saved by the owner.
 */
import { SqlClient } from "@effect/sql"
import { MiPagina, Money } from "@switch/core"
import { Effect } from "effect"

/** A page's settings with the merchant's facts the public page shows. */
export interface Pagina extends MiPagina.Ajustes {
  readonly comercioId: string
  readonly codigo: string
  readonly nombre: string
  readonly mode: "test" | "live"
  readonly suspendido: boolean
  readonly updatedAt: Date | null
}

interface Row {
  readonly comercio_id: string
  readonly codigo: string
  readonly nombre: string
  readonly estado: string
  readonly activa: boolean | null
  readonly mode: "test" | "live" | null
  readonly monto_min: number | null
  readonly monto_max: number | null
  readonly concepto_permitido: boolean | null
  readonly updated_at: Date | null
}

const toPagina = (row: Row, fallbackMode: "test" | "live"): Pagina => {
  const inicial = MiPagina.AJUSTES_INICIALES
  return {
    comercioId: row.comercio_id,
    codigo: row.codigo,
    nombre: row.nombre,
    suspendido: row.estado === "suspendido",
    activa: row.activa ?? inicial.activa,
    mode: row.mode ?? fallbackMode,
    montoMin: row.monto_min === null ? inicial.montoMin : Money.Cents(row.monto_min),
    montoMax: row.monto_max === null ? inicial.montoMax : Money.Cents(row.monto_max),
    conceptoPermitido: row.concepto_permitido ?? inicial.conceptoPermitido,
    updatedAt: row.updated_at
  }
}

/** The merchant by its id or its code, with its page's row when it was ever saved. */
const select = (sql: SqlClient.SqlClient, by: "id" | "codigo", value: string) =>
  sql<Row>`
    select c.id as comercio_id, c.codigo, c.nombre, c.estado, p.activa, p.mode, p.monto_min, p.monto_max,
      p.concepto_permitido, p.updated_at
    from comercios c left join mi_pagina p on p.comercio_id = c.id
    where ${by === "id" ? sql`c.id = ${value}` : sql`c.codigo = ${value}`}`

/** The page of the merchant `comercioId`; a page never saved has the initial settings in `mode`. */
export const byMerchant = (comercioId: string, mode: "test" | "live") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* select(sql, "id", comercioId)
    const row = rows[0]
    if (row === undefined) return yield* Effect.dieMessage("merchant of a session is missing")
    return toPagina(row, mode)
  }).pipe(Effect.orDie)

/** The page of the merchant whose code is `codigo`, or undefined when there is none. */
export const byCodigo = (codigo: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* select(sql, "codigo", codigo)
    const row = rows[0]
    return row === undefined ? undefined : toPagina(row, "test")
  }).pipe(Effect.orDie)

/** Saves the owner's settings, the links it makes being in `mode` from now on. */
export const save = (comercioId: string, mode: "test" | "live", ajustes: MiPagina.Ajustes) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      insert into mi_pagina (comercio_id, activa, mode, monto_min, monto_max, concepto_permitido, updated_at)
      values (${comercioId}, ${ajustes.activa}, ${mode}, ${ajustes.montoMin}, ${ajustes.montoMax},
        ${ajustes.conceptoPermitido}, now())
      on conflict (comercio_id) do update set activa = excluded.activa, mode = excluded.mode,
        monto_min = excluded.monto_min, monto_max = excluded.monto_max,
        concepto_permitido = excluded.concepto_permitido, updated_at = excluded.updated_at`
  }).pipe(Effect.orDie)

/** `{base_url}/p/<codigo>`: the page's address. */
export const paginaUrl = (baseUrl: string, codigo: string) => `${baseUrl}/p/${encodeURIComponent(codigo)}`
