/**
 * The opt-in daily summary mail in Configuración (issue 45): a switch only the owner sees,
 * saved as soon as it changes (`PUT /resumen-diario`). The mail comes each morning at 07:00
 * (Caracas) with yesterday's live-mode figures, to every owner; nothing on a day without activity.
 */
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { useSesion } from "../context.js"

const Interruptor = () => {
  const [activo, setActivo] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  useEffect(() => {
    sw.config.resumenDiario().then(
      (c) => setActivo(c.resumen_diario),
      (e) => setError(errorText(e))
    )
  }, [])

  const cambiar = async (valor: boolean) => {
    setError(null)
    setAviso("")
    setBusy(true)
    try {
      const c = await sw.config.setResumenDiario({ resumen_diario: valor })
      setActivo(c.resumen_diario)
      setAviso(
        c.resumen_diario
          ? "Listo: cada mañana recibirás el resumen del día anterior."
          : "Listo: ya no recibirás el resumen diario."
      )
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="t-resumen-diario">
      <h2 id="t-resumen-diario">Resumen diario por correo</h2>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso}
      </p>
      {activo === null ? null : (
        <div className="tarjeta angosta">
          <div className="resumen-diario">
            <input
              id="resumen-diario"
              type="checkbox"
              role="switch"
              aria-checked={activo}
              aria-describedby="resumen-diario-nota"
              checked={activo}
              disabled={busy}
              onChange={(e) => void cambiar(e.target.checked)}
            />
            <label htmlFor="resumen-diario">
              Resumen diario por correo ({activo ? "activado" : "desactivado"})
            </label>
          </div>
          <p id="resumen-diario-nota" className="nota">
            Cada mañana a las 7:00 (hora de Caracas) los propietarios reciben por correo el resumen del día
            anterior en modo live: links pagados, propinas, reembolsos y liquidaciones. Si no hubo movimiento,
            no se envía nada.
          </p>
        </div>
      )}
    </section>
  )
}

/** Only the owner chooses it (and only the owner may read it). */
export const ResumenDiario = () => {
  const { sesion } = useSesion()
  return sesion.usuario.rol === "propietario" ? <Interruptor /> : null
}
