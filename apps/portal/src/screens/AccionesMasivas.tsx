/**
 * Acciones masivas: the owner cancels the open links, exports them as CSV, or resends each
 * one's last notice, among up to 5,000
 * chosen by the Links screen's filters (carried in the address), not only ticked rows. The
 * action runs on the server as a durable job; the screen follows its progress and shows its
 * summary: how many were done, how many skipped and why.
 */
import type { AccionMasiva } from "@switch/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"
import { ESTADO_LABEL, type Estado, estadoLabel, fromSearch, toListParams, toSearch } from "../linkFilters.js"
import { Link } from "../router.js"

const ORIGEN: Readonly<Record<string, string>> = {
  api: "API",
  panel: "Panel",
  mi_pagina: "Mi página",
  boton: "Botón de pago",
  whatsapp: "WhatsApp"
}

/** The `GET /links` filters of the address, as the action's `filtros` (texts, no paging). */
export const filtrosDe = (search: string): Record<string, string> => {
  const { limit: _l, offset: _o, ...params } = toListParams({ ...fromSearch(search), pagina: 1 })
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
}

const TITULO = { cancelar: "Cancelación", exportar: "Exportación", reenviar: "Reenvío de avisos" } as const
const HECHOS = { cancelar: "Cancelados", exportar: "Exportados", reenviar: "Avisos reenviados" } as const

const MOTIVOS: Readonly<Record<string, string>> = {
  sin_aviso: "no tener ningún aviso",
  sin_webhook: "no tener un webhook activo que lo reciba",
  no_encontrado: "no existir"
}

const motivo = (razon: string) =>
  MOTIVOS[razon] ?? `estar ${(ESTADO_LABEL[razon as Estado] ?? razon).toLowerCase()}`

export const AccionesMasivas = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const filters = fromSearch(search)
  const filtros = filtrosDe(search)
  const [accion, setAccion] = useState<"cancelar" | "exportar" | "reenviar">("cancelar")
  const [actual, setActual] = useState<AccionMasiva | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [enviando, setEnviando] = useState(false)

  const enCurso = actual !== null && actual.estado !== "terminada"
  useEffect(() => {
    if (actual === null || actual.estado === "terminada") return
    const timer = setTimeout(() => {
      sw.accionesMasivas.get(actual.id).then(setActual, (e) => setError(errorText(e)))
    }, 400)
    return () => clearTimeout(timer)
  }, [actual])

  if (sesion.usuario.rol !== "propietario")
    return (
      <section>
        <Title>Acciones masivas</Title>
        <p>Solo el propietario del comercio hace acciones masivas.</p>
      </section>
    )

  const ejecutar = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setEnviando(true)
    try {
      setActual(await sw.accionesMasivas.crear({ accion, filtros }))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setEnviando(false)
    }
  }

  const descripcion = [
    filters.estado === "" ? null : `estado ${estadoLabel(filters.estado)}`,
    filters.q.trim() === "" ? null : `«${filters.q.trim()}» en el concepto o la referencia`,
    filters.desde === "" ? null : `desde el ${filters.desde.split("-").reverse().join("/")}`,
    filters.hasta === "" ? null : `hasta el ${filters.hasta.split("-").reverse().join("/")}`,
    filters.origen === "" ? null : `origen ${ORIGEN[filters.origen] ?? filters.origen}`
  ].filter((d): d is string => d !== null)
  const omitidos = Object.entries(actual?.omitidos ?? {})
  return (
    <section>
      <Title>Acciones masivas</Title>
      <p>
        Links elegidos:{" "}
        <strong>
          {descripcion.length === 0
            ? "todos los del modo actual"
            : `los del modo actual con ${descripcion.join(", ")}`}
        </strong>{" "}
        (hasta 5.000).{" "}
        <Link to={`/links${toSearch({ ...filters, pagina: 1 })}`}>Cambiar los filtros en Links</Link>
      </p>
      <form className="tarjeta angosta" onSubmit={ejecutar} aria-labelledby="am-titulo">
        <h2 id="am-titulo">Acción</h2>
        <fieldset className="acciones-masivas" disabled={enviando || enCurso}>
          <legend className="oculto">Qué hacer con los links elegidos</legend>
          <label className="opcion-masiva">
            <input
              type="radio"
              name="accion"
              value="cancelar"
              checked={accion === "cancelar"}
              onChange={() => setAccion("cancelar")}
            />{" "}
            Cancelar los abiertos (los que ya se están cobrando o se pagaron no se tocan)
          </label>
          <label className="opcion-masiva">
            <input
              type="radio"
              name="accion"
              value="exportar"
              checked={accion === "exportar"}
              onChange={() => setAccion("exportar")}
            />{" "}
            Exportar a un archivo CSV
          </label>
          <label className="opcion-masiva">
            <input
              type="radio"
              name="accion"
              value="reenviar"
              checked={accion === "reenviar"}
              onChange={() => setAccion("reenviar")}
            />{" "}
            Reenviar el último aviso de cada link a tus webhooks
          </label>
          <button type="submit" className="primario">
            {enviando ? "Enviando…" : "Ejecutar"}
          </button>
        </fieldset>
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
      {actual === null ? null : (
        <div className="tarjeta angosta resumen-masivo">
          <h2>{TITULO[actual.accion]}</h2>
          <label htmlFor="am-avance">Avance</label>
          <progress id="am-avance" max={actual.total} value={actual.procesados}>
            {actual.procesados} de {actual.total}
          </progress>
          <p role="status" aria-live="polite">
            {actual.estado === "terminada"
              ? `Terminada: ${actual.procesados} de ${actual.total} links revisados.`
              : actual.estado === "en_cola"
                ? "En cola: empieza en un momento."
                : `En curso: ${actual.procesados} de ${actual.total} links revisados.`}
          </p>
          {actual.estado !== "terminada" ? null : (
            <dl className="datos" id="am-resumen">
              <div>
                <dt>{HECHOS[actual.accion]}</dt>
                <dd id="am-hechos">{actual.hechos}</dd>
              </div>
              <div>
                <dt>Omitidos</dt>
                <dd id="am-omitidos">
                  {omitidos.length === 0
                    ? "Ninguno"
                    : omitidos.map(([razon, n]) => `${n} por ${motivo(razon)}`).join(", ")}
                </dd>
              </div>
              {actual.terminada_at === null ? null : (
                <div>
                  <dt>Terminó</dt>
                  <dd>{fechaHora(actual.terminada_at)}</dd>
                </div>
              )}
            </dl>
          )}
          {actual.archivo === null ? null : (
            <p>
              <a href={actual.archivo} download>
                Descargar el CSV ({actual.hechos} links)
              </a>
            </p>
          )}
        </div>
      )}
    </section>
  )
}
