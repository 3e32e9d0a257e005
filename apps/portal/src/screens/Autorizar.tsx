/**
 * The OAuth consent screen (issue 34): an AI assistant asks to act on the merchant. The signed-in
 * user sees who asks (its name, and the host it sends the answer back to), chooses test or live
 * (live only when the server allows this user) and which of the asked permissions to give, or
 * refuses. Nothing an application is given can send, refund or withdraw money.
 */
import { type FormEvent, useEffect, useState } from "react"
import { Title } from "../context.js"
import { OAuthError, responder, type Solicitud, solicitud } from "./oauthApi.js"

export const Autorizar = ({ search }: { readonly search: string }) => {
  const query = search.replace(/^\?/, "")
  const [pedido, setPedido] = useState<Solicitud | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [modo, setModo] = useState<"test" | "live">("test")
  const [elegidos, setElegidos] = useState<ReadonlyArray<string>>([])
  const [enviando, setEnviando] = useState(false)

  useEffect(() => {
    solicitud(query).then(
      (answer) => {
        setPedido(answer)
        setElegidos(answer.alcances.filter((a) => a.permitido).map((a) => a.alcance))
      },
      (e) => setError(e instanceof OAuthError ? e.message : "No se pudo leer la solicitud.")
    )
  }, [query])

  const enviar = async (aprobar: boolean) => {
    setEnviando(true)
    setError(null)
    try {
      const { redirect_to } = await responder(
        aprobar ? { solicitud: query, aprobar, mode: modo, scopes: elegidos } : { solicitud: query, aprobar }
      )
      window.location.assign(redirect_to)
    } catch (e) {
      setError(e instanceof OAuthError ? e.message : "No se pudo completar. Intenta de nuevo.")
      setEnviando(false)
    }
  }
  const autorizar = (event: FormEvent) => {
    event.preventDefault()
    void enviar(true)
  }

  if (pedido === null)
    return (
      <section>
        <Title>Autorizar aplicación</Title>
        {error === null ? (
          <p role="status">Cargando la solicitud…</p>
        ) : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </section>
    )
  const { cliente } = pedido
  const liveOk = pedido.modos.includes("live")
  return (
    <section className="autorizar">
      <Title>Autorizar aplicación</Title>
      <div className="tarjeta angosta">
        <p>
          <strong>{cliente.nombre}</strong> quiere usar tu comercio <strong>{pedido.comercio}</strong>.
        </p>
        <p>
          Al terminar volverás a <strong className="host">{cliente.redirect_host}</strong>.{" "}
          {cliente.origen === "dcr"
            ? "La aplicación se registró a sí misma: continúa solo si la reconoces."
            : `La aplicación se identifica con ${cliente.client_id}.`}
        </p>
        <form onSubmit={autorizar}>
          <fieldset className="opciones">
            <legend>Modo</legend>
            <label>
              <input
                type="radio"
                name="modo"
                value="test"
                checked={modo === "test"}
                onChange={() => setModo("test")}
              />
              Prueba (sin dinero real)
            </label>
            <label>
              <input
                type="radio"
                name="modo"
                value="live"
                checked={modo === "live"}
                disabled={!liveOk}
                aria-describedby={liveOk ? undefined : "live-no"}
                onChange={() => setModo("live")}
              />
              Live (dinero real)
            </label>
            {liveOk ? null : (
              <p id="live-no" className="nota">
                Live solo lo autoriza el propietario de un comercio aprobado, con su segundo factor activo.
              </p>
            )}
          </fieldset>
          <fieldset className="opciones">
            <legend>Permisos</legend>
            {pedido.alcances.map((a) => (
              <label key={a.alcance}>
                <input
                  type="checkbox"
                  name="alcance"
                  value={a.alcance}
                  checked={elegidos.includes(a.alcance)}
                  disabled={!a.permitido}
                  onChange={(e) =>
                    setElegidos(
                      e.target.checked ? [...elegidos, a.alcance] : elegidos.filter((x) => x !== a.alcance)
                    )
                  }
                />
                {a.descripcion}
                {a.permitido ? null : " (tu rol no puede darlo)"}
              </label>
            ))}
          </fieldset>
          <p className="nota">La aplicación nunca podrá enviar, reembolsar ni retirar dinero.</p>
          {error === null ? null : (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <div className="acciones">
            <button type="submit" disabled={enviando || elegidos.length === 0}>
              Autorizar
            </button>
            <button
              type="button"
              className="secundario"
              disabled={enviando}
              onClick={() => void enviar(false)}
            >
              Cancelar
            </button>
          </div>
        </form>
      </div>
    </section>
  )
}
