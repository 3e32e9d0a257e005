/**
 * Transacciones: the merchant's transactions in the session's mode, filtered (in the address:
 * state, operation, dates with presets, a search by id, reference or receipt code, an amount
 * range), counted and paged, and the CSV export of every matching one, streamed by the server as
 * it downloads.
 */

import type { Transaccion } from "@switch/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { enUso, useFiltrosPlegables } from "../FiltrosPlegables.js"
import { bolivares, fechaHora, miles } from "../format.js"
import { Paginas } from "../Paginas.js"
import { Link, navigate } from "../router.js"
import {
  fromSearch,
  OPERACION_LABEL,
  OPERACIONES,
  PAGE_SIZE,
  TXN_ESTADO_LABEL,
  TXN_ESTADOS,
  type TxnFilters,
  type TxnOrden,
  toFiltros,
  toListParams,
  toSearch
} from "../txnFilters.js"
import { OrdenarPor, OrdenCampo, PresetsFecha } from "./ListaControles.js"

/** The columns that sort, and the orders (descending, ascending) each toggles between. */
const ORDEN_DE: Readonly<Record<string, readonly [TxnOrden, TxnOrden]>> = {
  Fecha: ["reciente", "antiguo"],
  Total: ["monto_desc", "monto_asc"]
}
const ASCENDENTE = new Set<TxnOrden>(["antiguo", "monto_asc"])

/** A sortable column's heading: its order in the address, toggled by its button. */
const Cabecera = ({ columna, filters }: { readonly columna: string; readonly filters: TxnFilters }) => {
  const [desc, asc] = ORDEN_DE[columna] ?? ["reciente", "antiguo"]
  const activa =
    ORDEN_DE[columna]?.includes(filters.orden) === true
      ? ASCENDENTE.has(filters.orden)
        ? ("ascending" as const)
        : ("descending" as const)
      : undefined
  return (
    <th scope="col" aria-sort={activa}>
      <OrdenarPor
        columna={columna}
        activa={activa}
        onOrdenar={() =>
          navigate(
            `/transacciones${toSearch({ ...filters, orden: filters.orden === desc ? asc : desc, pagina: 1 })}`
          )
        }
      />
    </th>
  )
}

const estadoClase = (estado: string) =>
  estado === "LIQUIDADA" ? "pagado" : estado === "RECHAZADA" || estado === "ERROR" ? "cancelado" : "pendiente"

