/** Home: the counts that need an operator. */
import { useEffect, useState } from "react"
import { fechaHora } from "../format.js"
import { errorText, request, type SesionOperador } from "./api.js"
import { Link, Title } from "./router.js"

interface Alerta {
  readonly id: number
  readonly tipo:
    | "cola_antigua"
    | "tasa_vencida"
    | "tasa_fuente_falla"
    | "tasa_salto_pendiente"
    | "webhook_fallando"
    | string
  readonly detalle: Record<string, unknown>
  readonly creada_en: string
}

const alertaTexto = (a: Alerta): string => {
  const d = a.detalle
  switch (a.tipo) {
    case "cola_antigua":
      return `Dinero en revisión sin resolver desde hace más de ${Math.round(Number(d.umbral_segundos) / 60)} min (${String(d.tipo)} ${String(d.id)}).`
    case "tasa_vencida":
      return `La tasa BCV tiene más de ${String(d.max_horas)} h o no existe: los cobros con límites en dólares se detienen.`
    case "tasa_fuente_falla":
      return `La fuente de la tasa BCV falla: ${String(d.motivo)}.`
    case "tasa_salto_pendiente":
      return `Una tasa BCV de Bs ${String(d.ves_por_usd)} por dólar (${String(d.salto_pct)} % lejos de la vigente) espera la confirmación de tesorería.`
    case "webhook_fallando":
      return `El webhook del comercio ${String(d.comercio)} (${String(d.host)}) está fallando.`
    default:
      return a.tipo
  }
}

interface Resumen {
  readonly comercios_pendientes: number
  readonly comercios_suspendidos: number
  readonly links_en_revision: number
  readonly liquidaciones_en_revision: number
}

export const Inicio = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [resumen, setResumen] = useState<Resumen | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [alertas, setAlertas] = useState<ReadonlyArray<Alerta> | null>(null)
  useEffect(() => {
    request<Resumen>("GET", "/resumen")
      .then(setResumen)
      .catch((e) => setError(errorText(e)))
    request<{ data: ReadonlyArray<Alerta> }>("GET", "/alertas")
      .then((page) => setAlertas(page.data))
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
      <h2>Alertas</h2>
      {alertas === null ? null : alertas.length === 0 ? (
        <p>Sin alertas abiertas.</p>
      ) : (
        <ul className="lista-simple" aria-label="Alertas abiertas">
          {alertas.map((a) => (
            <li key={a.id}>
              {alertaTexto(a)} <span className="nota">Desde {fechaHora(a.creada_en)}.</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
