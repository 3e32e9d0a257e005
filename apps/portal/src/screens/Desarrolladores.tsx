/**
 * Desarrolladores: API keys (create and roll, the new key shown once; revoke) and webhooks
 * (create, test, delete).
 */
import type { Llave, Webhook } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"
import { Link } from "../router.js"

/** The overlaps a roll offers, in hours (SPEC's key roll allows 0 to 7 days). */
const SOLAPAMIENTOS: ReadonlyArray<readonly [number, string]> = [
  [0, "Ninguno: la anterior deja de funcionar ya"],
  [1, "1 hora"],
  [24, "24 horas"],
  [72, "3 días"],
  [168, "7 días (máximo)"]
]

/** What a key's line says of its state: revoked, rolled (until when) or in force. */
const estadoLlave = (llave: Llave, now: number) => {
  if (llave.revoked_at !== null) return " · revocada"
  if (llave.expira_at === null) return ""
  return Date.parse(llave.expira_at) > now
    ? ` · rotada: funciona hasta el ${fechaHora(llave.expira_at)}`
    : ` · rotada: venció el ${fechaHora(llave.expira_at)}`
}

/** The roll form of one key: the overlap, then the roll. */
const Rotar = ({ llave, onRotada }: { llave: Llave; onRotada: (key: string) => void }) => {
  const { sesion } = useSesion()
  const [horas, setHoras] = useState(24)
  const [error, setError] = useState<string | null>(null)
  const id = `rotar-${llave.id}`
  const rotar = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    try {
      const made = await sw.llaves.roll(llave.id, { solapamiento_horas: horas })
      onRotada(`${sesion.comercio.codigo}:${made.api_key}`)
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <form onSubmit={rotar} className="en-linea" aria-label={`Rotar la llave ${llave.label}`}>
      <div className="campo">
        <label htmlFor={id}>La llave anterior sigue funcionando</label>
        <select id={id} value={horas} onChange={(e) => setHoras(Number(e.target.value))}>
          {SOLAPAMIENTOS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">
        Rotar ahora <span className="oculto">{llave.label}</span>
      </button>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}

const Llaves = () => {
  const { sesion } = useSesion()
  const [llaves, setLlaves] = useState<ReadonlyArray<Llave> | null>(null)
  const [label, setLabel] = useState("")
  const [nueva, setNueva] = useState<string | null>(null)
  const [rotando, setRotando] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => {
    sw.llaves.list().then(setLlaves, (e) => setError(errorText(e)))
  }, [])
  const rotada = (key: string) => {
    setNueva(key)
    setRotando(null)
    load()
  }
  useEffect(load, [load])
  const crear = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    try {
      const made = await sw.llaves.create({ label, mode: sesion.mode })
      setNueva(`${sesion.comercio.codigo}:${made.api_key}`)
      setLabel("")
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  const revocar = async (llave: Llave) => {
    if (!window.confirm(`¿Revocar la llave «${llave.label}»? Lo que la use dejará de funcionar.`)) return
    try {
      await sw.llaves.revoke(llave.id)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <section aria-labelledby="t-llaves">
      <h2 id="t-llaves">Llaves de la API ({sesion.mode === "test" ? "prueba" : "live"})</h2>
      <form onSubmit={crear} className="en-linea">
        <div className="campo">
          <label htmlFor="llave-label">Nombre de la llave nueva</label>
          <input
            id="llave-label"
            required
            maxLength={64}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <button type="submit">Crear llave</button>
      </form>
      {nueva === null ? null : (
        <div className="aviso" role="status">
          <p>
            Tu llave nueva (encabezado <code>x-switch-key</code>). Cópiala ahora:{" "}
            <strong>no se vuelve a mostrar</strong>.
          </p>
          <code className="llave">{nueva}</code>
        </div>
      )}
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {llaves === null ? (
        <p role="status">Cargando…</p>
      ) : (
        <ul className="lista-simple">
          {llaves.map((llave) => (
            <li key={llave.id}>
              <strong>{llave.label}</strong> · …{llave.ultimos4} · creada {fechaHora(llave.created_at)}
              <span>{estadoLlave(llave, Date.now())}</span>
              {llave.revoked_at === null && llave.expira_at === null ? (
                <>
                  <button
                    type="button"
                    className="secundario"
                    aria-expanded={rotando === llave.id}
                    onClick={() => setRotando(rotando === llave.id ? null : llave.id)}
                  >
                    Rotar <span className="oculto">{llave.label}</span>
                  </button>
                  <button type="button" className="secundario" onClick={() => revocar(llave)}>
                    Revocar <span className="oculto">{llave.label}</span>
                  </button>
                  {rotando === llave.id ? <Rotar llave={llave} onRotada={rotada} /> : null}
                </>
              ) : llave.revoked_at === null ? (
                <button type="button" className="secundario" onClick={() => revocar(llave)}>
                  Revocar ya <span className="oculto">{llave.label}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

const Webhooks = () => {
  const [hooks, setHooks] = useState<ReadonlyArray<Webhook> | null>(null)
  const [url, setUrl] = useState("")
  const [secreto, setSecreto] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => {
    sw.webhooks.list().then(setHooks, (e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])
  const run = async (action: () => Promise<void>) => {
    setError(null)
    setAviso(null)
    try {
      await action()
    } catch (e) {
      setError(errorText(e))
    }
  }
  const crear = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      const made = await sw.webhooks.create({ url, eventos: ["*"] })
      setSecreto(made.secret)
      setUrl("")
      load()
    })
  }
  const probar = (hook: Webhook) =>
    run(async () => {
      const entrega = await sw.webhooks.probar(hook.id)
      setAviso(`Aviso de prueba enviado a ${hook.url}: ${entrega.estado}.`)
    })
  const eliminar = (hook: Webhook) =>
    run(async () => {
      if (!window.confirm(`¿Eliminar el webhook ${hook.url}?`)) return
      await sw.webhooks.delete(hook.id)
      load()
    })
  return (
    <section aria-labelledby="t-webhooks">
      <h2 id="t-webhooks">Webhooks</h2>
      <p className="nota">Reciben los avisos de ambos modos; el campo data.mode dice cuál.</p>
      <form onSubmit={crear} className="en-linea">
        <div className="campo">
          <label htmlFor="webhook-url">Dirección https del webhook</label>
          <input
            id="webhook-url"
            type="url"
            required
            placeholder="https://mitienda.com/avisos"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <button type="submit">Registrar webhook</button>
      </form>
      {secreto === null ? null : (
        <div className="aviso" role="status">
          <p>
            Secreto para verificar las firmas. Cópialo ahora: <strong>no se vuelve a mostrar</strong>.
          </p>
          <code className="llave">{secreto}</code>
        </div>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {hooks === null ? (
        <p role="status">Cargando…</p>
      ) : hooks.length === 0 ? (
        <p>No tienes webhooks.</p>
      ) : (
        <ul className="lista-simple">
          {hooks.map((hook) => (
            <li key={hook.id}>
              <span className="url">{hook.url}</span> · {hook.estado}
              <Link to={`/desarrolladores/webhooks/${hook.id}`}>
                Editar y ver entregas <span className="oculto">{hook.url}</span>
              </Link>
              <button type="button" className="secundario" onClick={() => probar(hook)}>
                Probar <span className="oculto">{hook.url}</span>
              </button>
              <button type="button" className="peligro" onClick={() => eliminar(hook)}>
                Eliminar <span className="oculto">{hook.url}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export const Desarrolladores = () => (
  <section>
    <Title>Desarrolladores</Title>
    <Llaves />
    <Webhooks />
    <p>
      <Link to="/desarrolladores/eventos">Registro de avisos</Link> (los avisos enviados, para reenviarlos)
    </p>
  </section>
)
