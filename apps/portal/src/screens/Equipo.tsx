/** Equipo: the owner's list of users, invitations by e-mail with a role, role changes, removal. */
import type { Rol, Usuario } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { fechaHora } from "../format.js"

const ROLES: ReadonlyArray<readonly [Rol, string]> = [
  ["propietario", "Propietario: todo"],
  ["cajero", "Cajero: links, lotes y clientes"],
  ["lectura", "Lectura: solo consulta"]
]

const RolSelect = (props: {
  readonly id: string
  readonly value: Rol
  readonly onChange: (rol: Rol) => void
  readonly label?: string
  readonly labelHidden?: boolean
}) => (
  <>
    <label htmlFor={props.id} className={props.labelHidden === true ? "oculto" : undefined}>
      {props.label ?? "Rol"}
    </label>
    <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value as Rol)}>
      {ROLES.map(([rol, text]) => (
        <option key={rol} value={rol}>
          {text}
        </option>
      ))}
    </select>
  </>
)

export const Equipo = () => {
  const { sesion } = useSesion()
  const [usuarios, setUsuarios] = useState<ReadonlyArray<Usuario> | null>(null)
  const [email, setEmail] = useState("")
  const [rol, setRol] = useState<Rol>("cajero")
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const owner = sesion.usuario.rol === "propietario"
  const load = useCallback(() => {
    if (owner) sw.equipo.list().then(setUsuarios, (e) => setError(errorText(e)))
  }, [owner])
  useEffect(load, [load])
  if (!owner)
    return (
      <section>
        <Title>Equipo</Title>
        <p>Solo el propietario del comercio gestiona el equipo.</p>
      </section>
    )
  const act = async (work: () => Promise<string>) => {
    setError(null)
    setAviso(null)
    try {
      setAviso(await work())
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  const invitar = (event: FormEvent) => {
    event.preventDefault()
    return act(async () => {
      const made = await sw.equipo.invitar({ email, rol })
      setEmail("")
      return `Invitamos a ${made.email}: le llegará un correo para definir su contraseña.`
    })
  }
  const cambiar = (usuario: Usuario, nuevo: Rol) =>
    act(async () => {
      await sw.equipo.cambiarRol(usuario.id, nuevo)
      return `${usuario.email} ahora tiene el rol ${nuevo}.`
    })
  const eliminar = (usuario: Usuario) => {
    if (!window.confirm(`¿Eliminar a ${usuario.email}? Sus sesiones se cierran en el acto.`)) return
    return act(async () => {
      await sw.equipo.eliminar(usuario.id)
      return `${usuario.email} ya no tiene acceso al panel.`
    })
  }
  return (
    <section>
      <Title>Equipo</Title>
      <section aria-labelledby="t-invitar">
        <h2 id="t-invitar">Invitar a alguien</h2>
        <form onSubmit={invitar} className="en-linea">
          <div className="campo">
            <label htmlFor="invitar-email">Correo</label>
            <input
              id="invitar-email"
              type="email"
              autoComplete="off"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="campo">
            <RolSelect id="invitar-rol" value={rol} onChange={setRol} />
          </div>
          <button type="submit">Enviar invitación</button>
        </form>
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
      <section aria-labelledby="t-usuarios">
        <h2 id="t-usuarios">Usuarios</h2>
        {usuarios === null ? (
          <p role="status">Cargando…</p>
        ) : (
          <ul className="lista-simple">
            {usuarios.map((usuario) => (
              <li key={usuario.id}>
                <span>
                  <strong>{usuario.email}</strong>
                  {usuario.id === sesion.usuario.id ? " (tú)" : ""} ·{" "}
                  {usuario.estado === "invitado" ? "invitado, aún sin contraseña" : "activo"} · desde{" "}
                  {fechaHora(usuario.created_at)}
                </span>
                <span className="en-linea">
                  <RolSelect
                    id={`rol-${usuario.id}`}
                    label={`Rol de ${usuario.email}`}
                    labelHidden
                    value={usuario.rol}
                    onChange={(nuevo) => cambiar(usuario, nuevo)}
                  />
                  <button type="button" className="peligro" onClick={() => eliminar(usuario)}>
                    Eliminar <span className="oculto">{usuario.email}</span>
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  )
}
