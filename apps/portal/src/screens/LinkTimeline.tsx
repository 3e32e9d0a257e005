/**
 * A link's history in its detail (`GET /links/{id}/historial`): made, payment attempts, paid,
 * credited, expired, and every notice sent with its deliveries' state, oldest first.
 */
import type { LinkHistorial } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { bolivares, fechaHora } from "../format.js"
import { EntregaChip } from "./WebhookDetalle.js"

type Entrada = LinkHistorial["entradas"][number]

const INTENTO: Readonly<Record<string, string>> = {
  ENVIANDO: "en curso",
  APROBADA: "aprobado",
  LIQUIDADA: "aprobado",
  RECHAZADA: "rechazado",
  PROCESANDO: "en proceso"
}

/** What happened, in words a merchant reads. */
export const describir = (e: Entrada): string => {
  switch (e.tipo) {
    case "creado":
      return "Link creado"
    case "intento":
      return `Intento de pago ${INTENTO[e.estado ?? ""] ?? (e.estado ?? "").toLowerCase()}${e.detalle === null ? "" : `: ${e.detalle}`}`
    case "pagado":
      return "Pagado"
    case "acreditado":
      return e.monto === null ? "Acreditado en tu cuenta" : `Acreditado en tu cuenta: ${bolivares(e.monto)}`
    case "expirado":
      return "Venció sin pagarse"
    case "aviso":
      return `Aviso ${e.evento ?? ""} enviado`
    case "devuelto":
      return e.monto === null ? "Reembolsado al pagador" : `Reembolsado al pagador: ${bolivares(e.monto)}`
  }
}

export const LinkTimeline = ({ id, version }: { readonly id: string; readonly version: number }) => {
  const [historia, setHistoria] = useState<LinkHistorial | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    void version
    sw.links.historial(id).then(setHistoria, (e) => setError(errorText(e)))
  }, [id, version])
  return (
    <section aria-labelledby="t-historia" className="historia">
      <h2 id="t-historia">Historia</h2>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {historia === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <ol>
          {historia.entradas.map((e, i) => (
            <li key={`${e.tipo}-${e.evento_id ?? i}`} className={`paso paso-${e.tipo}`}>
              <time dateTime={e.fecha}>{fechaHora(e.fecha)}</time> <span>{describir(e)}</span>
              {e.tipo !== "aviso" ? null : e.entregas.length === 0 ? (
                <p className="nota">Ningún webhook lo recibe.</p>
              ) : (
                <ul>
                  {e.entregas.map((d) => (
                    <li key={d.id}>
                      <span className="url">{d.url}</span> <EntregaChip estado={d.estado} /> {d.intentos}{" "}
                      intento{d.intentos === 1 ? "" : "s"}
                      {d.codigo_http === null ? "" : ` · HTTP ${d.codigo_http}`}
                      {d.error === null ? "" : ` · ${d.error}`}
                      {d.proximo_intento === null ? "" : ` · próximo ${fechaHora(d.proximo_intento)}`}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
