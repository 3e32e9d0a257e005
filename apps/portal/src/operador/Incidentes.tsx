/**
 * Incidents by bank: open ones and those of the last 7 days, which /estado shows beside the
 * automatic status. `riesgo` and `tesoreria` open and close them; the server checks the role.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { fechaHora } from "../format.js"
import { errorText, request, type SesionOperador } from "./api.js"
import { useConfirmacion } from "./Confirmacion.js"
import { Title } from "./router.js"

interface Incidente {
  readonly id: string
  readonly banco: string
  readonly titulo: string
  readonly detalle: string | null
  readonly abierto_por: string
  readonly abierto_en: string
  readonly cerrado_por: string | null
  readonly cerrado_en: string | null
  readonly nota_cierre: string | null
}

export const Incidentes = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [data, setData] = useState<ReadonlyArray<Incidente> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const [form, setForm] = useState({ banco: "", titulo: "", detalle: "" })
  const actua = sesion.operador.rol === "riesgo" || sesion.operador.rol === "tesoreria"

  const load = useCallback(() => {
    request<{ data: ReadonlyArray<Incidente> }>("GET", "/incidentes")
      .then((page) => setData(page.data))
      .catch((e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])

  const abrir = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso("")
    try {
      await request("POST", "/incidentes", {
        banco: form.banco.trim(),
        titulo: form.titulo.trim(),
        ...(form.detalle.trim() === "" ? {} : { detalle: form.detalle.trim() })
      })
      setForm({ banco: "", titulo: "", detalle: "" })
      setAviso(`Incidente abierto para el banco ${form.banco.trim()}.`)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  const { preguntar, dialogo } = useConfirmacion()

  const cerrar = (i: Incidente) => async () => {
    const si = await preguntar({
      titulo: "¿Cerrar el incidente?",
      confirmar: "Sí, cerrar el incidente",
      texto: (
        <p>
          «{i.titulo}» (banco {i.banco}) deja de mostrarse en curso en la página de estado. Un incidente
          cerrado no se reabre: si el problema vuelve, abre uno nuevo.
        </p>
      )
    })
    if (!si) return
    setError(null)
    setAviso("")
    try {
      await request("POST", `/incidentes/${i.id}/cerrar`, {})
      setAviso(`Incidente del banco ${i.banco} cerrado.`)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <section>
      <Title>Incidentes</Title>
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {actua ? (
        <form onSubmit={abrir} aria-label="Abrir un incidente" className="acciones">
          <div className="campo">
            <label htmlFor="inc-banco">Código del banco (4 dígitos)</label>
            <input
              id="inc-banco"
              required
              inputMode="numeric"
              pattern="[0-9]{4}"
              value={form.banco}
              onChange={(e) => setForm({ ...form, banco: e.target.value })}
            />
          </div>
          <div className="campo">
            <label htmlFor="inc-titulo">Título</label>
            <input
              id="inc-titulo"
              required
              minLength={3}
              maxLength={140}
              value={form.titulo}
              onChange={(e) => setForm({ ...form, titulo: e.target.value })}
            />
          </div>
          <div className="campo">
            <label htmlFor="inc-detalle">Detalle</label>
            <input
              id="inc-detalle"
              value={form.detalle}
              onChange={(e) => setForm({ ...form, detalle: e.target.value })}
            />
          </div>
          <button type="submit">Abrir incidente</button>
        </form>
      ) : (
        <p className="nota">Tu rol ({sesion.operador.rol}) solo puede consultar.</p>
      )}
      {data === null ? (
        <p>Cargando…</p>
      ) : data.length === 0 ? (
        <p>Sin incidentes en los últimos 7 días.</p>
      ) : (
        <ul className="lista-simple comercios">
          {data.map((i) => (
            <li key={i.id}>
              <h2>
                Banco {i.banco}: {i.titulo}
              </h2>
              <p>
                {i.detalle ?? ""} Abierto por {i.abierto_por} el {fechaHora(i.abierto_en)}.{" "}
                {i.cerrado_en === null
                  ? "En curso."
                  : `Cerrado por ${i.cerrado_por ?? "—"} el ${fechaHora(i.cerrado_en)}.`}
              </p>
              {actua && i.cerrado_en === null ? (
                <button
                  type="button"
                  onClick={cerrar(i)}
                  aria-label={`Cerrar incidente del banco ${i.banco}: ${i.titulo}`}
                >
                  Cerrar incidente
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {dialogo}
    </section>
  )
}
