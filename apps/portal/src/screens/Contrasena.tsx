/**
 * The one-time password links' screens, open with or without a session: set a password from the
 * mailed link (`/contrasena#token=...`: the token rides in the fragment, which no server sees,
 * and leaves the address bar as soon as it is read), and "olvidé mi contraseña" (`/olvide`).
 */
import { type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { Link } from "../router.js"

/** The link's token, from the address's fragment. */
const readToken = (): string => new URLSearchParams(location.hash.replace(/^#/, "")).get("token") ?? ""

/**
 * The link's token: read while rendering, removed from the address once the screen is shown. A
 * render React makes and drops (the screen arrives lazily, pantallas.ts) must still find it.
 */
const useToken = () => {
  const [token] = useState(readToken)
  useEffect(() => {
    if (location.hash !== "") history.replaceState(history.state, "", location.pathname + location.search)
  }, [])
  return token
}

export const DefinirContrasena = () => {
  const token = useToken()
  const [password, setPassword] = useState("")
  const [confirmacion, setConfirmacion] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [email, setEmail] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    if (password !== confirmacion) {
      setError("Las dos contraseñas no coinciden.")
      return
    }
    setBusy(true)
    try {
      setEmail((await sw.contrasena.definir({ token, password })).email)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  if (email !== null)
    return (
      <section className="tarjeta angosta">
        <Title>Contraseña definida</Title>
        <p role="status">
          Listo: ya puedes entrar al panel con <strong>{email}</strong> y tu contraseña nueva.
        </p>
        <p>
          <Link to="/ingresar">Iniciar sesión</Link>
        </p>
      </section>
    )
  if (token === "")
    return (
      <section className="tarjeta angosta">
        <Title>Enlace incompleto</Title>
        <p>
          Abre el enlace tal como llegó en el correo. Si venció, <Link to="/olvide">pide uno nuevo</Link>.
        </p>
      </section>
    )
  return (
    <section className="tarjeta angosta">
      <Title>Define tu contraseña</Title>
      <form onSubmit={submit}>
        <div className="campo">
          <label htmlFor="nueva">Contraseña nueva</label>
          <input
            id="nueva"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            maxLength={200}
            aria-describedby="nueva-ayuda"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <small id="nueva-ayuda" className="nota">
            Al menos 10 caracteres.
          </small>
        </div>
        <div className="campo">
          <label htmlFor="confirmacion">Repite la contraseña</label>
          <input
            id="confirmacion"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            maxLength={200}
            value={confirmacion}
            onChange={(e) => setConfirmacion(e.target.value)}
          />
        </div>
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Guardando…" : "Guardar contraseña"}
        </button>
      </form>
      <p className="nota">El enlace sirve una sola vez. Al guardar se cierran tus sesiones abiertas.</p>
    </section>
  )
}

export const Olvide = () => {
  const [email, setEmail] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [hecho, setHecho] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      setHecho((await sw.contrasena.olvido(email)).detail)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="tarjeta angosta">
      <Title>Olvidé mi contraseña</Title>
      {hecho !== null ? (
        <p role="status" className="aviso">
          {hecho} Revisa tu correo: el enlace vence en 1 hora.
        </p>
      ) : (
        <form onSubmit={submit}>
          <div className="campo">
            <label htmlFor="email">Correo</label>
            <input
              id="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          {error === null ? null : (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy}>
            {busy ? "Enviando…" : "Enviarme un enlace"}
          </button>
        </form>
      )}
      <p>
        <Link to="/ingresar">Volver a iniciar sesión</Link>
      </p>
    </section>
  )
}

/**
 * The link mailed at a sign-up with a password (`/verificar#token=...`): one press confirms the
 * e-mail, which live mode needs (issue 45). A press, not on load, so a mail scanner that opens
 * links spends nothing.
 */
export const VerificarCorreo = () => {
  const token = useToken()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [email, setEmail] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setBusy(true)
    try {
      setEmail((await sw.contrasena.verificarCorreo(token)).email)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  if (email !== null)
    return (
      <section className="tarjeta angosta">
        <Title>Correo confirmado</Title>
        <p role="status">
          Listo: confirmaste <strong>{email}</strong>. Cuando Switch apruebe tu comercio podrás pasar a modo
          live.
        </p>
        <p>
          <Link to="/ingresar">Ir al panel</Link>
        </p>
      </section>
    )
  if (token === "")
    return (
      <section className="tarjeta angosta">
        <Title>Enlace incompleto</Title>
        <p>
          Abre el enlace tal como llegó en el correo. Si venció, <Link to="/olvide">pide uno</Link> en «Olvidé
          mi contraseña»: usarlo también confirma tu correo.
        </p>
      </section>
    )
  return (
    <section className="tarjeta angosta">
      <Title>Confirma tu correo</Title>
      <form onSubmit={submit} aria-label="Confirmar mi correo">
        <p>
          Confirma que este correo es tuyo para poder pasar a modo live cuando Switch apruebe tu comercio.
        </p>
        <button type="submit" disabled={busy}>
          {busy ? "Confirmando…" : "Confirmar mi correo"}
        </button>
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  )
}
