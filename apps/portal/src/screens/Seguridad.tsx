/**
 * Seguridad: the user's second factor (TOTP: enrol with the secret shown once, confirm with a
 * code, remove with a code) and signing out everywhere.
 */
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
  const [inscripcion, setInscripcion] = useState<{ secreto: string; otpauth_uri: string } | null>(null)
  const [codigo, setCodigo] = useState("")
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
      await sw.totp.confirmar(codigo)
      setInscripcion(null)
      setCodigo("")
      setSesion(await sw.sesion.actual())
      setAviso("Listo: desde ahora entras con tu contraseña y un código de tu app.")
    })
  }
  const desactivar = (event: FormEvent) => {
    event.preventDefault()
    return run(async () => {
      await sw.totp.desactivar(codigo)
      setCodigo("")
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
            <form onSubmit={desactivar}>
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
              Agrega esta cuenta en tu app de autenticación (Google Authenticator, Authy, 1Password…) con la
              clave o la dirección. <strong>Se muestran una sola vez.</strong>
            </p>
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
