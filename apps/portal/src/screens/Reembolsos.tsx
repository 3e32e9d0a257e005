/**
 * A paid link's refunds in its detail (issue 33, pilot): what the payer paid, what went back and
 * what is left, each refund with its state in words, and, for the owner, refunding all or part of
 * what is left with a reason. The service's `409`s are told in plain Spanish (`MOTIVOS`). Refunds
 * are a pilot: while it is off for the merchant (`habilitado` false) the form is not shown and a
 * note says why.
 */
import { type LinkReembolsos, type Reembolso, SwitchError } from "@switch/sdk"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { errorText, sw } from "../api.js"
import { useCambios } from "../cambios.js"
import { bolivares, fechaHora, parseBolivares } from "../format.js"

/** What the owner reads while the refunds pilot is off for the merchant. */
export const PILOTO_INACTIVO =
  "Los reembolsos desde el panel son un piloto que aún no está activo para tu comercio. Escríbenos para activarlo; mientras tanto puedes ver los reembolsos de tus links."

/** Why the service refused a refund, as the owner reads it. */
export const MOTIVOS: Readonly<Record<string, string>> = {
  cobro_no_confirmado_banco:
    "El banco todavía no confirma este pago. Podrás reembolsarlo cuando el link aparezca como pagado.",
  reintegro_en_curso: "Ya hay un reembolso de este pago en curso. Espera su resultado antes de hacer otro.",
  reintegro_intento_ambiguo:
    "El banco no dio una respuesta clara a un reembolso anterior. Nuestro equipo lo está revisando; no se volverá a enviar.",
  reintegro_ya_pagado: "Ya se devolvió todo lo que pagó el cliente.",
  cobro_ya_liquidado_al_comercio:
    "Este pago ya se transfirió (o se está transfiriendo) a tu cuenta con la liquidación inmediata: no puede reembolsarse desde aquí.",
  cobro_con_split_repartido:
    "El reparto de este pago ya pagó (o está pagando) a un beneficiario: no puede reembolsarse desde aquí.",
  reintegro_no_habilitado: PILOTO_INACTIVO
}

const motivoDe = (error: unknown): string =>
  error instanceof SwitchError && error.code !== undefined && MOTIVOS[error.code] !== undefined
    ? (MOTIVOS[error.code] ?? "")
    : errorText(error)

/** A refund's state in words. */
export const estadoReembolso = (r: Reembolso): string => {
  if (r.en_curso) return "En curso en el banco"
  switch (r.estado) {
    case "LIQUIDADA":
      return "Devuelto al cliente"
    case "RECHAZADA":
      return `Rechazado por el banco, no se movió dinero${r.motivo_rechazo === null ? "" : ` (${r.motivo_rechazo})`}`
    default:
      return "Sin respuesta clara del banco: en revisión por nuestro equipo"
  }
}

