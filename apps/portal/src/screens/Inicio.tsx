/**
 * Inicio: today's and this week's collections of the session's mode (a bar chart in inline
 * SVG, with the same figures in a table for screen readers), open links, the latest payments
 * and the settlements by state, from `GET /resumen`.
 */
import type { Resumen } from "@switch/sdk"
import { useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { useCambios } from "../cambios.js"
import { Title } from "../context.js"
import { bolivares, fechaHora } from "../format.js"
import { barras, etiquetaDia, tope } from "../grafico.js"
import { LIQ_ESTADOS, LIQ_LABEL, liqClase } from "../liqFilters.js"
import { Link } from "../router.js"

const W = 560
const H = 180
const MARGEN = { arriba: 20, abajo: 28, izquierda: 8 }

const Grafico = ({ semana }: { readonly semana: Resumen["semana"] }) => {
  const bars = barras(semana, W - MARGEN.izquierda * 2, H - MARGEN.arriba - MARGEN.abajo)
  const total = semana.reduce((sum, d) => sum + d.cobrado, 0)
  const top = tope(Math.max(0, ...semana.map((d) => d.cobrado)))
  return (
    <figure className="grafico">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="grafico-titulo" focusable="false">
        <title id="grafico-titulo">
          Cobrado por día en los últimos 7 días: {bolivares(total)} en total; el eje llega a {bolivares(top)}.
        </title>
        <line
          x1={MARGEN.izquierda}
          x2={W - MARGEN.izquierda}
          y1={H - MARGEN.abajo}
          y2={H - MARGEN.abajo}
          className="eje"
        />
        {bars.map((b) => (
          <g key={b.dia.dia} transform={`translate(${MARGEN.izquierda},${MARGEN.arriba})`}>
            <rect x={b.x} y={b.y} width={b.ancho} height={b.alto} rx={3} className="barra" />
            {b.dia.cobrado > 0 ? (
              <text x={b.x + b.ancho / 2} y={b.y - 5} textAnchor="middle" className="valor">
                {b.dia.pagos}
              </text>
            ) : null}
            <text x={b.x + b.ancho / 2} y={H - MARGEN.arriba - MARGEN.abajo + 18} textAnchor="middle">
              {b.etiqueta}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="nota">
        Barras: lo cobrado cada día; el número sobre cada barra, sus pagos.
      </figcaption>
      <table className="oculto">
        <caption>Cobrado por día</caption>
        <thead>
          <tr>
            <th scope="col">Día</th>
            <th scope="col">Cobrado</th>
            <th scope="col">Pagos</th>
          </tr>
        </thead>
        <tbody>
          {semana.map((d) => (
            <tr key={d.dia}>
              <td>{etiquetaDia(d.dia)}</td>
              <td>{bolivares(d.cobrado)}</td>
              <td>{d.pagos}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

export const Inicio = () => {
  const [resumen, setResumen] = useState<Resumen | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => {
    sw.resumen.get().then(setResumen, (e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])
  // A payment, a settlement or a refund changes the totals: read them again.
  useCambios(load)
  const semanaTotal = resumen?.semana.reduce((sum, d) => sum + d.cobrado, 0) ?? 0
  const semanaPagos = resumen?.semana.reduce((sum, d) => sum + d.pagos, 0) ?? 0
  const liquidaciones =
    resumen === null ? [] : LIQ_ESTADOS.filter((e) => resumen.liquidaciones[e] !== undefined)
  return (
    <section>
      <Title>Inicio</Title>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {resumen === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <>
          <dl className="cifras">
            <div>
              <dt>Cobrado hoy</dt>
              <dd>{bolivares(resumen.hoy.cobrado)}</dd>
            </div>
            <div>
              <dt>Pagos hoy</dt>
              <dd>{resumen.hoy.pagos}</dd>
            </div>
            <div>
              <dt>Cobrado en 7 días</dt>
              <dd>{bolivares(semanaTotal)}</dd>
            </div>
            <div>
              <dt>Links abiertos</dt>
              <dd>
                <Link to="/links?estado=pendiente">{resumen.links_abiertos.toLocaleString("es-VE")}</Link>
              </dd>
            </div>
          </dl>
          <h2>Cobros de la semana</h2>
          {semanaPagos === 0 ? (
            <p>Aún no hay cobros en los últimos 7 días.</p>
          ) : (
            <Grafico semana={resumen.semana} />
          )}
          <div className="dos-columnas">
            <div>
              <h2>Pagos recientes</h2>
              {resumen.pagos_recientes.length === 0 ? (
                <p>
                  Aún no recibes pagos. <Link to="/links/nuevo">Crea un link</Link> y compártelo.
                </p>
              ) : (
                <ul className="lista-simple">
                  {resumen.pagos_recientes.map((p) => (
                    <li key={p.txn_id}>
                      {p.link_id === null ? (
                        (p.concepto ?? "Pago")
                      ) : (
                        <Link to={`/links/${p.link_id}`}>{p.concepto ?? "Sin concepto"}</Link>
                      )}{" "}
                      · {bolivares(p.total)} · {fechaHora(p.created_at)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h2>Liquidaciones</h2>
              {liquidaciones.length === 0 ? (
                <p>Sin liquidaciones todavía.</p>
              ) : (
                <ul className="lista-simple">
                  {liquidaciones.map((estado) => {
                    const l = resumen.liquidaciones[estado]
                    return (
                      <li key={estado}>
                        <span className={`estado estado-${liqClase(estado)}`}>{LIQ_LABEL[estado]}</span>{" "}
                        {l?.cantidad} · {bolivares(l?.neto ?? 0)}
                      </li>
                    )
                  })}
                </ul>
              )}
              <p>
                <Link to="/liquidaciones">Ver liquidaciones</Link>
              </p>
            </div>
          </div>
        </>
      )}
    </section>
  )
}
