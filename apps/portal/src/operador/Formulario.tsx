/**
 * The console's small action form: its fields, its button, and, for an action that cannot be
 * undone, the confirmation dialog (Confirmacion.tsx) before anything is sent.
 */
import { type FormEvent, useState } from "react"
import { type Pregunta, useConfirmacion } from "./Confirmacion.js"

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
