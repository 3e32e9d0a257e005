/**
 * Tips in Configuración (issue 33): whether the payment page offers a tip and its cap, chosen by
 * the owner (up to 100 % of the charge; a tip is never more than Bs 100.000). Other roles read it.
 */
import type { PropinasConfig } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { useSesion } from "../context.js"
import { bolivares } from "../format.js"

export const Propinas = () => {
  const { sesion } = useSesion()
  const [actual, setActual] = useState<PropinasConfig | null>(null)
  const [acepta, setAcepta] = useState(false)
  const [pct, setPct] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const mostrar = useCallback((c: PropinasConfig) => {
    setActual(c)
    setAcepta(c.acepta)
    setPct(c.max_pct === null ? "" : String(c.max_pct).replace(".", ","))
  }, [])
  useEffect(() => {
    sw.config.propinas().then(mostrar, (e) => setError(errorText(e)))
  }, [mostrar])
  const propietario = sesion.usuario.rol === "propietario"

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso(null)
    const valor = Number(pct.trim().replace(",", "."))
    if (acepta && !(pct.trim() !== "" && valor > 0 && valor <= 100)) {
      setError("Escribe un tope de más de 0 y hasta 100 %.")
      return
    }
    try {
      const c = await sw.config.setPropinas(acepta ? { acepta, max_pct: valor } : { acepta })
      mostrar(c)
      setAviso(
        c.acepta ? "Listo: la página de pago ofrece propina." : "Listo: la página de pago no ofrece propina."
      )
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <section aria-labelledby="t-propinas">
      <h2 id="t-propinas">Propinas</h2>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {actual === null ? null : !propietario ? (
        <p>
          {actual.acepta
            ? `La página de pago ofrece propina de hasta ${String(actual.max_pct).replace(".", ",")} % del monto.`
            : "La página de pago no ofrece propina."}
        </p>
      ) : (
        <form onSubmit={submit} className="tarjeta angosta">
          <fieldset className="reembolso-parte">
            <legend>¿Tus clientes pueden dejar propina?</legend>
            <label>
              <input type="radio" name="acepta" checked={!acepta} onChange={() => setAcepta(false)} /> No
            </label>
            <label>
              <input type="radio" name="acepta" checked={acepta} onChange={() => setAcepta(true)} /> Sí
            </label>
          </fieldset>
          {!acepta ? null : (
            <div className="campo">
              <label htmlFor="propina-tope">Tope de la propina (% del monto, hasta 100)</label>
              <input
                id="propina-tope"
                inputMode="decimal"
                required
                value={pct}
                aria-describedby="propina-nota"
                onChange={(e) => setPct(e.target.value)}
              />
              <p id="propina-nota" className="nota">
                Una propina nunca pasa de {bolivares(actual.max_bs)}.
              </p>
            </div>
          )}
          <button type="submit">Guardar propinas</button>
        </form>
      )}
    </section>
  )
}
