/**
 * The operators: everyone sees the list; `riesgo` deactivates, reactivates or resets the TOTP of
 * another operator. A reset shows no secret to anyone here: the operator concerned configures its
 * new authenticator itself at its next sign-in. The server checks the role and refuses an
 * operator acting on itself.
 */
import { useCallback, useEffect, useState } from "react"
import { fecha } from "../format.js"
import { errorText, request, type SesionOperador } from "./api.js"
import { type Pregunta, useConfirmacion } from "./Confirmacion.js"
import { Title } from "./router.js"

interface Operador {
  readonly id: string
  readonly email: string
  readonly rol: string
  readonly activo: boolean
  readonly totp_por_configurar: boolean
  readonly creado_en: string
}

export const Operadores = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [data, setData] = useState<ReadonlyArray<Operador> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const actua = sesion.operador.rol === "riesgo"

  const load = useCallback(() => {
    request<{ data: ReadonlyArray<Operador> }>("GET", "/operadores")
      .then((page) => setData(page.data))
      .catch((e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])

  const { preguntar, dialogo } = useConfirmacion()

  const act = (o: Operador, path: string, done: string, pregunta?: Pregunta) => async () => {
    if (pregunta !== undefined && !(await preguntar(pregunta))) return
    setError(null)
    setAviso("")
    try {
      await request<Operador>("POST", `/operadores/${o.id}/${path}`, {})
      setAviso(done)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <section>
      <Title>Operadores</Title>
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {data === null ? (
        <p>Cargando…</p>
      ) : (
        <ul className="lista-simple comercios">
          {data.map((o) => (
            <li key={o.id}>
              <h2>{o.email}</h2>
              <p>
                Rol {o.rol} · {o.activo ? "activo" : "desactivado"} · desde {fecha(o.creado_en)}
                {o.totp_por_configurar ? " · configurará su autenticador al entrar" : ""}
              </p>
              {actua && o.id !== sesion.operador.id ? (
                <div className="acciones">
                  {o.activo ? (
                    <button
                      type="button"
                      className="peligro"
                      aria-label={`Desactivar a ${o.email}`}
                      onClick={act(o, "desactivar", `${o.email} desactivado.`, {
                        titulo: `¿Desactivar a ${o.email}?`,
                        confirmar: "Sí, desactivar",
                        peligro: true,
                        texto: (
                          <p>
                            {o.email} (rol {o.rol}) no podrá entrar a la consola y su sesión abierta se cierra
                            ahora. Se puede reactivar después.
                          </p>
                        )
                      })}
                    >
                      Desactivar
                    </button>
                  ) : (
                    <button
                      type="button"
                      aria-label={`Reactivar a ${o.email}`}
                      onClick={act(o, "activar", `${o.email} reactivado.`)}
                    >
                      Reactivar
                    </button>
                  )}
                  <button
                    type="button"
                    aria-label={`Restablecer TOTP de ${o.email}`}
                    onClick={act(
                      o,
                      "restablecer-totp",
                      `TOTP de ${o.email} restablecido: configurará su autenticador nuevo al volver a entrar.`,
                      {
                        titulo: `¿Restablecer el TOTP de ${o.email}?`,
                        confirmar: "Sí, restablecer",
                        peligro: true,
                        texto: (
                          <p>
                            Su autenticador actual deja de servir y no se puede recuperar: al volver a entrar,{" "}
                            {o.email} configurará uno nuevo.
                          </p>
                        )
                      }
                    )}
                  >
                    Restablecer TOTP
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {dialogo}
    </section>
  )
}
