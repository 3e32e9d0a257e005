/**
 * Merchants by state: sign-ups waiting for KYC (approve with the settlement account in the
 * merchant's own name), active ones (review: lift the new-account caps; suspend) and suspended
 * ones (reactivate). Only `riesgo` sees the actions; the server refuses them to anyone else.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { type Comercio, errorText, puedeRiesgo, request, type SesionOperador } from "./api.js"
import { ConfiguracionComercio } from "./ConfiguracionComercio.js"
import { type Pregunta, useConfirmacion } from "./Confirmacion.js"
import { CuentasAprobadasPanel } from "./CuentasAprobadasPanel.js"
import { Link, Title } from "./router.js"

const ESTADOS: ReadonlyArray<readonly [Comercio["estado"], string]> = [
  ["pendiente", "Esperando KYC"],
  ["activo", "Activos"],
  ["suspendido", "Suspendidos"]
]

const fecha = (iso: string) =>
  new Intl.DateTimeFormat("es-VE", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "America/Caracas"
  }).format(new Date(iso))

const Aprobar = ({
  comercio,
  onDone
}: {
  readonly comercio: Comercio
  readonly onDone: (m: string) => void
}) => {
  const [cuenta, setCuenta] = useState("")
  const [nombre, setNombre] = useState(comercio.nombre)
  const [nota, setNota] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { preguntar, dialogo } = useConfirmacion()
  const id = `aprobar-${comercio.codigo}`
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const valor = cuenta.replace(/\D/g, "")
    const si = await preguntar({
      titulo: `¿Aprobar a ${comercio.nombre}?`,
      confirmar: "Sí, aprobar",
      texto: (
        <p>
          {comercio.nombre} podrá operar en vivo: su dueño podrá crear su llave live y sus cobros se
          liquidarán a la cuenta {valor} a nombre de {nombre}. Su dueño recibe un correo.
        </p>
      )
    })
    if (!si) return
    setBusy(true)
    setError(null)
    try {
      await request("POST", `/comercios/${comercio.codigo}/aprobar`, {
        cuenta_liquidacion: {
          tipo: "cuenta",
          valor,
          banco: valor.slice(0, 4),
          identificacion: comercio.identificacion,
          nombre
        },
        ...(nota.trim() === "" ? {} : { nota: nota.trim() })
      })
      onDone(`${comercio.nombre} quedó aprobado.`)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} aria-label={`Aprobar ${comercio.nombre}`}>
      <div className="campo">
        <label htmlFor={`${id}-cuenta`}>Cuenta de liquidación (20 dígitos)</label>
        <input
          id={`${id}-cuenta`}
          inputMode="numeric"
          required
          pattern="[0-9 \-]{20,26}"
          aria-describedby={`${id}-ayuda`}
          value={cuenta}
          onChange={(e) => setCuenta(e.target.value)}
        />
        <small id={`${id}-ayuda`} className="nota">
          A nombre del propio comercio ({comercio.identificacion}).
        </small>
      </div>
      <div className="campo">
        <label htmlFor={`${id}-nombre`}>Titular</label>
        <input id={`${id}-nombre`} required value={nombre} onChange={(e) => setNombre(e.target.value)} />
      </div>
      <div className="campo">
        <label htmlFor={`${id}-nota`}>Nota (auditoría)</label>
        <input id={`${id}-nota`} value={nota} onChange={(e) => setNota(e.target.value)} />
      </div>
      <p className="nota">Aprobar no crea llaves: el dueño del comercio crea su llave live en su portal.</p>
      <button type="submit" disabled={busy}>
        {busy ? "Aprobando…" : "Aprobar"}
      </button>
      {dialogo}
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}

const Accion = (props: {
  readonly comercio: Comercio
  readonly accion: "revisar" | "suspender" | "reactivar"
  readonly label: string
  readonly peligro?: boolean
  /** What the confirmation dialog says first; none: done at once. */
  readonly pregunta?: (nota: string) => Pregunta
  readonly onDone: (m: string) => void
}) => {
  const [nota, setNota] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { preguntar, dialogo } = useConfirmacion()
  const id = `${props.accion}-${props.comercio.codigo}`
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (props.pregunta !== undefined && !(await preguntar(props.pregunta(nota.trim())))) return
    setBusy(true)
    setError(null)
    try {
      await request(
        "POST",
        `/comercios/${props.comercio.codigo}/${props.accion}`,
        nota.trim() === "" ? {} : { nota: nota.trim() }
      )
      props.onDone(`${props.comercio.nombre}: ${props.label.toLowerCase()} hecho.`)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} aria-label={`${props.label} ${props.comercio.nombre}`}>
      <div className="campo">
        <label htmlFor={`${id}-nota`}>Nota</label>
        <input id={`${id}-nota`} value={nota} onChange={(e) => setNota(e.target.value)} />
      </div>
      <button type="submit" className={props.peligro === true ? "peligro" : undefined} disabled={busy}>
        {props.label}
      </button>
      {dialogo}
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}

