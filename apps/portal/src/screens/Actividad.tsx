/**
 * Actividad: the users' audit log for the owner, newest first, 50 a page with "ver más"; each
 * entry a sentence (who did what to which object, actividadTexto.ts) linking to the object.
 */
import type { Actividad as Entrada } from "@switch/sdk"
import { useCallback, useEffect, useState } from "react"
import { frase } from "../actividadTexto.js"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"
import { Link } from "../router.js"

const PAGE = 50

/** One entry: «ana@tienda.com canceló el link 1a2b3c4d», then when, from where, and a refusal. */
const Linea = ({ e }: { readonly e: Entrada }) => {
  const f = frase(e)
  return (
    <li>
      <span>
        <strong>{e.usuario.email}</strong> {f.accion}
        {f.objeto === null ? null : (
          <> {f.enlace === null ? f.objeto : <Link to={f.enlace}>{f.objeto}</Link>}</>
        )}
        {f.rechazada ? <span className="error"> · no se hizo (error {e.resultado})</span> : null}
        <span className="nota">
          {" "}
          · {fechaHora(e.created_at)} · desde {e.ip}
        </span>
      </span>
    </li>
  )
}

export const Actividad = () => {
  const { sesion } = useSesion()
  const owner = sesion.usuario.rol === "propietario"
  const [entradas, setEntradas] = useState<ReadonlyArray<Entrada> | null>(null)
  const [mas, setMas] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async (after?: string) => {
    try {
      const page = await sw.actividad.list(
        after === undefined ? { limit: PAGE } : { limit: PAGE, starting_after: after }
      )
      setEntradas((before) => (after === undefined || before === null ? page : [...before, ...page]))
      setMas(page.length === PAGE)
    } catch (e) {
      setError(errorText(e))
    }
  }, [])
  useEffect(() => {
    if (owner) void load()
  }, [owner, load])
  if (!owner)
    return (
      <section>
        <Title>Actividad</Title>
        <p>Solo el propietario del comercio ve la actividad del equipo.</p>
      </section>
    )
  return (
    <section>
      <Title>Actividad</Title>
      <p className="nota">Lo que hizo cada usuario del panel, lo más reciente primero. Horas de Caracas.</p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {entradas === null ? (
        <p role="status">Cargando…</p>
      ) : entradas.length === 0 ? (
        <p>Aún no hay actividad.</p>
      ) : (
        <ul className="lista-simple">
          {entradas.map((e) => (
            <Linea key={e.id} e={e} />
          ))}
        </ul>
      )}
      {mas && entradas !== null ? (
        <button type="button" className="secundario" onClick={() => load(entradas[entradas.length - 1]?.id)}>
          Ver más
        </button>
      ) : null}
    </section>
  )
}
