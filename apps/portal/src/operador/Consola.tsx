/** The operators' console: sign-in with TOTP, then home, merchants and the audit log. */
import { type FormEvent, type ReactElement, useEffect, useState } from "react"
import { Auditoria } from "./Auditoria.js"
import { errorText, onSessionLost, request, type SesionOperador, setCsrf } from "./api.js"
import { Comercios } from "./Comercios.js"
import { Incidentes } from "./Incidentes.js"
import { Inicio } from "./Inicio.js"
import { Operadores } from "./Operadores.js"
import { Revision } from "./Revision.js"
import { Link, navigate, Title, useLocation } from "./router.js"
import { TasaBcv } from "./Tasa.js"

const Ingresar = ({ onSignedIn }: { readonly onSignedIn: (s: SesionOperador) => void }) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [codigo, setCodigo] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      onSignedIn(await request<SesionOperador>("POST", "/sesion", { email, password, codigo }))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="tarjeta angosta">
      <Title>Consola de operadores</Title>
      <form onSubmit={submit}>
        <div className="campo">
          <label htmlFor="email">Correo</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="campo">
          <label htmlFor="password">Contraseña</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="campo">
          <label htmlFor="codigo">Código de tu autenticador</label>
          <input
            id="codigo"
            name="codigo"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            aria-describedby="codigo-ayuda"
            value={codigo}
            onChange={(e) => setCodigo(e.target.value.trim())}
          />
          <small id="codigo-ayuda" className="nota">
            Los 6 dígitos que muestra tu aplicación de autenticación. Sin código no hay sesión.
          </small>
        </div>
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Entrando…" : "Entrar"}
        </button>
      </form>
    </section>
  )
}

const NAV: ReadonlyArray<readonly [string, string]> = [
  ["/", "Inicio"],
  ["/comercios", "Comercios"],
  ["/revision", "Dinero en revisión"],
  ["/auditoria", "Auditoría"],
  ["/tasa-bcv", "Tasa BCV"],
  ["/incidentes", "Incidentes"],
  ["/operadores", "Operadores"]
]

export const Consola = () => {
  const { path, search } = useLocation()
  const [sesion, setSesion] = useState<SesionOperador | null | undefined>(undefined)

  useEffect(() => {
    request<SesionOperador>("GET", "/sesion")
      .then(setSesion)
      .catch(() => setSesion(null))
    return onSessionLost(() => setSesion(null))
  }, [])
  useEffect(() => setCsrf(sesion?.csrf_token ?? ""), [sesion])

  if (sesion === undefined)
    return (
      <main id="contenido" className="centrado">
        <p>Cargando…</p>
      </main>
    )
  if (sesion === null)
    return (
      <>
        <header>
          <p className="banda-operador">Consola de operadores de Switch</p>
        </header>
        <main id="contenido" className="centrado">
          <Ingresar
            onSignedIn={(s) => {
              setCsrf(s.csrf_token)
              setSesion(s)
              navigate("/", { replace: true })
            }}
          />
        </main>
      </>
    )

  const salir = async () => {
    try {
      await request("DELETE", "/sesion")
    } finally {
      setSesion(null)
    }
  }
  const screen: ReactElement =
    path === "/comercios" ? (
      <Comercios sesion={sesion} search={search} />
    ) : path === "/revision" ? (
      <Revision sesion={sesion} />
    ) : path === "/auditoria" ? (
      <Auditoria />
    ) : path === "/tasa-bcv" ? (
      <TasaBcv sesion={sesion} />
    ) : path === "/incidentes" ? (
      <Incidentes sesion={sesion} />
    ) : path === "/operadores" ? (
      <Operadores sesion={sesion} />
    ) : (
      <Inicio sesion={sesion} />
    )
  return (
    <>
      <a className="saltar" href="#contenido">
        Saltar al contenido
      </a>
      <header>
        <p className="banda-operador">Consola de operadores de Switch</p>
        <div className="cabecera">
          <div className="marca">
            <strong>Switch</strong> <span>Operadores</span>
          </div>
          <nav aria-label="Principal">
            <ul>
              {NAV.map(([to, label]) => (
                <li key={to}>
                  <Link to={to} aria-current={path === to ? "page" : undefined}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="usuario">
            <span>
              {sesion.operador.email} · rol <strong>{sesion.operador.rol}</strong>
            </span>
            <button type="button" className="secundario" onClick={salir}>
              Salir
            </button>
          </div>
        </div>
      </header>
      <main id="contenido">{screen}</main>
    </>
  )
}
