/**
 * A list's filters that fold on a phone (issue 45): below 48rem a "Filtros" button (a
 * disclosure, with the count of filters in use) opens them, so the list's first row is in sight
 * without scrolling; on a wider screen the button is hidden and the filters always show. The
 * screen keeps its own filter form and only gives it `plegable.clase` and `plegable.id`.
 */
import { useId, useState } from "react"

/** How many of a list's filters are in use: the non-empty ones, the page number aside. */
export const enUso = (filters: object): number =>
  Object.entries(filters).filter(([name, value]) => name !== "pagina" && value !== "" && value !== undefined)
    .length

/** The fold's state: the button to show before the form, and the form's class and id. */
export const useFiltrosPlegables = (activos: number) => {
  const [abierto, setAbierto] = useState(false)
  const id = useId()
  const boton = (
    <button
      type="button"
      className="secundario filtros-boton"
      aria-expanded={abierto}
      aria-controls={id}
      onClick={() => setAbierto((open) => !open)}
    >
      {activos === 0 ? "Filtros" : `Filtros (${activos} en uso)`}
    </button>
  )
  return { boton, id, clase: abierto ? "filtros" : "filtros plegado" }
}
