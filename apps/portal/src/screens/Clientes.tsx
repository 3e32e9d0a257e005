/**
 * Clientes: payers who chose to become the merchant's customers on a paid link, in the
 * session's mode, newest first, paged. The API never gives their id number, phone or name.
 */

import type { Cliente } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { fechaHora } from "../format.js"
import { Paginas } from "../Paginas.js"
import { navigate } from "../router.js"

const PAGE = 20

export const Clientes = ({ search }: { readonly search: string }) => {
  const pagina = Math.max(1, Math.trunc(Number(new URLSearchParams(search).get("pagina"))) || 1)
  const [rows, setRows] = useState<ReadonlyArray<Cliente> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setRows(null)
    setError(null)
    sw.clientes.list({ limit: PAGE + 1, offset: (pagina - 1) * PAGE }).then(
      (page) => setRows(page),
      (e) => setError(errorText(e))
    )
  }, [pagina])
  const shown = rows?.slice(0, PAGE) ?? []
  const more = (rows?.length ?? 0) > PAGE
  return (
    <section>
      <Title>Clientes</Title>
      <p className="nota">
        Pagadores que marcaron «hacerme cliente» al pagar un link. Switch no muestra su cédula, teléfono ni
        nombre.
      </p>
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
        <p>Aún no tienes clientes en este modo.</p>
      ) : (
        <table className="tabla">
          <caption className="oculto">Clientes, del más reciente al más antiguo</caption>
          <thead>
            <tr>
              <th scope="col">Cliente</th>
              <th scope="col">Desde</th>
              <th scope="col">Acepta novedades</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr key={c.id}>
                <td data-titulo="Cliente">
                  <code>{c.id.slice(0, 8)}</code>
                  {c.prueba ? <span className="nota"> (prueba)</span> : null}
                </td>
                <td data-titulo="Desde">{fechaHora(c.created_at)}</td>
                <td data-titulo="Acepta novedades">{c.acepta_novedades ? "Sí" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Paginas pagina={pagina} more={more} go={(n) => navigate(`/clientes?pagina=${n}`)} />
    </section>
  )
}
