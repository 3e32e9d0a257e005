/**
 * Liquidaciones: each paid link's net credited to the merchant's account (immediate
 * settlement), with its state, in the session's mode; filtered (in the address: state, dates with
 * presets, a net range), counted, sorted by net or date, paged, and read again when a payment or
 * a settlement changes (the session's stream of changes). A link with a split also shows the
 * split's payments to each beneficiary (issue 42). In test mode each settlement is simulated and
 * says so ("Simulada", issue 45).
 */

import type { Liquidacion } from "@switch/sdk"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { errorText, sw } from "../api.js"
import { useCambios } from "../cambios.js"
import { Title, useSesion } from "../context.js"
import { useFiltrosPlegables } from "../FiltrosPlegables.js"
import { bolivares, fechaHora, miles } from "../format.js"
import {
  enUso,
  fromSearch,
  LIQ_ESTADOS,
  LIQ_LABEL,
  type LiqFilters,
  type LiqOrden,
  liqClase,
  PAGE_SIZE,
  toFiltros,
  toListParams,
  toSearch
} from "../liqFilters.js"
import { Paginas } from "../Paginas.js"
import { Link, navigate } from "../router.js"
import { OrdenarPor, OrdenCampo, PresetsFecha } from "./ListaControles.js"
import { Reparto, repartoDe } from "./Reparto.js"

/** Why a settlement was not credited, in words: an operator's closing note says so (issue 45). */
export const motivoTexto = (motivo: string) =>
  motivo.startsWith("cerrada sin pagar: ")
    ? `Cerrada sin pagar por un operador: ${motivo.slice("cerrada sin pagar: ".length)}`
    : motivo

const ir = (filters: LiqFilters) => navigate(`/liquidaciones${toSearch(filters)}`)

/** The columns that sort, and the orders (descending, ascending) each toggles between. */
const ORDEN_DE: Readonly<Record<string, readonly [LiqOrden, LiqOrden]>> = {
  Neto: ["monto_desc", "monto_asc"],
  Fecha: ["reciente", "antiguo"]
}
const ASCENDENTE = new Set<LiqOrden>(["antiguo", "monto_asc"])

const CAPTION: Readonly<Record<LiqOrden, string>> = {
  reciente: "Liquidaciones, de la más reciente a la más antigua",
  antiguo: "Liquidaciones, de la más antigua a la más reciente",
  monto_desc: "Liquidaciones, del neto mayor al menor",
  monto_asc: "Liquidaciones, del neto menor al mayor"
}

/** A sortable column's heading: its order in the address, toggled by its button. */
const Cabecera = ({ columna, filters }: { readonly columna: string; readonly filters: LiqFilters }) => {
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
        onOrdenar={() => ir({ ...filters, orden: filters.orden === desc ? asc : desc, pagina: 1 })}
      />
    </th>
  )
}

interface Poner {
  readonly setRows: (rows: ReadonlyArray<Liquidacion>) => void
  readonly setTotal: (total: number) => void
  readonly setError: (error: string | null) => void
}

/** Reads the page and the total for `current`; `vigente` says whether they still belong on screen. */
const leer = (current: LiqFilters, vigente: () => boolean, poner: Poner) => {
  sw.liquidaciones.list(toListParams(current)).then(
    (page) => {
      if (!vigente()) return
      poner.setRows(page)
      poner.setError(null)
    },
    (e) => {
      if (vigente()) poner.setError(errorText(e))
    }
  )
  sw.liquidaciones.total(toFiltros(current)).then(
    (r) => {
      if (vigente()) poner.setTotal(r.total)
    },
    () => undefined
  )
}

