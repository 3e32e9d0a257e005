/** Sign-in and sign-up: the only screens without a session. */
import { type SesionInfo, Switch, SwitchError } from "@switch/sdk"
import { type FormEvent, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { Link } from "../router.js"
import { CodigoField } from "./Seguridad.js"

interface Props {
  readonly onSignedIn: (sesion: SesionInfo) => void
}

const Field = (props: {
  readonly id: string
  readonly label: string
  readonly type?: string
  readonly autoComplete?: string
  readonly hint?: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly required?: boolean
  readonly minLength?: number
}) => (
  <div className="campo">
    <label htmlFor={props.id}>{props.label}</label>
    <input
      id={props.id}
      name={props.id}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete}
      value={props.value}
      required={props.required ?? true}
      minLength={props.minLength}
      aria-describedby={props.hint === undefined ? undefined : `${props.id}-ayuda`}
      onChange={(event) => props.onChange(event.target.value)}
    />
    {props.hint === undefined ? null : (
      <small id={`${props.id}-ayuda`} className="nota">
        {props.hint}
      </small>
    )}
  </div>
)

/** A recovery code field: `xxxxx-xxxxx`, each code serves once. */
const RecuperacionField = (props: { readonly value: string; readonly onChange: (value: string) => void }) => (
  <div className="campo">
    <label htmlFor="codigo-recuperacion">Código de recuperación</label>
    <input
      id="codigo-recuperacion"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={12}
      required
      aria-describedby="codigo-recuperacion-ayuda"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
    <small id="codigo-recuperacion-ayuda" className="nota">
      Uno de los diez que guardaste al activar el segundo factor, como abcde-fghjk. Cada uno sirve una vez.
    </small>
  </div>
)

export const Ingresar = ({ onSignedIn }: Props) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  // With a second factor the service asks for the code after a right password (403 codigo_requerido).
  const [codigo, setCodigo] = useState<string | null>(null)
  // Without the app at hand, one of the recovery codes shown when the second factor was set up.
  const [recuperacion, setRecuperacion] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      onSignedIn(await sw.sesion.iniciar({ email, password, ...(codigo === null ? {} : { codigo }) }))
    } catch (e) {
      if (e instanceof SwitchError && e.code === "codigo_requerido" && codigo === null) {
        setCodigo("")
        return
      }
      // A 401 here is a wrong e-mail or password (the service says which words to show).
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="tarjeta angosta">
      <Title>Iniciar sesión</Title>
      <form onSubmit={submit} noValidate={false}>
        <Field
          id="email"
          label="Correo"
          type="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
        />
        <Field
          id="password"
          label="Contraseña"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        {codigo === null ? null : recuperacion ? (
          <RecuperacionField value={codigo} onChange={setCodigo} />
        ) : (
          <CodigoField value={codigo} onChange={setCodigo} />
        )}
        {codigo === null ? null : (
          <button
            type="button"
            className="secundario"
            onClick={() => {
              setRecuperacion(!recuperacion)
              setCodigo("")
            }}
          >
            {recuperacion ? "Usar el código de mi app" : "No tengo mi app: usar un código de recuperación"}
          </button>
        )}
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Entrando…" : "Entrar"}
        </button>
      </form>
      <p>
        <Link to="/olvide">Olvidé mi contraseña</Link>
      </p>
      <p>
        ¿Tu comercio aún no está en Switch? <Link to="/registro">Regístralo</Link>
      </p>
    </section>
  )
}

export const Registro = ({ onSignedIn }: Props) => {
  const [form, setForm] = useState({ codigo: "", nombre: "", identificacion: "", email: "", password: "" })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<{ readonly key: string; readonly sesion: SesionInfo | null } | null>(null)
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const made = await Switch.registrar(
        { ...form, codigo: form.codigo.trim().toLowerCase() },
        { baseUrl: "" }
      )
      // An e-mail that already had a user gets no new one (the server mails its holder instead):
      // then this sign-in fails, and the key is still shown, once.
      const sesion = await sw.sesion.iniciar({ email: form.email, password: form.password }).catch(() => null)
      setDone({ key: made.key, sesion })
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  if (done !== null)
    return (
      <section className="tarjeta angosta">
        <Title>Tu comercio está registrado</Title>
        <p>
          Esta es tu llave de prueba. Cópiala ahora: <strong>no se vuelve a mostrar</strong>.
        </p>
        <p>
          <code className="llave">{done.key}</code>
        </p>
        <p className="nota">
          Tu comercio empieza en modo prueba. Para cobrar dinero real, Switch debe aprobarlo.
        </p>
        {done.sesion === null ? (
          <p>
            No pudimos abrir el panel con ese correo: revisa el mensaje que te enviamos a {form.email}.{" "}
            <Link to="/ingresar">Ingresar</Link>
          </p>
        ) : (
          <button type="button" onClick={() => done.sesion !== null && onSignedIn(done.sesion)}>
            Ir al panel
          </button>
        )}
      </section>
    )
  return (
    <section className="tarjeta angosta">
      <Title>Registrar mi comercio</Title>
      <form onSubmit={submit}>
        <Field
          id="nombre"
          label="Nombre del comercio"
          autoComplete="organization"
          value={form.nombre}
          onChange={set("nombre")}
        />
        <Field
          id="codigo"
          label="Código del comercio"
          hint="De 3 a 32 caracteres: minúsculas, dígitos, _ o -. Va en tus llaves."
          value={form.codigo}
          onChange={set("codigo")}
        />
        <Field
          id="identificacion"
          label="RIF o cédula"
          hint="Por ejemplo J-07013380-5 o V-12345678."
          value={form.identificacion}
          onChange={set("identificacion")}
        />
        <Field
          id="email"
          label="Correo"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set("email")}
        />
        <Field
          id="password"
          label="Contraseña"
          type="password"
          autoComplete="new-password"
          minLength={10}
          hint="Al menos 10 caracteres."
          value={form.password}
          onChange={set("password")}
        />
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Registrando…" : "Registrar"}
        </button>
      </form>
      <p>
        ¿Ya tienes cuenta? <Link to="/ingresar">Inicia sesión</Link>
      </p>
    </section>
  )
}
