/**
 * "Aplicaciones conectadas" (issue 34): the AI assistants a user of the merchant authorized,
 * each with its mode, permissions, who authorized it and its last use; revoking one ends its
 * access at once (the server checks every token against Postgres). The owner sees every user's;
 * other roles their own.
 */
import { useCallback, useEffect, useState } from "react"
import { Title } from "../context.js"
import { fechaHora } from "../format.js"
import { type Concesion, concesiones, OAuthError, revocar } from "./oauthApi.js"

const PERMISOS: Readonly<Record<string, string>> = {
  "links:read": "ver links",
  "links:write": "crear y cancelar links",
  "transacciones:read": "consultar transacciones",
  "liquidaciones:read": "ver liquidaciones",
  "bancos:read": "ver bancos"
}

export const Aplicaciones = () => {
  const [lista, setLista] = useState<ReadonlyArray<Concesion> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const load = useCallback(() => {
    concesiones().then(setLista, (e) => setError(e instanceof OAuthError ? e.message : "No se pudo cargar."))
  }, [])
  useEffect(load, [load])
  const quitar = async (c: Concesion) => {
    if (!window.confirm(`¿Revocar el acceso de ${c.nombre}? Deja de funcionar en el acto.`)) return
    setError(null)
    try {
      await revocar(c.id)
      setAviso(`${c.nombre} ya no tiene acceso.`)
      load()
    } catch (e) {
      setError(e instanceof OAuthError ? e.message : "No se pudo revocar.")
    }
  }
  return (
    <section>
      <Title>Aplicaciones conectadas</Title>
      <p className="nota">
        Asistentes de IA a los que diste acceso. Ninguno puede enviar, reembolsar ni retirar dinero.
      </p>
      <p className="aviso" role="status">
        {aviso ?? ""}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {lista === null ? (
        <p role="status">Cargando…</p>
      ) : lista.length === 0 ? (
        <p>No hay aplicaciones conectadas.</p>
      ) : (
        <ul className="aplicaciones">
          {lista.map((c) => (
            <li key={c.id} className="tarjeta">
              <h2>{c.nombre}</h2>
              <dl>
                <dt>Vuelve a</dt>
                <dd>{c.redirect_host}</dd>
                <dt>Modo</dt>
                <dd>{c.mode === "live" ? "Live" : "Prueba"}</dd>
                <dt>Permisos</dt>
                <dd>{c.scopes.map((s) => PERMISOS[s] ?? s).join(", ")}</dd>
                <dt>Autorizada por</dt>
                <dd>
                  {c.usuario_email}, {fechaHora(c.created_at)}
                </dd>
                <dt>Último uso</dt>
                <dd>{c.last_used_at === null ? "Nunca" : fechaHora(c.last_used_at)}</dd>
              </dl>
              <button type="button" className="peligro" onClick={() => void quitar(c)}>
                Revocar acceso de {c.nombre}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
