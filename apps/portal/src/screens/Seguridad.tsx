/**
 * Seguridad: the user's second factor (TOTP: enrol with the QR code or the secret shown once,
 * confirm with a code, which shows the ten recovery codes once; new recovery codes with a code;
 * remove with a code) and signing out everywhere.
 */
import type { TotpInscripcion } from "@switch/sdk"
import { type FormEvent, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { navigate } from "../router.js"

/** A 6-digit code field: numeric keyboard on a phone, one-time-code autofill. */
export const CodigoField = (props: {
  readonly value: string
  readonly onChange: (value: string) => void
  readonly id?: string
  readonly label?: string
}) => {
  const id = props.id ?? "codigo"
  return (
    <div className="campo">
      <label htmlFor={id}>{props.label ?? "Código de tu app de autenticación"}</label>
      <input
        id={id}
        name={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        aria-describedby={`${id}-ayuda`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ""))}
      />
      <small id={`${id}-ayuda`} className="nota">
        6 dígitos; cambia cada 30 segundos.
      </small>
    </div>
  )
}

export const Seguridad = () => {
  const { sesion, setSesion } = useSesion()
  const [inscripcion, setInscripcion] = useState<TotpInscripcion | null>(null)
  // The recovery codes, shown once: only until the user leaves or hides them.
  const [codigos, setCodigos] = useState<ReadonlyArray<string> | null>(null)
  const [codigo, setCodigo] = useState("")
  const [codigoNuevos, setCodigoNuevos] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const run = async (work: () => Promise<void>) => {
    setError(null)
    setAviso(null)
    try {
      await work()
    } catch (e) {
      setError(errorText(e))
    }
  }
  const empezar = () => run(async () => setInscripcion(await sw.totp.inscribir()))
  const confirmar = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      const activado = await sw.totp.confirmar(codigo)
      setInscripcion(null)
      setCodigo("")
      setCodigos(activado.codigos_recuperacion)
      setSesion(await sw.sesion.actual())
      setAviso("Listo: desde ahora entras con tu contraseña y un código de tu app.")
    })
  }
  const nuevos = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      const made = await sw.totp.recuperacion(codigoNuevos)
      setCodigoNuevos("")
      setCodigos(made.codigos_recuperacion)
      setAviso("Hicimos diez códigos de recuperación nuevos: los anteriores ya no sirven.")
    })
  }
  const desactivar = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      await sw.totp.desactivar(codigo)
      setCodigo("")
      setCodigos(null)
      setSesion(await sw.sesion.actual())
      setAviso("Quitaste el segundo factor: entras solo con tu contraseña.")
    })
  }
  const cerrarTodas = () =>
    run(async () => {
      if (!window.confirm("¿Cerrar todas tus sesiones, también esta?")) return
      await sw.sesion.cerrarTodas()
      setSesion(null)
      navigate("/ingresar")
    })
  return (
    <section>
      <Title>Seguridad</Title>
      <section aria-labelledby="t-totp">
        <h2 id="t-totp">Segundo factor (TOTP)</h2>
        {sesion.totp ? (
          <>
            <p>
              <strong>Activo.</strong> Al entrar te pedimos un código de tu app de autenticación.
            </p>
            {codigos === null ? null : (
              <section aria-labelledby="t-codigos" className="aviso">
                <h3 id="t-codigos">Tus códigos de recuperación</h3>
                <p>
                  Si pierdes tu teléfono, entra con uno de estos códigos en lugar del de tu app. Cada uno
                  sirve una vez. <strong>Guárdalos ahora: no se vuelven a mostrar.</strong>
                </p>
                <ul className="codigos-recuperacion" data-testid="codigos-recuperacion">
                  {codigos.map((c) => (
                    <li key={c}>
                      <code>{c}</code>
                    </li>
                  ))}
                </ul>
                <button type="button" className="secundario" onClick={() => setCodigos(null)}>
                  Ya los guardé
                </button>
              </section>
            )}
            <form onSubmit={nuevos}>
              <h3>Códigos de recuperación nuevos</h3>
              <p className="nota">Hace diez códigos nuevos; los anteriores dejan de servir.</p>
              <CodigoField id="codigo-nuevos" value={codigoNuevos} onChange={setCodigoNuevos} />
              <button type="submit" className="secundario">
                Hacer códigos nuevos
              </button>
            </form>
            <form onSubmit={desactivar}>
              <h3>Quitar el segundo factor</h3>
              <CodigoField id="codigo-quitar" value={codigo} onChange={setCodigo} />
              <button type="submit" className="peligro">
                Quitar el segundo factor
              </button>
            </form>
          </>
        ) : inscripcion === null ? (
          <>
            <p>
              No activo.{" "}
              {sesion.usuario.rol === "propietario"
                ? "Como propietario lo necesitas para usar el modo live."
                : "Te protege si alguien conoce tu contraseña."}
            </p>
            <button type="button" onClick={empezar}>
              Activar el segundo factor
            </button>
          </>
        ) : (
          <>
            <p>
              Escanea este código QR con tu app de autenticación (Google Authenticator, Authy, 1Password…), o
              agrega la cuenta con la clave o la dirección. <strong>Se muestran una sola vez.</strong>
            </p>
            <img
              className="qr-totp"
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(inscripcion.qr_svg)}`}
              alt={`Código QR para agregar ${sesion.usuario.email} a tu app de autenticación. Si no puedes escanearlo, escribe en la app la clave que aparece debajo.`}
              width={192}
              height={192}
            />
            <dl>
              <dt>Clave</dt>
              <dd>
                <code className="llave" data-testid="totp-secreto">
                  {inscripcion.secreto}
                </code>
              </dd>
              <dt>Dirección otpauth</dt>
              <dd>
                <code className="llave">{inscripcion.otpauth_uri}</code>
              </dd>
            </dl>
            <form onSubmit={confirmar}>
              <CodigoField id="codigo-confirmar" value={codigo} onChange={setCodigo} />
              <button type="submit">Confirmar</button>
            </form>
          </>
        )}
      </section>
      {aviso === null ? null : (
        <p role="status" className="aviso">
          {aviso}
        </p>
      )}
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <section aria-labelledby="t-sesiones">
        <h2 id="t-sesiones">Sesiones</h2>
        <p>Si usaste el panel en otro equipo o crees que alguien más entró, cierra todas tus sesiones.</p>
        <button type="button" className="secundario" onClick={cerrarTodas}>
          Cerrar todas mis sesiones
        </button>
      </section>
    </section>
  )
}
