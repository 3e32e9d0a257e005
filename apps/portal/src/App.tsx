/** The portal's shell: the session, the header with the test/live switch, the routes. */
import { type SesionInfo, SwitchError } from "@switch/sdk"
import { type ReactElement, Suspense, useCallback, useEffect, useRef, useState } from "react"
import { errorText, onSessionLost, sw } from "./api.js"
import { seguirCambios } from "./cambios.js"
import { Session, Title, useSesion } from "./context.js"
import {
  AccionesMasivas,
  Actividad,
  Aplicaciones,
  Autorizar,
  Buscar,
  Clientes,
  Configuracion,
  CuentasAprobadas,
  DefinirContrasena,
  Desarrolladores,
  Equipo,
  Eventos,
  LinkDetalle,
  LinkNuevo,
  Links,
  Liquidaciones,
  LoteDetalle,
  LoteNuevo,
  Lotes,
  MiPagina,
  Olvide,
  Seguridad,
  Transacciones,
  VerificarCorreo,
  WebhookDetalle
} from "./pantallas.js"
import { Link, navigate, useLocation } from "./router.js"
import { BuscarCaja } from "./screens/BuscarCaja.js"
import { Ingresar, Registro } from "./screens/Ingreso.js"
import { Inicio } from "./screens/Inicio.js"

const PUBLIC = new Set(["/ingresar", "/registro"])
/** Where to go after signing in: an OAuth authorization request that found no session. */
const VOLVER = "switch_volver"
/** Open with or without a session: the one-time password links (screens/Contrasena.tsx). */
const OPEN = new Set(["/contrasena", "/olvide", "/verificar"])

/** While a screen's code arrives (pantallas.ts). */
const Cargando = () => <p role="status">Cargando…</p>

const ModeSwitch = () => {
  const { sesion, setSesion } = useSesion()
  const [error, setError] = useState<string | null>(null)
  const [totpFirst, setTotpFirst] = useState(false)
  const change = async (mode: "test" | "live") => {
    setError(null)
    try {
      setSesion(await sw.sesion.cambiarModo(mode))
    } catch (e) {
      setError(errorText(e))
      // An owner without a second factor is led to enrol it (403 totp_requerido).
      setTotpFirst(e instanceof SwitchError && e.code === "totp_requerido")
    }
  }
  return (
    <fieldset className="modo">
      <legend>Modo</legend>
      <button type="button" aria-pressed={sesion.mode === "test"} onClick={() => change("test")}>
        Prueba
      </button>
      <button
        type="button"
        aria-pressed={sesion.mode === "live"}
        disabled={!sesion.aprobado}
        aria-describedby={sesion.aprobado ? undefined : "modo-bloqueado"}
        onClick={() => change("live")}
      >
        Live
      </button>
      {sesion.aprobado ? null : (
        <span id="modo-bloqueado" className="nota">
          Live se habilita cuando Switch apruebe tu comercio.
        </span>
      )}
      {error === null ? null : (
        <span role="alert" className="error">
          {error}
          {totpFirst ? (
            <>
              {" "}
              <Link to="/seguridad">Activar el segundo factor</Link>
            </>
          ) : null}
        </span>
      )}
    </fieldset>
  )
}

const NAV: ReadonlyArray<readonly [string, string]> = [
  ["/", "Inicio"],
  ["/links", "Links"],
  ["/lotes", "Lotes"],
  ["/transacciones", "Transacciones"],
  ["/clientes", "Clientes"],
  ["/liquidaciones", "Liquidaciones"],
  ["/mi-pagina", "Mi página"],
  ["/cuentas-aprobadas", "Cuentas para repartos"],
  ["/desarrolladores", "Desarrolladores"],
  ["/equipo", "Equipo"],
  ["/seguridad", "Seguridad"],
  ["/aplicaciones", "Aplicaciones conectadas"],
  ["/actividad", "Actividad"],
  ["/configuracion", "Configuración"]
]

/** Keys, webhooks, notices, the team and the audit log are the owner's: other roles do not see them. */
const OWNER_SECTIONS = new Set(["/desarrolladores", "/equipo", "/actividad"])
const visibleFor = (rol: string, to: string) => !OWNER_SECTIONS.has(to) || rol === "propietario"

