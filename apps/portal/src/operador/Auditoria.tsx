/** The audit log, newest first, a page at a time, and its CSV export. */
import { useCallback, useEffect, useState } from "react"
import { API, errorText, type Auditoria as Fila, request } from "./api.js"
import { Title } from "./router.js"

const PAGE = 25

const compacto = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value))

export const Auditoria = () => {
  const [filas, setFilas] = useState<ReadonlyArray<Fila>>([])
  const [hayMas, setHayMas] = useState(false)
  const [cargando, setCargando] = useState(true)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback((after?: number) => {
    setCargando(true)
    request<{ data: ReadonlyArray<Fila>; has_more: boolean }>(
      "GET",
      `/auditoria?limit=${PAGE}${after === undefined ? "" : `&starting_after=${after}`}`
    )
      .then((page) => {
        setFilas((before) => (after === undefined ? page.data : [...before, ...page.data]))
        setHayMas(page.has_more)
      })
      .catch((e) => setError(errorText(e)))
      .finally(() => setCargando(false))
  }, [])
  useEffect(() => load(), [load])

  return (
    <section>
      <div className="titulo-con-accion">
        <Title>Auditoría</Title>
        <a className="boton" href={`${API}/auditoria.csv?limit=1000`} download="auditoria.csv">
          Exportar CSV
        </a>
      </div>
      <p className="nota">Cada acción de un operador queda aquí; nadie puede cambiarla ni borrarla.</p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard (axe scrollable-region-focusable) */}
      <section className="desplazable" aria-label="Tabla de auditoría" tabIndex={0}>
        <table className="tabla">
          <caption className="oculto">Acciones de operadores, la más reciente primero</caption>
          <thead>
            <tr>
              <th scope="col">Fecha</th>
              <th scope="col">Quién</th>
              <th scope="col">Acción</th>
              <th scope="col">Objeto</th>
              <th scope="col">Antes</th>
              <th scope="col">Después</th>
              <th scope="col">Nota</th>
            </tr>
          </thead>
          <tbody>
            {filas.map((f) => (
              <tr key={f.id}>
                <td>{new Date(f.created_at).toLocaleString("es-VE", { timeZone: "America/Caracas" })}</td>
                <td>{f.actor}</td>
                <td>{f.accion}</td>
                <td>
                  {f.objeto_tipo} <code>{f.objeto_id}</code>
                </td>
                <td className="json">{compacto(f.antes)}</td>
                <td className="json">{compacto(f.despues)}</td>
                <td>{f.nota ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {cargando ? <p>Cargando…</p> : null}
      {hayMas && !cargando ? (
        <button type="button" className="secundario" onClick={() => load(filas[filas.length - 1]?.id)}>
          Ver más
        </button>
      ) : null}
    </section>
  )
}
