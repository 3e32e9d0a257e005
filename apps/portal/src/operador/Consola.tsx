/** The operators' console: sign-in with TOTP, then home, merchants and the audit log. */
import { type FormEvent, type ReactElement, useEffect, useState } from "react"
import { Auditoria } from "./Auditoria.js"
import { errorText, onSessionLost, request, type SesionOperador, setCsrf } from "./api.js"
import { Comercios } from "./Comercios.js"
import { CuentasBloqueadas } from "./CuentasBloqueadas.js"
import { Incidentes } from "./Incidentes.js"
import { Inicio } from "./Inicio.js"
import { Operadores } from "./Operadores.js"
import { Revision } from "./Revision.js"
import { Link, navigate, Title, useLocation } from "./router.js"
import { TasaBcv } from "./Tasa.js"

/** The answer to a sign-in with the right password after a TOTP reset: the new secret, for this operator only. */
interface Enrolamiento {
  readonly estado: "totp_por_configurar"
  readonly detail: string
  readonly totp_secret: string
  readonly totp_uri: string
}

const esEnrolamiento = (r: SesionOperador | Enrolamiento): r is Enrolamiento =>
  "estado" in r && r.estado === "totp_por_configurar"

const Ingresar = ({ onSignedIn }: { readonly onSignedIn: (s: SesionOperador) => void }) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [codigo, setCodigo] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // After a TOTP reset: first the password alone (`configurar`), then the new secret and its code.
  const [configurar, setConfigurar] = useState(false)
  const [enrolamiento, setEnrolamiento] = useState<Enrolamiento | null>(null)
  const pideCodigo = !configurar || enrolamiento !== null
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const r = await request<SesionOperador | Enrolamiento>(
        "POST",
        "/sesion",
        pideCodigo ? { email, password, codigo } : { email, password }
      )
      if (esEnrolamiento(r)) {
        setEnrolamiento(r)
        setCodigo("")
      } else onSignedIn(r)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const alternar = () => {
    setConfigurar(!configurar)
    setEnrolamiento(null)
    setCodigo("")
    setError(null)
  }
  return (
    <section className="tarjeta angosta">
      <Title>{configurar ? "Configurar tu autenticador" : "Consola de operadores"}</Title>
      {configurar && enrolamiento === null ? (
        <p>
          Si un operador de riesgo restableció tu autenticador, entra con tu correo y tu contraseña: te
          mostraremos la clave nueva, solo a ti.
        </p>
      ) : null}
      <form onSubmit={submit}>
        <div className="campo">
          <label htmlFor="email">Correo</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            readOnly={enrolamiento !== null}
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
            readOnly={enrolamiento !== null}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        {enrolamiento === null ? null : (
          <div className="campo">
            <p>
              {enrolamiento.detail} <strong>No la compartas: es solo tuya.</strong>
            </p>
            <dl>
              <dt>Clave</dt>
              <dd>
                <code className="llave" data-testid="totp-secreto">
                  {enrolamiento.totp_secret}
                </code>
              </dd>
              <dt>Dirección otpauth</dt>
              <dd>
                <code className="llave">{enrolamiento.totp_uri}</code>
              </dd>
            </dl>
          </div>
        )}
        {pideCodigo ? (
          <div className="campo">
            <label htmlFor="codigo">
              {enrolamiento === null ? "Código de tu autenticador" : "Código de tu autenticador nuevo"}
            </label>
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
        ) : null}
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Entrando…" : pideCodigo ? "Entrar" : "Continuar"}
        </button>
      </form>
      <p>
        <button type="button" className="secundario" onClick={alternar}>
          {configurar ? "Tengo mi autenticador" : "Me restablecieron el autenticador"}
        </button>
      </p>
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
  ["/operadores", "Operadores"],
  // Only riesgo keeps the split's block list (the server checks it too).
  ["/cuentas-bloqueadas", "Cuentas bloqueadas"]
]
const SOLO_RIESGO = new Set(["/cuentas-bloqueadas"])

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
    ) : path === "/cuentas-bloqueadas" && sesion.operador.rol === "riesgo" ? (
      <CuentasBloqueadas />
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
              {NAV.filter(([to]) => !SOLO_RIESGO.has(to) || sesion.operador.rol === "riesgo").map(
                ([to, label]) => (
                  <li key={to}>
                    <Link to={to} aria-current={path === to ? "page" : undefined}>
                      {label}
                    </Link>
                  </li>
                )
              )}
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
