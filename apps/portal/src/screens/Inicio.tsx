/** Inicio: the day's figures of the session's mode, from the links list. */
import type { Link as LinkData } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { bolivares, diaCaracas, fechaHora } from "../format.js"
import { ESTADO_LABEL, type Estado } from "../linkFilters.js"
import { Link } from "../router.js"

interface Figures {
  readonly abiertos: number
  readonly pagadosHoy: number
  readonly cobradoHoy: number
  readonly recientes: ReadonlyArray<LinkData>
}

const load = async (): Promise<Figures> => {
  const hoy = diaCaracas(new Date())
  const [abiertos, pagados, recientes] = await Promise.all([
    sw.links.list({ estado: "pendiente", limit: 200 }),
    sw.links.list({ estado: "pagado", desde: hoy, limit: 200 }),
    sw.links.list({ limit: 5 })
  ])
  return {
    abiertos: abiertos.length,
    pagadosHoy: pagados.length,
    cobradoHoy: pagados.reduce((sum, link) => sum + link.monto, 0),
    recientes
  }
}

export const Inicio = () => {
  const [figures, setFigures] = useState<Figures | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setFigures(null)
    load().then(setFigures, (e) => setError(errorText(e)))
  }, [])
  return (
    <section>
      <Title>Inicio</Title>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {figures === null ? (
        <p role="status">Cargando…</p>
      ) : (
        <>
          <dl className="cifras">
            <div>
              <dt>Cobrado hoy</dt>
              <dd>{bolivares(figures.cobradoHoy)}</dd>
            </div>
            <div>
              <dt>Links pagados hoy</dt>
              <dd>{figures.pagadosHoy}</dd>
            </div>
            <div>
              <dt>Links abiertos</dt>
              <dd>{figures.abiertos === 200 ? "200 o más" : figures.abiertos}</dd>
            </div>
          </dl>
          <h2>Últimos links</h2>
          {figures.recientes.length === 0 ? (
            <p>
              Aún no tienes links. <Link to="/links/nuevo">Crea el primero</Link>.
            </p>
          ) : (
            <ul className="lista-simple">
              {figures.recientes.map((link) => (
                <li key={link.id}>
                  <Link to={`/links/${link.id}`}>{link.concepto ?? "Sin concepto"}</Link> ·{" "}
                  {bolivares(link.monto)} · {ESTADO_LABEL[link.estado as Estado] ?? link.estado} ·{" "}
                  {fechaHora(link.created_at)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  )
}