export const Transacciones = ({ search }: { readonly search: string }) => {
  const filters = fromSearch(search)
  const plegable = useFiltrosPlegables(enUso(filters))
  const [draft, setDraft] = useState<TxnFilters>(filters)
  const [rows, setRows] = useState<ReadonlyArray<Transaccion> | null>(null)
  const [total, setTotal] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const key = toSearch(filters)

  useEffect(() => {
    const current = fromSearch(key)
    setDraft(current)
    setRows(null)
    setError(null)
    sw.transacciones.list(toListParams(current)).then(
      (page) => setRows(page),
      (e) => setError(errorText(e))
    )
    setTotal(null)
    let vigente = true
    sw.transacciones.total(toFiltros(current)).then(
      (r) => {
        if (vigente) setTotal(r.total)
      },
      () => undefined
    )
    return () => {
      vigente = false
    }
  }, [key])

  const apply = (event: FormEvent) => {
    event.preventDefault()
    navigate(`/transacciones${toSearch({ ...draft, pagina: 1 })}`)
  }
  const page = (pagina: number) => navigate(`/transacciones${toSearch({ ...filters, pagina })}`)
  const shown = rows?.slice(0, PAGE_SIZE) ?? []
  const more = (rows?.length ?? 0) > PAGE_SIZE

  return (
    <section>
      <div className="titulo-con-accion">
        <Title>Transacciones</Title>
        <a className="boton" href={sw.transacciones.exportarUrl(toFiltros(filters))} download>
          Exportar CSV
        </a>
      </div>
      <p className="nota">
        El archivo trae todas las transacciones con estos filtros, sin importar cuántas sean.
      </p>
      {plegable.boton}
      <form className={plegable.clase} id={plegable.id} onSubmit={apply} aria-label="Filtrar transacciones">
        <div className="campo">
          <label htmlFor="t-estado">Estado</label>
          <select
            id="t-estado"
            value={draft.estado}
            onChange={(e) => setDraft({ ...draft, estado: e.target.value })}
          >
            <option value="">Todos</option>
            {TXN_ESTADOS.map((estado) => (
              <option key={estado} value={estado}>
                {TXN_ESTADO_LABEL[estado]}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor="t-operacion">Operación</label>
          <select
            id="t-operacion"
            value={draft.operacion}
            onChange={(e) => setDraft({ ...draft, operacion: e.target.value })}
          >
            <option value="">Todas</option>
            {OPERACIONES.map((op) => (
              <option key={op} value={op}>
                {OPERACION_LABEL[op]}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor="t-q">Buscar</label>
          <input
            id="t-q"
            type="search"
            maxLength={80}
            value={draft.q}
            placeholder="Id, referencia o código"
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="t-min">Monto mínimo (Bs)</label>
          <input
            id="t-min"
            inputMode="decimal"
            value={draft.min}
            onChange={(e) => setDraft({ ...draft, min: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="t-max">Monto máximo (Bs)</label>
          <input
            id="t-max"
            inputMode="decimal"
            value={draft.max}
            onChange={(e) => setDraft({ ...draft, max: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="t-desde">Desde</label>
          <input
            id="t-desde"
            type="date"
            value={draft.desde}
            onChange={(e) => setDraft({ ...draft, desde: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="t-hasta">Hasta</label>
          <input
            id="t-hasta"
            type="date"
            value={draft.hasta}
            onChange={(e) => setDraft({ ...draft, hasta: e.target.value })}
          />
        </div>
        <OrdenCampo id="t-orden" value={draft.orden} onChange={(orden) => setDraft({ ...draft, orden })} />
        <PresetsFecha
          onElegir={(dias) => navigate(`/transacciones${toSearch({ ...draft, ...dias, pagina: 1 })}`)}
        />
        <button type="submit">Filtrar</button>
      </form>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rows === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : shown.length === 0 ? (
        <p>No hay transacciones con estos filtros.</p>
      ) : (
        <>
          <p className="nota" id="transacciones-total">
            {total === null ? "" : `${miles(total)} ${total === 1 ? "transacción" : "transacciones"}.`}
          </p>
          <table className="tabla">
            <caption className="oculto">Transacciones</caption>
            <thead>
              <tr>
                <Cabecera columna="Fecha" filters={filters} />
                <th scope="col">Operación</th>
                <th scope="col">Estado</th>
                <Cabecera columna="Total" filters={filters} />
                <th scope="col">Código</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => (
                <tr key={t.id}>
                  <td data-titulo="Fecha">{fechaHora(t.created_at)}</td>
                  <td data-titulo="Operación">
                    {t.link_id === null ? (
                      (OPERACION_LABEL[t.operacion] ?? t.operacion)
                    ) : (
                      <Link to={`/links/${t.link_id}`}>{OPERACION_LABEL[t.operacion] ?? t.operacion}</Link>
                    )}
                  </td>
                  <td data-titulo="Estado">
                    <span className={`estado estado-${estadoClase(t.estado)}`}>
                      {TXN_ESTADO_LABEL[t.estado] ?? t.estado}
                    </span>
                  </td>
                  <td data-titulo="Total">
                    {bolivares(t.total)}
                    {t.propina > 0 ? <span className="nota"> (propina {bolivares(t.propina)})</span> : null}
                  </td>
                  <td data-titulo="Código">{t.codigo_verificacion ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <Paginas pagina={filters.pagina} more={more} go={page} />
    </section>
  )
}
