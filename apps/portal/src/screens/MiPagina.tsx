/**
 * Mi página: the merchant's own payment page (`/p/<codigo>`), where a payer types the amount and
 * pays. The owner turns it on or off and sets the minimum, the maximum and whether the payer may
 * write a concept; every role sees its address and its QR for the counter.
 */
import type { MiPagina as Pagina } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { bolivares, fechaHora, parseBolivares } from "../format.js"

/** `10` as `10,00`: an amount as the merchant types it back. */
const escrito = (monto: number) => bolivares(monto).replace(/^Bs /, "")

const modo = (mode: "test" | "live") => (mode === "test" ? "prueba" : "live")

export const MiPagina = () => {
  const { sesion } = useSesion()
  const owner = sesion.usuario.rol === "propietario"
  const [pagina, setPagina] = useState<Pagina | null>(null)
  const [activa, setActiva] = useState(false)
  const [minimo, setMinimo] = useState("")
  const [maximo, setMaximo] = useState("")
  const [concepto, setConcepto] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [guardado, setGuardado] = useState<string | null>(null)
  const [enviando, setEnviando] = useState(false)

  const mostrar = useCallback((p: Pagina) => {
    setPagina(p)
    setActiva(p.activa)
    setMinimo(escrito(p.monto_min))
    setMaximo(escrito(p.monto_max))
    setConcepto(p.concepto_permitido)
  }, [])

  useEffect(() => {
    sw.miPagina.get().then(mostrar, (e) => setError(errorText(e)))
  }, [mostrar])

  const guardar = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setGuardado(null)
    const min = parseBolivares(minimo)
    const max = parseBolivares(maximo)
    if (min === undefined || min <= 0)
      return setError("Escribe el monto mínimo en bolívares, por ejemplo 10,00.")
    if (max === undefined || max <= 0)
      return setError("Escribe el monto máximo en bolívares, por ejemplo 5.000,00.")
    if (min > max) return setError("El monto mínimo no puede ser mayor que el máximo.")
    setEnviando(true)
    try {
      const p = await sw.miPagina.guardar({
        activa,
        monto_min: min,
        monto_max: max,
        concepto_permitido: concepto
      })
      mostrar(p)
      setGuardado(p.activa ? "Guardado: tu página está activa." : "Guardado: tu página está apagada.")
    } catch (e) {
      setError(errorText(e))
    } finally {
      setEnviando(false)
    }
  }

  const ruta = pagina === null ? "" : new URL(pagina.url).pathname
  return (
    <section>
      <Title>Mi página de pago</Title>
      <p className="nota">
        Una página pública donde tus clientes escriben el monto y pagan, sin que les envíes un link. Cada pago
        crea un link con origen «mi página», que ves en Links.
      </p>
      {pagina === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : (
          <p role="alert" className="error">
            {error}
          </p>
        )
      ) : (
        <div className="mi-pagina">
          <form className="tarjeta angosta" onSubmit={guardar} aria-labelledby="mi-pagina-ajustes">
            <h2 id="mi-pagina-ajustes">Ajustes</h2>
            {owner ? null : <p className="nota">Solo el propietario del comercio cambia estos ajustes.</p>}
            <fieldset disabled={!owner || enviando}>
              <legend className="oculto">Ajustes de la página</legend>
              <div className="casilla">
                <label>
                  <input type="checkbox" checked={activa} onChange={(e) => setActiva(e.target.checked)} />{" "}
                  Página activa (apagada, la dirección responde que no existe)
                </label>
              </div>
              <div className="campo">
                <label htmlFor="mp-minimo">Monto mínimo (Bs)</label>
                <input
                  id="mp-minimo"
                  inputMode="decimal"
                  required
                  value={minimo}
                  placeholder="10,00"
                  onChange={(e) => setMinimo(e.target.value)}
                />
              </div>
              <div className="campo">
                <label htmlFor="mp-maximo">Monto máximo (Bs)</label>
                <input
                  id="mp-maximo"
                  inputMode="decimal"
                  required
                  value={maximo}
                  placeholder="5.000,00"
                  onChange={(e) => setMaximo(e.target.value)}
                />
              </div>
              <div className="casilla">
                <label>
                  <input type="checkbox" checked={concepto} onChange={(e) => setConcepto(e.target.checked)} />{" "}
                  El cliente puede escribir un concepto (por ejemplo, su número de pedido)
                </label>
              </div>
              <p className="nota">
                Al guardar, la página cobrará en modo {modo(sesion.mode)}, el de esta sesión.
              </p>
              {owner ? (
                <button type="submit" className="primario">
                  {enviando ? "Guardando…" : "Guardar"}
                </button>
              ) : null}
            </fieldset>
            {error === null ? null : (
              <p role="alert" className="error">
                {error}
              </p>
            )}
            {guardado === null ? null : (
              <p role="status" className="aviso">
                {guardado}
              </p>
            )}
          </form>
          <div className="tarjeta angosta">
            <h2>Dirección y código QR</h2>
            <p>
              Estado: <strong>{pagina.activa ? "activa" : "apagada"}</strong>, cobra en modo{" "}
              <strong>{modo(pagina.mode)}</strong>, de {bolivares(pagina.monto_min)} a{" "}
              {bolivares(pagina.monto_max)}.
              {pagina.updated_at === null ? null : <> Último cambio: {fechaHora(pagina.updated_at)}</>}
            </p>
            {pagina.mode === sesion.mode ? null : (
              <p className="nota">
                Estás en modo {modo(sesion.mode)}, pero la página cobra en modo {modo(pagina.mode)}. Guarda
                los ajustes para que cobre en modo {modo(sesion.mode)}.
              </p>
            )}
            <p>
              <a href={pagina.url} target="_blank" rel="noreferrer" id="mp-url">
                {pagina.url}
              </a>
            </p>
            <img
              className="qr"
              src={`${ruta}/qr.png`}
              width={232}
              height={232}
              alt={`Código QR de tu página de pago, que lleva a ${pagina.url}`}
            />
            <p>
              <a href={`${ruta}/qr.png`} download={`qr-${sesion.comercio.codigo}.png`}>
                Descargar el código QR (PNG) para imprimirlo
              </a>
            </p>
          </div>
        </div>
      )}
    </section>
  )
}
