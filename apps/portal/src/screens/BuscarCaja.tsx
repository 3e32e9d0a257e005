/**
 * The header's search box (screens/Buscar.tsx is its results page, loaded when first opened):
 * in the first screen, so it holds nothing but the form.
 */
import { type FormEvent, useState } from "react"
import { navigate } from "../router.js"

/** The header's box: it opens the results page. */
export const BuscarCaja = () => {
  const [q, setQ] = useState("")
  const buscar = (event: FormEvent) => {
    event.preventDefault()
    if (q.trim() === "") return
    navigate(`/buscar?q=${encodeURIComponent(q.trim())}`)
    setQ("")
  }
  return (
    <form className="buscar-global" aria-label="Encontrar en el panel" onSubmit={buscar}>
      <label htmlFor="buscar-global" className="oculto">
        Encontrar un link o una transacción
      </label>
      <input
        id="buscar-global"
        type="search"
        maxLength={80}
        placeholder="Id, referencia, código o nombre"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <button type="submit" className="secundario">
        Encontrar
      </button>
    </form>
  )
}
