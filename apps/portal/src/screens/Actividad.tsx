/** Actividad: the users' audit log for the owner, newest first, 50 a page with "ver más". */
import type { Actividad as Entrada } from "@switch/sdk"
import { useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"

const PAGE = 50

const ACCIONES: Readonly<Record<string, string>> = {
  ingreso: "Inició sesión",
  ingreso_fallido: "Intento de ingreso fallido",
  ingreso_fallido_codigo: "Código de ingreso errado",
  ingreso_bloqueado: "Ingreso bloqueado por intentos",
  POST: "Creó o ejecutó",
  PUT: "Reemplazó",
  PATCH: "Cambió",
  DELETE: "Eliminó o cerró"
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
            <li key={e.id}>
              <span>
                <strong>{ACCIONES[e.accion] ?? e.accion}</strong>
                {e.objeto === null ? null : (
                  <>
                    {" "}
                    <code className="url">{e.objeto}</code>
                  </>
                )}{" "}
                · {e.usuario.email} · {fechaHora(e.created_at)} · desde {e.ip} · resultado {e.resultado}
              </span>
            </li>
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
