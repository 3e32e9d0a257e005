/**
 * Liquidaciones: each paid link's net credited to the merchant's account (immediate
 * settlement), with its state, in the session's mode; filtered by state (in the address), paged.
 * A link with a split also shows the split's payments to each beneficiary (issue 42). In test mode
 * each settlement is simulated and says so ("Simulada", issue 45).
 */

import type { Liquidacion } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { useFiltrosPlegables } from "../FiltrosPlegables.js"
import { bolivares, fechaHora } from "../format.js"
import { Paginas } from "../Paginas.js"
import { Link, navigate } from "../router.js"
import { Reparto, repartoDe } from "./Reparto.js"

const PAGE = 20

export const LIQ_ESTADOS = ["PENDIENTE", "LIQUIDADA", "REVISION", "RECHAZADA"] as const

export const LIQ_LABEL: Readonly<Record<string, string>> = {
  PENDIENTE: "En curso",
  LIQUIDADA: "Acreditada",
  REVISION: "En revisión",
  RECHAZADA: "Rechazada"
}

export const liqClase = (estado: string) =>
  estado === "LIQUIDADA" ? "pagado" : estado === "RECHAZADA" ? "cancelado" : "pendiente"

/** Why a settlement was not credited, in words: an operator's closing note says so (issue 45). */
export const motivoTexto = (motivo: string) =>
  motivo.startsWith("cerrada sin pagar: ")
    ? `Cerrada sin pagar por un operador: ${motivo.slice("cerrada sin pagar: ".length)}`
    : motivo

const query = (estado: string, pagina: number) => {
  const params = new URLSearchParams()
  if (estado !== "") params.set("estado", estado)
  if (pagina > 1) params.set("pagina", String(pagina))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

export const Liquidaciones = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const params = new URLSearchParams(search)
  const estadoParam = params.get("estado") ?? ""
  const estado = (LIQ_ESTADOS as ReadonlyArray<string>).includes(estadoParam) ? estadoParam : ""
  const pagina = Math.max(1, Math.trunc(Number(params.get("pagina"))) || 1)
  const plegable = useFiltrosPlegables(estado === "" ? 0 : 1)
  const [rows, setRows] = useState<ReadonlyArray<Liquidacion> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setRows(null)
    setError(null)
    sw.liquidaciones
      .list({ limit: PAGE + 1, offset: (pagina - 1) * PAGE, ...(estado === "" ? {} : { estado }) })
      .then(
        (page) => setRows(page),
        (e) => setError(errorText(e))
      )
  }, [estado, pagina])
  const shown = rows?.slice(0, PAGE) ?? []
  const more = (rows?.length ?? 0) > PAGE
  return (
    <section>
      <Title>Liquidaciones</Title>
      <p className="nota">
        Lo que Switch acredita a tu cuenta por cada link pagado: lo cobrado menos la comisión.
      </p>
      {sesion.mode === "test" ? (
        <p className="nota">
          En modo prueba son simuladas: lo que recibirías por cada pago de prueba, sin mover dinero.
        </p>
      ) : null}
      {plegable.boton}
      <div className={plegable.clase} id={plegable.id}>
        <div className="campo">
          <label htmlFor="l-estado">Estado</label>
          <select
            id="l-estado"
            value={estado}
            onChange={(e) => navigate(`/liquidaciones${query(e.target.value, 1)}`)}
          >
            <option value="">Todos</option>
            {LIQ_ESTADOS.map((e) => (
              <option key={e} value={e}>
                {LIQ_LABEL[e]}
              </option>
            ))}
          </select>
        </div>
      </div>
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
          No hay liquidaciones{estado === "" ? "" : " en este estado"}.{" "}
          {sesion.mode === "test"
            ? "Cada pago de prueba muestra aquí su liquidación simulada."
            : "Se hacen al pagarse cada link cuando tu comercio tiene liquidación inmediata."}
        </p>
      ) : (
        <table className="tabla">
          <caption className="oculto">Liquidaciones, de la más reciente a la más antigua</caption>
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col">Cobrado</th>
              <th scope="col">Neto</th>
              <th scope="col">Estado</th>
              <th scope="col">Fecha</th>
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
      )}
      {shown.flatMap((l) => {
        const reparto = repartoDe(l.reparto)
        return reparto === null
          ? []
          : [<Reparto key={`r-${l.id}`} reparto={reparto} titulo={`Reparto de ${l.concepto ?? "un link"}`} />]
      })}
      <Paginas pagina={pagina} more={more} go={(n) => navigate(`/liquidaciones${query(estado, n)}`)} />
    </section>
  )
}