const Shell = ({ path, search }: { readonly path: string; readonly search: string }) => {
  const { sesion, setSesion } = useSesion()
  const salir = async () => {
    try {
      await sw.sesion.cerrar()
    } finally {
      setSesion(null)
      navigate("/ingresar")
    }
  }
  // On a phone the sections and the user sit behind a "Menú" button (a disclosure): it closes on
  // navigation and on Escape, which gives focus back to the button.
  const [menu, setMenu] = useState(false)
  const menuBoton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    void path
    setMenu(false)
  }, [path])
  useEffect(() => {
    if (!menu) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return
      setMenu(false)
      menuBoton.current?.focus()
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [menu])
  // One stream of changes per tab, in the session's mode: switching mode opens it afresh.
  useEffect(() => {
    void sesion.mode
    return seguirCambios()
  }, [sesion.mode])
  const active = (to: string) => (to === "/" ? path === "/" : path === to || path.startsWith(`${to}/`))
  let screen: ReactElement
  if (path === "/") screen = <Inicio />
  else if (path === "/links") screen = <Links search={search} />
  else if (path === "/links/nuevo") screen = <LinkNuevo />
  else if (path.startsWith("/links/")) screen = <LinkDetalle id={decodeURIComponent(path.slice(7))} />
  else if (path === "/desarrolladores/eventos") screen = <Eventos search={search} />
  else if (path.startsWith("/desarrolladores/webhooks/"))
    screen = <WebhookDetalle id={decodeURIComponent(path.slice(26))} />
  else if (path === "/lotes") screen = <Lotes search={search} />
  else if (path === "/lotes/nuevo") screen = <LoteNuevo />
  else if (path.startsWith("/lotes/")) screen = <LoteDetalle id={decodeURIComponent(path.slice(7))} />
  else if (path === "/transacciones") screen = <Transacciones search={search} />
  else if (path === "/clientes") screen = <Clientes search={search} />
  else if (path === "/liquidaciones") screen = <Liquidaciones search={search} />
  else if (path === "/configuracion") screen = <Configuracion />
  else if (path === "/desarrolladores")
    screen =
      sesion.usuario.rol === "propietario" ? (
        <Desarrolladores />
      ) : (
        <section>
          <Title>Desarrolladores</Title>
          <p>Solo el propietario del comercio gestiona las llaves y los webhooks.</p>
        </section>
      )
  else if (path === "/equipo") screen = <Equipo />
  else if (path === "/seguridad") screen = <Seguridad />
  else if (path === "/actividad") screen = <Actividad />
  else if (path === "/aplicaciones") screen = <Aplicaciones />
  else if (path === "/oauth/autorizar") screen = <Autorizar search={search} />
  else if (path === "/mi-pagina") screen = <MiPagina />
  else if (path === "/cuentas-aprobadas") screen = <CuentasAprobadas />
  else if (path === "/acciones-masivas") screen = <AccionesMasivas search={search} />
  else if (path === "/buscar") screen = <Buscar search={search} />
  else
    screen = (
      <section>
        <Title>No encontrado</Title>
        <p>
          Esta página no existe. <Link to="/">Volver al inicio</Link>
        </p>
      </section>
    )
  return (
    <>
      <a className="saltar" href="#contenido">
        Saltar al contenido
      </a>
      <header>
        {sesion.mode === "test" ? (
          <p className="banda-prueba">Modo prueba: nada de lo que ves aquí mueve dinero real.</p>
        ) : null}
        <div className="cabecera">
          <div className="marca">
            <strong>Switch</strong> <span>{sesion.comercio.nombre}</span>
          </div>
          <button
            ref={menuBoton}
            type="button"
            className="menu-boton secundario"
            aria-expanded={menu}
            aria-controls="menu-secciones menu-buscar menu-usuario"
            onClick={() => setMenu((open) => !open)}
          >
            Menú
          </button>
          <nav id="menu-secciones" aria-label="Secciones" className={menu ? "plegable abierto" : "plegable"}>
            <ul>
              {NAV.filter(([to]) => visibleFor(sesion.usuario.rol, to)).map(([to, label]) => (
                <li key={to}>
                  <Link to={to} aria-current={active(to) ? "page" : undefined}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div id="menu-buscar" className={menu ? "buscar plegable abierto" : "buscar plegable"}>
            <BuscarCaja />
          </div>
          <ModeSwitch />
          <div id="menu-usuario" className={menu ? "usuario plegable abierto" : "usuario plegable"}>
            <span>
              {sesion.usuario.email} ({sesion.usuario.rol})
            </span>
            <button type="button" className="secundario" onClick={salir}>
              Cerrar sesión
            </button>
          </div>
        </div>
      </header>
      {/* Keyed by mode: switching it opens the screen afresh, with the other mode's data. */}
      <main id="contenido" key={sesion.mode} className={sesion.mode === "test" ? "prueba" : "live"}>
        <Suspense fallback={<Cargando />}>{screen}</Suspense>
      </main>
    </>
  )
}

export const App = () => {
  const { path, search } = useLocation()
  const [sesion, setSesionState] = useState<SesionInfo | null | "cargando">("cargando")
  const setSesion = useCallback((value: SesionInfo | null) => setSesionState(value), [])

  useEffect(() => {
    onSessionLost(() => setSesionState(null))
    sw.sesion.actual().then(
      (info) => setSesionState(info),
      () => setSesionState(null)
    )
  }, [])

  useEffect(() => {
    if (OPEN.has(path)) return
    // An application's authorization request waits for the sign-in, then opens again.
    if (sesion === null && path === "/oauth/autorizar") sessionStorage.setItem(VOLVER, `${path}${search}`)
    if (sesion === null && !PUBLIC.has(path)) navigate("/ingresar", { replace: true })
    if (sesion !== null && sesion !== "cargando" && PUBLIC.has(path)) {
      const volver = sessionStorage.getItem(VOLVER)
      sessionStorage.removeItem(VOLVER)
      navigate(volver ?? "/", { replace: true })
    }
  }, [sesion, path, search])

  if (sesion === "cargando")
    return (
      <main id="contenido" className="centrado">
        <p role="status">Cargando…</p>
      </main>
    )
  if (OPEN.has(path))
    return (
      <main id="contenido" className="centrado">
        <Suspense fallback={<Cargando />}>
          {path === "/olvide" ? (
            <Olvide />
          ) : path === "/verificar" ? (
            <VerificarCorreo />
          ) : (
            <DefinirContrasena />
          )}
        </Suspense>
      </main>
    )
  if (sesion === null || PUBLIC.has(path))
    return (
      <main id="contenido" className="centrado">
        {path === "/registro" ? <Registro onSignedIn={setSesion} /> : <Ingresar onSignedIn={setSesion} />}
      </main>
    )
  return (
    <Session.Provider value={{ sesion, setSesion }}>
      <Shell path={path} search={search} />
    </Session.Provider>
  )
}
