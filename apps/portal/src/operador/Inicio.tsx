/** Home: the counts that need an operator. */
import { useEffect, useState } from "react"
import { errorText, request, type SesionOperador } from "./api.js"
import { Link, Title } from "./router.js"

interface Resumen {
  readonly comercios_pendientes: number
  readonly comercios_suspendidos: number
  readonly links_en_revision: number
  readonly liquidaciones_en_revision: number
}

export const Inicio = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [resumen, setResumen] = useState<Resumen | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    request<Resumen>("GET", "/resumen")
      .then(setResumen)
      .catch((e) => setError(errorText(e)))
  }, [])
  return (
    <section>
      <Title>Inicio</Title>
      <p>
        Hola, {sesion.operador.email}. Tu rol es <strong>{sesion.operador.rol}</strong>
        {sesion.operador.rol === "soporte" ? ": puedes consultar, no aprobar ni cambiar." : "."}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {resumen === null ? (
        <p>Cargando…</p>
      ) : (
        <dl className="cifras">
          <div>
            <dt>Comercios esperando KYC</dt>
            <dd>
              <Link to="/comercios?estado=pendiente">{resumen.comercios_pendientes}</Link>
            </dd>
          </div>
          <div>
            <dt>Comercios suspendidos</dt>
            <dd>
              <Link to="/comercios?estado=suspendido">{resumen.comercios_suspendidos}</Link>
            </dd>
          </div>
          <div>
            <dt>Links en revisión</dt>
            <dd>
              <Link to="/revision">{resumen.links_en_revision}</Link>
            </dd>
          </div>
          <div>
            <dt>Liquidaciones en revisión</dt>
            <dd>
              <Link to="/revision">{resumen.liquidaciones_en_revision}</Link>
            </dd>
          </div>
        </dl>
      )}
    </section>
  )
}