export const Reembolsos = ({
  linkId,
  puedeReembolsar,
  onCambio
}: {
  readonly linkId: string
  readonly puedeReembolsar: boolean
  readonly onCambio: () => void
}) => {
  const [datos, setDatos] = useState<LinkReembolsos | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [parte, setParte] = useState<"todo" | "parte">("todo")
  const [monto, setMonto] = useState("")
  const [motivo, setMotivo] = useState("")
  const [enviando, setEnviando] = useState(false)
  const [version, setVersion] = useState(0)
  // One key per refund the owner means: kept while the same request is retried, new after an answer.
  const clave = useRef(crypto.randomUUID())
  useEffect(() => {
    void version
    sw.links.reembolsos(linkId).then(setDatos, (e) => setError(errorText(e)))
  }, [linkId, version])
  useCambios(
    () => setVersion((v) => v + 1),
    (cambio) => cambio.link_id === linkId
  )

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (datos === null) return
    setError(null)
    setAviso(null)
    let cantidad: number | undefined
    if (parte === "parte") {
      cantidad = parseBolivares(monto)
      if (cantidad === undefined || cantidad <= 0) {
        setError("Escribe el monto a reembolsar en bolívares, por ejemplo 1.234,56.")
        return
      }
      if (datos.confirmado && cantidad > datos.disponible) {
        setError(`El monto supera lo que queda por devolver (${bolivares(datos.disponible)}).`)
        return
      }
    }
    const total = cantidad ?? (datos.confirmado ? datos.disponible : datos.monto_pagado)
    if (!window.confirm(`¿Reembolsar ${bolivares(total)} al cliente? El dinero sale de tu cuenta.`)) return
    setEnviando(true)
    try {
      const r = await sw.links.reembolsar(linkId, {
        ...(cantidad === undefined ? {} : { monto: cantidad }),
        motivo: motivo.trim(),
        idempotency_key: clave.current
      })
      setAviso(
        r.estado === "LIQUIDADA"
          ? `Se devolvieron ${bolivares(r.monto)} al cliente.`
          : r.estado === "RECHAZADA"
            ? "El banco rechazó el reembolso; no se movió dinero."
            : "El banco no dio una respuesta clara. Nuestro equipo lo revisará; no se enviará de nuevo."
      )
      setMonto("")
      setMotivo("")
      setParte("todo")
      clave.current = crypto.randomUUID()
    } catch (e) {
      setError(motivoDe(e))
      // A refusal ends this refund; with no answer (or a 5xx) a retry keeps the key, so it never refunds twice.
      if (e instanceof SwitchError && e.status !== undefined && e.status < 500)
        clave.current = crypto.randomUUID()
    } finally {
      setEnviando(false)
      setVersion((v) => v + 1)
      onCambio()
    }
  }

  return (
    <section aria-labelledby="t-reembolsos" className="reembolsos">
      <h2 id="t-reembolsos">Reembolsos</h2>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {datos === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <>
          <dl className="datos">
            <div>
              <dt>Pagó el cliente</dt>
              <dd>{bolivares(datos.monto_pagado)}</dd>
            </div>
            <div>
              <dt>Devuelto</dt>
              <dd>{bolivares(datos.monto_devuelto)}</dd>
            </div>
            <div>
              <dt>Queda por devolver</dt>
              <dd>{bolivares(datos.disponible)}</dd>
            </div>
          </dl>
          {datos.data.length === 0 ? (
            <p className="nota">Este link no tiene reembolsos.</p>
          ) : (
            <ul className="lista-reembolsos">
              {datos.data.map((r) => (
                <li key={r.id}>
                  <time dateTime={r.created_at}>{fechaHora(r.created_at)}</time> · {bolivares(r.monto)} ·{" "}
                  {r.motivo} ·{" "}
                  <span className={`reembolso-${r.estado.toLowerCase()}`}>{estadoReembolso(r)}</span>
                </li>
              ))}
            </ul>
          )}
          {datos.confirmado ? null : (
            <p className="nota">El banco todavía no confirma este pago: aún no puede reembolsarse.</p>
          )}
          {puedeReembolsar && !datos.habilitado ? (
            <p className="nota" id="reembolsos-piloto">
              {PILOTO_INACTIVO}
            </p>
          ) : null}
          {!puedeReembolsar ||
          !datos.habilitado ||
          (datos.confirmado ? datos.disponible : datos.monto_pagado) <= 0 ? null : (
            <form onSubmit={submit} className="tarjeta angosta">
              <fieldset className="reembolso-parte">
                <legend>¿Cuánto devolver?</legend>
                <label className="opcion">
                  <input
                    type="radio"
                    name="parte"
                    value="todo"
                    checked={parte === "todo"}
                    onChange={() => setParte("todo")}
                  />{" "}
                  Todo lo que queda ({bolivares(datos.confirmado ? datos.disponible : datos.monto_pagado)})
                </label>
                <label className="opcion">
                  <input
                    type="radio"
                    name="parte"
                    value="parte"
                    checked={parte === "parte"}
                    onChange={() => setParte("parte")}
                  />{" "}
                  Una parte
                </label>
              </fieldset>
              {parte !== "parte" ? null : (
                <div className="campo">
                  <label htmlFor="reembolso-monto">Monto a devolver (Bs)</label>
                  <input
                    id="reembolso-monto"
                    inputMode="decimal"
                    required
                    placeholder="1.234,56"
                    value={monto}
                    onChange={(e) => setMonto(e.target.value)}
                  />
                </div>
              )}
              <div className="campo">
                <label htmlFor="reembolso-motivo">Motivo</label>
                <input
                  id="reembolso-motivo"
                  required
                  minLength={3}
                  maxLength={200}
                  value={motivo}
                  onChange={(e) => setMotivo(e.target.value)}
                />
              </div>
              <button type="submit" className="peligro" disabled={enviando}>
                {enviando ? "Reembolsando…" : "Reembolsar"}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  )
}
