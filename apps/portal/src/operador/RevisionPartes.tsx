/**
 * The money-in-review screen's parts (Revision.tsx): an action's form, which asks first when
 * the action cannot be undone (Confirmacion.tsx), and an item's bank answers, in the bank's own
 * words too.
 */
import { type FormEvent, useState } from "react"
import { fechaHora } from "../format.js"
import { errorText, request } from "./api.js"
import { type Pregunta, useConfirmacion } from "./Confirmacion.js"

export interface Respuesta {
  readonly estado: string
  readonly referencia_banco: string | null
  readonly motivo_rechazo: string | null
  /** The bank's own code and words, when it said them (its reason may be only DESCONOCIDO). */
  readonly codigo_banco?: string | null
  readonly mensaje_banco?: string | null
  readonly origen: "operador" | "envio"
  readonly created_at: string
}

/** What the bank said, in its own words too: `RECHAZADA · DESCONOCIDO · banco 05: Transacción no aprobada`. */
export const respuestaTexto = (r: Respuesta) => {
  const codigo = r.codigo_banco ?? null
  const mensaje = r.mensaje_banco ?? null
  const propio =
    codigo === null && mensaje === null
      ? null
      : `banco${codigo === null ? "" : ` ${codigo}`}${mensaje === null ? "" : `: ${mensaje}`}`
  return [r.estado, r.referencia_banco, r.motivo_rechazo, propio]
    .filter((v) => v !== null && v !== "")
    .join(" · ")
}

export const Form = (props: {
  readonly label: string
  readonly name: string
  readonly fields?: ReadonlyArray<{
    readonly key: string
    readonly label: string
    readonly required: boolean
  }>
  readonly peligro?: boolean
  /** What the confirmation dialog says before anything is sent; none: sent at once. */
  readonly pregunta?: (values: Record<string, string>) => Pregunta
  readonly onSubmit: (values: Record<string, string>) => Promise<void>
}) => {
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const { preguntar, dialogo } = useConfirmacion()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (props.pregunta !== undefined && !(await preguntar(props.pregunta(values)))) return
    setBusy(true)
    try {
      await props.onSubmit(values)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} aria-label={props.name}>
      {(props.fields ?? []).map((f) => (
        <div className="campo" key={f.key}>
          <label htmlFor={`${props.name}-${f.key}`}>{f.label}</label>
          <input
            id={`${props.name}-${f.key}`}
            required={f.required}
            value={values[f.key] ?? ""}
            onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
          />
        </div>
      ))}
      <button type="submit" className={props.peligro === true ? "peligro" : undefined} disabled={busy}>
        {props.label}
      </button>
      {dialogo}
    </form>
  )
}

export const Historial = ({ item }: { readonly item: { readonly tipo: string; readonly id: string } }) => {
  const [data, setData] = useState<ReadonlyArray<Respuesta> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ver = () => {
    const q = new URLSearchParams({ objeto_tipo: item.tipo, objeto_id: item.id })
    request<{ data: ReadonlyArray<Respuesta> }>("GET", `/revision/respuestas?${q}`)
      .then((page) => setData(page.data))
      .catch((e) => setError(errorText(e)))
  }
  return (
    <div className="historial">
      <button type="button" onClick={ver} aria-label={`Ver respuestas del banco de ${item.id}`}>
        Ver respuestas del banco
      </button>
      {error === null ? null : <p className="error">{error}</p>}
      {data === null ? null : data.length === 0 ? (
        <p className="nota">Sin respuestas del banco todavía.</p>
      ) : (
        <ol aria-label={`Respuestas del banco de ${item.id}`}>
          {data.map((r) => (
            <li key={`${r.created_at}-${r.estado}`}>
              {fechaHora(r.created_at)}: {respuestaTexto(r)} ({r.origen === "operador" ? "consulta" : "envío"}
              )
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