const PILOTOS: ReadonlyArray<
  readonly [
    "liquidacion_inmediata" | "split_habilitado" | "tarjeta_habilitada" | "reembolsos_habilitado",
    string
  ]
> = [
  ["liquidacion_inmediata", "Liquidación inmediata"],
  ["split_habilitado", "Reparto"],
  ["tarjeta_habilitada", "Tarjeta"],
  ["reembolsos_habilitado", "Reembolsos desde el panel"]
]

/** Immediate settlement and the pilots, at a glance: each named with its state, never by colour alone. */
const Pilotos = ({ comercio }: { readonly comercio: Comercio }) => (
  <ul className="pilotos" aria-label={`Pilotos de ${comercio.nombre}`}>
    {PILOTOS.map(([campo, nombre]) => (
      <li key={campo} className={comercio[campo] ? "activo" : undefined}>
        {nombre}: <strong>{comercio[campo] ? "activado" : "desactivado"}</strong>
      </li>
    ))}
  </ul>
)

const suspenderPregunta = (c: Comercio, nota: string): Pregunta => ({
  titulo: `¿Suspender a ${c.nombre}?`,
  confirmar: "Sí, suspender",
  peligro: true,
  texto: (
    <>
      <p>
        {c.nombre} ({c.codigo}) no podrá crear links ni lotes, y sus links pendientes no podrán empezar a
        pagarse. Los pagos que ya están en curso terminan normalmente.
        {nota === "" ? "" : ` Nota: «${nota}».`}
      </p>
      <p>
        Su dueño recibe un correo{nota === "" ? "" : " con tu nota"}. Se puede reactivar después desde
        «Suspendidos».
      </p>
    </>
  )
})

export const Comercios = ({
  sesion,
  search
}: {
  readonly sesion: SesionOperador
  readonly search: string
}) => {
  const estado = (new URLSearchParams(search).get("estado") ?? "pendiente") as Comercio["estado"]
  const [comercios, setComercios] = useState<ReadonlyArray<Comercio> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const actua = puedeRiesgo(sesion.operador.rol)

  const load = useCallback(() => {
    setError(null)
    request<{ data: ReadonlyArray<Comercio> }>("GET", `/comercios?estado=${estado}`)
      .then((page) => setComercios(page.data))
      .catch((e) => setError(errorText(e)))
  }, [estado])
  useEffect(load, [load])
  const done = (message: string) => {
    setAviso(message)
    load()
  }

  return (
    <section>
      <Title>Comercios</Title>
      <nav aria-label="Estado de los comercios" className="pestanas">
        {ESTADOS.map(([value, label]) => (
          <Link
            key={value}
            to={`/comercios?estado=${value}`}
            aria-current={value === estado ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      {actua ? null : (
        <p className="nota">
          Tu rol ({sesion.operador.rol}) solo puede consultar: aprobar y suspender es de riesgo.
        </p>
      )}
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {comercios === null ? (
        <p>Cargando…</p>
      ) : comercios.length === 0 ? (
        <p>No hay comercios en este estado.</p>
      ) : (
        <ul className="lista-simple comercios">
          {comercios.map((c) => (
            <li key={c.codigo}>
              <h2>
                {c.nombre} <code>{c.codigo}</code>
              </h2>
              <dl className="datos">
                <div>
                  <dt>RIF</dt>
                  <dd>{c.identificacion}</dd>
                </div>
                <div>
                  <dt>Correo</dt>
                  <dd>{c.email}</dd>
                </div>
                <div>
                  <dt>Registrado</dt>
                  <dd>{fecha(c.created_at)}</dd>
                </div>
                <div>
                  <dt>Revisado</dt>
                  <dd>{c.revisado ? "Sí (sin topes de cuenta nueva)" : "No (topes de cuenta nueva)"}</dd>
                </div>
              </dl>
              <Pilotos comercio={c} />
              <ConfiguracionComercio codigo={c.codigo} puedeEditar={actua} />
              <CuentasAprobadasPanel codigo={c.codigo} nombre={c.nombre} />
              {!actua ? null : (
                <div className="acciones">
                  {c.estado === "pendiente" ? <Aprobar comercio={c} onDone={done} /> : null}
                  {c.estado === "activo" && !c.revisado ? (
                    <Accion comercio={c} accion="revisar" label="Marcar revisado" onDone={done} />
                  ) : null}
                  {c.estado === "activo" ? (
                    <Accion
                      comercio={c}
                      accion="suspender"
                      label="Suspender"
                      peligro
                      pregunta={(nota) => suspenderPregunta(c, nota)}
                      onDone={done}
                    />
                  ) : null}
                  {c.estado === "suspendido" ? (
                    <Accion comercio={c} accion="reactivar" label="Reactivar" onDone={done} />
                  ) : null}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
