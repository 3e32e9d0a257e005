/**
 * Desarrolladores › a webhook: edit its url, events and state (`PATCH /webhooks/{id}`, with the
 * session in either mode, as SPEC lets the portal), test it, and its last 50 deliveries (state,
 * attempts, next attempt, error) with "Reenviar" (`POST /eventos/{id}/reenviar`).
 */
import type { Webhook, WebhookDelivery } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"
import { Link } from "../router.js"
import { TIPOS } from "./Eventos.js"

const ENTREGA_LABEL: Readonly<Record<WebhookDelivery["estado"], string>> = {
  pendiente: "Pendiente",
  enviando: "Enviando",
  entregado: "Entregado",
  fallido: "Fallido",
  cancelado: "Cancelado"
}

export const EntregaChip = ({ estado }: { readonly estado: WebhookDelivery["estado"] }) => (
  <span className={`estado entrega-${estado}`}>{ENTREGA_LABEL[estado] ?? estado}</span>
)

const TODOS = [...TIPOS, "webhook.test"] as const

const Editar = ({ hook, onSaved }: { readonly hook: Webhook; readonly onSaved: (hook: Webhook) => void }) => {
  const [url, setUrl] = useState(hook.url)
  const [todos, setTodos] = useState(hook.eventos.includes("*"))
  const [eventos, setEventos] = useState<ReadonlyArray<string>>(hook.eventos.filter((e) => e !== "*"))
  const [estado, setEstado] = useState(hook.estado)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const toggle = (evento: string, on: boolean) =>
    setEventos((old) => (on ? [...old.filter((e) => e !== evento), evento] : old.filter((e) => e !== evento)))
  const guardar = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso(null)
    const elegidos = todos ? ["*"] : eventos
    if (elegidos.length === 0) {
      setError("Elige al menos un evento, o todos.")
      return
    }
    setBusy(true)
    try {
      const saved = await sw.webhooks.update(hook.id, {
        url,
        eventos: elegidos as Array<(typeof TODOS)[number] | "*">,
        estado
      })
      onSaved(saved)
      setAviso("Cambios guardados.")
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={guardar} className="tarjeta" aria-labelledby="t-editar">
      <h2 id="t-editar">Editar</h2>
      <div className="campo">
        <label htmlFor="wh-url">URL del webhook</label>
        <input id="wh-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <fieldset className="eventos">
        <legend>Eventos que recibe</legend>
        <label>
          <input type="checkbox" checked={todos} onChange={(e) => setTodos(e.target.checked)} /> Todos (*)
        </label>
        {TODOS.map((evento) => (
          <label key={evento}>
            <input
              type="checkbox"
              disabled={todos}
              checked={todos || eventos.includes(evento)}
              onChange={(e) => toggle(evento, e.target.checked)}
            />{" "}
            <code>{evento}</code>
          </label>
        ))}
      </fieldset>
      <div className="campo">
        <label htmlFor="wh-estado">Estado</label>
        <select
          id="wh-estado"
          value={estado}
          onChange={(e) => setEstado(e.target.value as Webhook["estado"])}
        >
          <option value="activo">Activo</option>
          <option value="inactivo">Inactivo (no recibe avisos)</option>
        </select>
      </div>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      <button type="submit" disabled={busy}>
        {busy ? "Guardando…" : "Guardar cambios"}
      </button>
    </form>
  )
}

const Entregas = ({ id }: { readonly id: string }) => {
  const [rows, setRows] = useState<ReadonlyArray<WebhookDelivery> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const load = useCallback(() => {
    sw.webhooks.deliveries(id).then(setRows, (e) => setError(errorText(e)))
  }, [id])
  useEffect(load, [load])
  const run = async (action: () => Promise<string>) => {
    setError(null)
    setAviso(null)
    try {
      setAviso(await action())
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  const probar = () =>
    run(async () => {
      const entrega = await sw.webhooks.probar(id)
      return `Aviso de prueba: ${ENTREGA_LABEL[entrega.estado].toLowerCase()}.`
    })
  const reenviar = (entrega: WebhookDelivery) =>
    run(async () => {
      const hechas = await sw.eventos.reenviar(entrega.evento_id)
      const mia = hechas.find((d) => d.webhook_id === id)
      return mia === undefined
        ? "Este webhook ya no recibe ese aviso (inactivo o sin ese evento)."
        : `Aviso ${entrega.evento} reenviado: ${ENTREGA_LABEL[mia.estado].toLowerCase()}.`
    })
  return (
    <section aria-labelledby="t-entregas">
      <div className="titulo-con-accion">
        <h2 id="t-entregas">Últimas entregas</h2>
        <button type="button" className="secundario" onClick={probar}>
          Probar
        </button>
      </div>
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rows === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : rows.length === 0 ? (
        <p>Aún no hay entregas. Usa «Probar» para enviar un aviso de prueba.</p>
      ) : (
        <table className="tabla">
          <caption className="oculto">Últimas 50 entregas, de la más reciente a la más antigua</caption>
          <thead>
            <tr>
              <th scope="col">Aviso</th>
              <th scope="col">Estado</th>
              <th scope="col">Intentos</th>
              <th scope="col">Próximo intento</th>
              <th scope="col">Respuesta</th>
              <th scope="col">Creada</th>
              <th scope="col">Acción</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entrega) => (
              <tr key={entrega.id}>
                <td data-titulo="Aviso">
                  <code>{entrega.evento}</code>
                </td>
                <td data-titulo="Estado">
                  <EntregaChip estado={entrega.estado} />
                </td>
                <td data-titulo="Intentos">{entrega.intentos}</td>
                <td data-titulo="Próximo intento">
                  {entrega.proximo_intento === null ? "—" : fechaHora(entrega.proximo_intento)}
                </td>
                <td data-titulo="Respuesta">
                  {entrega.error === null
                    ? entrega.codigo_http === null
                      ? "—"
                      : `HTTP ${entrega.codigo_http}`
                    : `${entrega.codigo_http === null ? "" : `HTTP ${entrega.codigo_http}: `}${entrega.error}`}
                </td>
                <td data-titulo="Creada">{fechaHora(entrega.created_at)}</td>
                <td data-titulo="Acción">
                  <button type="button" className="secundario" onClick={() => reenviar(entrega)}>
                    Reenviar{" "}
                    <span className="oculto">{`${entrega.evento} ${fechaHora(entrega.created_at)}`}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

export const WebhookDetalle = ({ id }: { readonly id: string }) => {
  const { sesion } = useSesion()
  const [hook, setHook] = useState<Webhook | null>(null)
  const [error, setError] = useState<string | null>(null)
  const propietario = sesion.usuario.rol === "propietario"
  useEffect(() => {
    if (propietario) sw.webhooks.get(id).then(setHook, (e) => setError(errorText(e)))
  }, [id, propietario])
  if (!propietario)
    return (
      <section>
        <Title>Webhook</Title>
        <p>Solo el propietario del comercio gestiona los webhooks.</p>
      </section>
    )
  return (
    <section>
      <Title>Webhook</Title>
      <p>
        <Link to="/desarrolladores">← Volver a Desarrolladores</Link>
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {hook === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <>
          <p className="url">{hook.url}</p>
          <Editar hook={hook} onSaved={setHook} />
          <Entregas id={hook.id} />
        </>
      )}
    </section>
  )
}
