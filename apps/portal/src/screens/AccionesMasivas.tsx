/**
 * Acciones masivas: the owner cancels the open links, exports them as CSV, or resends each
 * one's last notice, among up to 5,000
 * chosen by the Links screen's filters (carried in the address), not only ticked rows. The
 * screen says how many links the filters choose (`GET /links/total`) and which filters they are,
 * or plainly that without filters every link of the mode is chosen; no action is chosen until the
 * owner picks one, and it runs only once the owner types that count. The action runs on the
 * server as a durable job; the screen follows its progress and shows its summary: how many were
 * done, how many skipped and why.
 */
import type { AccionMasiva } from "@switch/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { bolivares, fechaHora, miles } from "../format.js"
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
  // The order only sorts the list: it chooses nothing.
  const { limit: _l, offset: _o, orden: _d, ...params } = toListParams({ ...fromSearch(search), pagina: 1 })
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
}

type Accion = "cancelar" | "exportar" | "reenviar"

/** The most links one action takes (SPEC: bulk actions in the portal, up to 5,000 per action). */
const MAX = 5000

/** Whether what the owner typed is `total` (digits only: «1.234» and «1234» both read 1234). */
export const confirma = (typed: string, total: number): boolean => {
  const digits = typed.replace(/[.\s]/g, "")
  return /^\d+$/.test(digits) && Number(digits) === total
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
  // No action until the owner picks one: nothing is cancelled by leaving a default.
  const [accion, setAccion] = useState<Accion | null>(null)
  const [total, setTotal] = useState<number | null>(null)
  const [confirmacion, setConfirmacion] = useState("")
  const [actual, setActual] = useState<AccionMasiva | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [enviando, setEnviando] = useState(false)

  const enCurso = actual !== null && actual.estado !== "terminada"
  const clave = JSON.stringify(filtros)
  useEffect(() => {
    setTotal(null)
    sw.links.total(JSON.parse(clave)).then(
      (r) => setTotal(r.total),
      (e) => setError(errorText(e))
    )
  }, [clave])
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

  const listo =
    accion !== null && total !== null && total > 0 && total <= MAX && confirma(confirmacion, total)
  const ejecutar = async (event: FormEvent) => {
    event.preventDefault()
    if (!listo || accion === null || total === null) return
    setError(null)
    setEnviando(true)
    try {
      setActual(await sw.accionesMasivas.crear({ accion, filtros, confirmar_total: total }))
      setConfirmacion("")
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
    filters.origen === "" ? null : `origen ${ORIGEN[filters.origen] ?? filters.origen}`,
    filtros.min === undefined ? null : `monto desde ${bolivares(Number(filtros.min))}`,
    filtros.max === undefined ? null : `monto hasta ${bolivares(Number(filtros.max))}`
  ].filter((d): d is string => d !== null)
  const omitidos = Object.entries(actual?.omitidos ?? {})
  const modo = sesion.mode === "test" ? "prueba" : "live"
  const cuantos = total === null ? "…" : `${miles(total)} ${total === 1 ? "link" : "links"}`
  return (
    <section>
      <Title>Acciones masivas</Title>
      <section className="tarjeta angosta" aria-labelledby="am-eleccion">
        <h2 id="am-eleccion">Links elegidos</h2>
        <p role="status" id="am-total">
          {total === null ? (
            "Contando los links…"
          ) : (
            <>
              <strong>{cuantos}</strong> del modo {modo}
            </>
          )}
        </p>
        {descripcion.length === 0 ? (
          <p className="aviso-fuerte" id="am-filtros">
            <strong>Sin filtros:</strong> la acción toma <strong>todos los links del modo {modo}</strong>.
          </p>
        ) : (
          <>
            <p id="am-filtros">Con estos filtros:</p>
            <ul>
              {descripcion.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          </>
        )}
        {total !== null && total > MAX ? (
          <p className="error">
            Son más de {miles(MAX)}: una acción toma hasta {miles(MAX)} links. Acota los filtros.
          </p>
        ) : null}
        <p>
          <Link to={`/links${toSearch({ ...filters, pagina: 1 })}`}>Cambiar los filtros en Links</Link>
        </p>
      </section>
      <form className="tarjeta angosta" onSubmit={ejecutar} aria-labelledby="am-titulo">
        <h2 id="am-titulo">Acción</h2>
        <fieldset className="acciones-masivas" disabled={enviando || enCurso}>
          <legend>Qué hacer con los {cuantos} (elige una)</legend>
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
          {accion === null || total === null || total === 0 || total > MAX ? null : (
            <div className="campo">
              <label htmlFor="am-confirmacion">
                Para confirmar, escribe cuántos links son: {miles(total)}
              </label>
              <input
                id="am-confirmacion"
                inputMode="numeric"
                autoComplete="off"
                value={confirmacion}
                aria-describedby="am-confirmacion-ayuda"
                onChange={(e) => setConfirmacion(e.target.value)}
              />
              <small id="am-confirmacion-ayuda" className="nota">
                {confirmacion === "" || confirma(confirmacion, total)
                  ? "El botón se activa cuando la cantidad coincide."
                  : "La cantidad no coincide."}
              </small>
            </div>
          )}
          {total === 0 ? <p>Ningún link cumple estos filtros: no hay nada que hacer.</p> : null}
          <button type="submit" className="primario" disabled={!listo}>
            {enviando
              ? "Enviando…"
              : accion === null
                ? "Elige una acción"
                : `${TITULO[accion]} de ${cuantos}`}
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
