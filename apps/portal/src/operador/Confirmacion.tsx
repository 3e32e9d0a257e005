/**
 * The console's confirmation dialog (issue 45): an action that cannot be undone (closing without
 * paying, marking paid, paying through the bank, suspending, deactivating…) first says what will
 * happen and waits for a yes.
 *
 * A native `<dialog>` opened with `showModal()`, so the rest of the page is inert; Tab and
 * Shift+Tab cycle inside it as well, Escape (the dialog's `cancel`) answers no, and focus goes
 * back to what had it when the question was asked. The safe answer, "Volver", has the focus
 * first, so an Enter pressed by habit does nothing.
 */
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react"

/** What the dialog asks: its title, what will happen, and the confirming button's label. */
export interface Pregunta {
  readonly titulo: string
  readonly texto: ReactNode
  readonly confirmar: string
  /** A destructive action: the confirming button is red. */
  readonly peligro?: boolean
}

interface Abierta extends Pregunta {
  readonly responder: (si: boolean) => void
  readonly volverA: HTMLElement | null
}

const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])"

const Dialogo = ({
  pregunta,
  responder
}: {
  readonly pregunta: Abierta
  readonly responder: (si: boolean) => void
}) => {
  const ref = useRef<HTMLDialogElement>(null)
  const volver = useRef<HTMLButtonElement>(null)
  const id = useId()
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (!dialog.open) dialog.showModal()
    volver.current?.focus()
  }, [])
  // Closed before anything else, so the page is no longer inert when focus goes back to it.
  const cerrar = (si: boolean) => {
    ref.current?.close()
    responder(si)
  }
  const tab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab" || ref.current === null) return
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (e) => !e.hasAttribute("disabled")
    )
    const first = items[0]
    const last = items[items.length - 1]
    if (first === undefined || last === undefined) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }
  return (
    <dialog
      ref={ref}
      className="confirmacion"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-titulo`}
      aria-describedby={`${id}-texto`}
      onKeyDown={tab}
      onCancel={(event) => {
        event.preventDefault()
        cerrar(false)
      }}
    >
      <h2 id={`${id}-titulo`}>{pregunta.titulo}</h2>
      <div id={`${id}-texto`} className="confirmacion-texto">
        {pregunta.texto}
      </div>
      <div className="acciones">
        <button ref={volver} type="button" className="secundario" onClick={() => cerrar(false)}>
          Volver
        </button>
        <button
          type="button"
          className={pregunta.peligro === true ? "peligro" : undefined}
          onClick={() => cerrar(true)}
        >
          {pregunta.confirmar}
        </button>
      </div>
    </dialog>
  )
}

/**
 * `preguntar(p)` opens the dialog and resolves `true` on the confirming button, `false` on
 * "Volver" or Escape; render `dialogo` anywhere in the component.
 */
export const useConfirmacion = () => {
  const [abierta, setAbierta] = useState<Abierta | null>(null)
  const preguntar = useCallback(
    (pregunta: Pregunta) =>
      new Promise<boolean>((resolve) => {
        const activo = document.activeElement
        setAbierta({
          ...pregunta,
          responder: resolve,
          volverA: activo instanceof HTMLElement ? activo : null
        })
      }),
    []
  )
  const cerrar = (si: boolean) => {
    if (abierta === null) return
    setAbierta(null)
    abierta.volverA?.focus()
    abierta.responder(si)
  }
  const dialogo = abierta === null ? null : <Dialogo pregunta={abierta} responder={cerrar} />
  return { preguntar, dialogo }
}
