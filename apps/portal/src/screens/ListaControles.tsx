/**
 * Small controls the lists share: the date presets (hoy, 7 días, este mes, as Caracas days), a
 * button that copies a text (a link's address), a column heading that sorts by it, and the same
 * orders as a field of the filters (the phone layout shows rows as cards, without headings).
 */
import { useState } from "react"
import { PRESET_LABEL, PRESETS, type Preset, presetDias } from "../linkFilters.js"

/** Buttons that fill «desde» and «hasta» with a preset's Caracas days. */
export const PresetsFecha = (props: {
  readonly onElegir: (dias: { desde: string; hasta: string }) => void
}) => (
  <fieldset className="presets">
    <legend>Fechas rápidas</legend>
    {PRESETS.map((preset: Preset) => (
      <button
        key={preset}
        type="button"
        className="secundario"
        onClick={() => props.onElegir(presetDias(preset, new Date()))}
      >
        {PRESET_LABEL[preset]}
      </button>
    ))}
  </fieldset>
)

/** Copies `texto` to the clipboard; says so for a moment (also to a screen reader). */
export const Copiar = (props: { readonly texto: string; readonly que: string }) => {
  const [hecho, setHecho] = useState<"si" | "no" | null>(null)
  const copiar = async () => {
    try {
      await navigator.clipboard.writeText(props.texto)
      setHecho("si")
    } catch {
      setHecho("no")
    }
    setTimeout(() => setHecho(null), 2000)
  }
  return (
    <button type="button" className="secundario copiar" onClick={copiar}>
      {hecho === "si" ? "Copiada" : hecho === "no" ? "No se pudo copiar" : "Copiar"}
      <span className="oculto"> {props.que}</span>
    </button>
  )
}

/** A sortable column's heading: a button that toggles between the two orders it offers. */
export const OrdenarPor = (props: {
  readonly columna: string
  readonly activa: "ascending" | "descending" | undefined
  readonly onOrdenar: () => void
}) => (
  <button type="button" className="ordenar" onClick={props.onOrdenar}>
    {props.columna}
    <span aria-hidden="true">
      {props.activa === "ascending" ? " ▲" : props.activa === "descending" ? " ▼" : " ↕"}
    </span>
    <span className="oculto">
      {props.activa === undefined ? ", ordenar por esta columna" : ", cambiar el orden"}
    </span>
  </button>
)

/** The lists' orders, as a filter field's options. */
export const ORDEN_LABEL = {
  reciente: "Más recientes primero",
  antiguo: "Más antiguos primero",
  monto_desc: "Monto mayor primero",
  monto_asc: "Monto menor primero"
} as const

/** «Ordenar por»: the list's order as a field of its filters form. */
export const OrdenCampo = <O extends keyof typeof ORDEN_LABEL>(props: {
  readonly id: string
  readonly value: O
  readonly onChange: (orden: O) => void
}) => (
  <div className="campo">
    <label htmlFor={props.id}>Ordenar por</label>
    <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value as O)}>
      {(Object.keys(ORDEN_LABEL) as Array<O>).map((orden) => (
        <option key={orden} value={orden}>
          {ORDEN_LABEL[orden]}
        </option>
      ))}
    </select>
  </div>
)