export const Liquidaciones = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const filters = fromSearch(search)
  const key = toSearch(filters)
  const plegable = useFiltrosPlegables(enUso(filters))
  const [draft, setDraft] = useState<LiqFilters>(filters)
  const [rows, setRows] = useState<ReadonlyArray<Liquidacion> | null>(null)
  const [total, setTotal] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  // The filters on screen: an answer for others (a change's reload after navigating) is dropped.
  const shownKey = useRef(key)
  shownKey.current = key

  useEffect(() => {
    const current = fromSearch(key)
    setDraft(current)
    setRows(null)
    setTotal(null)
    setError(null)
    let vigente = true
    leer(current, () => vigente, { setRows, setTotal, setError })
    return () => {
      vigente = false
    }
  }, [key])
  // A payment or a settlement changed (paid, credited, reviewed, refunded): the same filters,
  // read again in place.
  useCambios(
    () => leer(fromSearch(key), () => shownKey.current === key, { setRows, setTotal, setError }),
    (cambio) => cambio.link_id !== null
  )

  const apply = (event: FormEvent) => {
    event.preventDefault()
    ir({ ...draft, pagina: 1 })
  }
  const shown = rows?.slice(0, PAGE_SIZE) ?? []
  const more = (rows?.length ?? 0) > PAGE_SIZE
  const filtrada = enUso({ ...filters, orden: "reciente" }) > 0
  return (
    <section>
      <Title>Liquidaciones</Title>
      {/* One short note: on a phone the first row stays in sight without scrolling. */}
      <p className="nota">
        {sesion.mode === "test"
          ? "Simuladas en modo prueba: lo cobrado menos la comisión, sin mover dinero."
          : "Lo que Switch acredita a tu cuenta por cada link pagado: lo cobrado menos la comisión."}
      </p>
      {plegable.boton}
      <form className={plegable.clase} id={plegable.id} onSubmit={apply} aria-label="Filtrar liquidaciones">
        <div className="campo">
          <label htmlFor="l-estado">Estado</label>
          <select
            id="l-estado"
            value={filters.estado}
            onChange={(e) => ir({ ...filters, estado: e.target.value, pagina: 1 })}
          >
            <option value="">Todos</option>
            {LIQ_ESTADOS.map((e) => (
              <option key={e} value={e}>
                {LIQ_LABEL[e]}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor="l-min">Neto mínimo (Bs)</label>
          <input
            id="l-min"
            inputMode="decimal"
            value={draft.min}
            onChange={(e) => setDraft({ ...draft, min: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="l-max">Neto máximo (Bs)</label>
          <input
            id="l-max"
            inputMode="decimal"
            value={draft.max}
            onChange={(e) => setDraft({ ...draft, max: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="l-desde">Desde</label>
          <input
            id="l-desde"
            type="date"
            value={draft.desde}
            onChange={(e) => setDraft({ ...draft, desde: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="l-hasta">Hasta</label>
          <input
            id="l-hasta"
            type="date"
            value={draft.hasta}
            onChange={(e) => setDraft({ ...draft, hasta: e.target.value })}
          />
        </div>
        <OrdenCampo
          id="l-orden"
          value={filters.orden}
          onChange={(orden) => ir({ ...filters, orden, pagina: 1 })}
        />
        <PresetsFecha onElegir={(dias) => ir({ ...draft, ...dias, pagina: 1 })} />
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
        <p>
          No hay liquidaciones{filtrada ? " con estos filtros" : ""}.{" "}
          {sesion.mode === "test"
            ? "Cada pago de prueba muestra aquí su liquidación simulada."
            : "Se hacen al pagarse cada link cuando tu comercio tiene liquidación inmediata."}
        </p>
      ) : (
        <>
          <p className="nota" id="liquidaciones-total">
            {total === null ? "" : `${miles(total)} ${total === 1 ? "liquidación" : "liquidaciones"}.`}
          </p>
          <table className="tabla">
            <caption className="oculto">{CAPTION[filters.orden]}</caption>
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col">Cobrado</th>
                <Cabecera columna="Neto" filters={filters} />
                <th scope="col">Estado</th>
                <Cabecera columna="Fecha" filters={filters} />
              </tr>
            </thead>
            <tbody>
              {shown.map((l) => (
                <tr key={l.id}>
                  <td data-titulo="Link">
                    {l.link_id === null ? (
                      (l.concepto ?? "—")
                    ) : (
                      <Link to={`/links/${l.link_id}`}>{l.concepto ?? "Sin concepto"}</Link>
                    )}
                  </td>
                  <td data-titulo="Cobrado">{l.cobrado === null ? "—" : bolivares(l.cobrado)}</td>
                  <td data-titulo="Neto">{bolivares(l.neto)}</td>
                  <td data-titulo="Estado">
                    <span>
                      <span className={`estado estado-${liqClase(l.estado)}`}>
                        {LIQ_LABEL[l.estado] ?? l.estado}
                      </span>
                      {l.simulada ? <span className="estado estado-simulada">Simulada</span> : null}
                      {l.motivo === undefined || l.motivo === null ? null : (
                        <>
                          {" "}
                          <span className="nota">{motivoTexto(l.motivo)}</span>
                        </>
                      )}
                    </span>
                  </td>
                  <td data-titulo="Fecha">{fechaHora(l.liquidada_at ?? l.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {shown.flatMap((l) => {
        const reparto = repartoDe(l.reparto)
        return reparto === null
          ? []
          : [<Reparto key={`r-${l.id}`} reparto={reparto} titulo={`Reparto de ${l.concepto ?? "un link"}`} />]
      })}
      <Paginas pagina={filters.pagina} more={more} go={(pagina) => ir({ ...filters, pagina })} />
    </section>
  )
}
