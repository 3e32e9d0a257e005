/**
 * Desarrolladores › Registro de avisos: the merchant's notices of the session's mode (`GET
 * /eventos`), newest first, filtered by type, loaded 100 at a time as the list scrolls and
 * rendered through the windowed table; each can be sent again to the webhooks ("Reenviar").
 */
import type { SwitchEvent } from "@switch/sdk"
import { useCallback, useEffect, useRef, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { useFiltrosPlegables } from "../FiltrosPlegables.js"
import { bolivares, fechaHora } from "../format.js"
import { Link, navigate } from "../router.js"
import { VirtualTable } from "../VirtualTable.js"

const CHUNK = 100

export const TIPOS = [
  "link.pagado",
  "link.acreditado",
  "link.devuelto",
  "transaccion.aprobada",
  "transaccion.liquidada",
  "transaccion.rechazada"
] as const

/** What a notice is about, in a few words: its link or transaction and its amount. */
const resumen = (evento: SwitchEvent): string => {
  const data = evento.data as Record<string, unknown>
  const parts: Array<string> = []
  const monto = data.monto_acreditado ?? data.monto
  if (typeof monto === "number") parts.push(bolivares(monto))
  if (typeof data.link_id === "string") parts.push(`link …${data.link_id.slice(-8)}`)
  else if (typeof data.txn_id === "string") parts.push(`transacción …${data.txn_id.slice(-8)}`)
  return parts.join(" · ")
}

export const Eventos = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const tipo = new URLSearchParams(search).get("evento") ?? ""
  const valid = (TIPOS as ReadonlyArray<string>).includes(tipo) ? tipo : ""
  const [draft, setDraft] = useState(valid)
  const plegable = useFiltrosPlegables(valid === "" ? 0 : 1)
  const [rows, setRows] = useState<ReadonlyArray<SwitchEvent> | null>(null)
  const [done, setDone] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const loading = useRef(false)
  const generation = useRef(0)

  const loadFrom = useCallback(
    async (offset: number, gen: number) => {
      if (loading.current) return
      loading.current = true
      try {
        const page = await sw.eventos.list({
          limit: CHUNK,
          offset,
          ...(valid === "" ? {} : { evento: valid })
        })
        if (gen !== generation.current) return
        setRows((old) => [...(offset === 0 ? [] : (old ?? [])), ...page])
        setDone(page.length < CHUNK)
      } catch (e) {
        if (gen === generation.current) setError(errorText(e))
      } finally {
        loading.current = false
      }
    },
    [valid]
  )

  useEffect(() => {
    setDraft(valid)
  }, [valid])

  useEffect(() => {
    generation.current += 1
    setRows(null)
    setDone(false)
    setError(null)
    loading.current = false
    void loadFrom(0, generation.current)
  }, [loadFrom])

  const more = useCallback(() => {
    if (!done && rows !== null && error === null) void loadFrom(rows.length, generation.current)
  }, [done, rows, error, loadFrom])

  const reenviar = async (evento: SwitchEvent) => {
    setError(null)
    setAviso(null)
    try {
      const entregas = await sw.eventos.reenviar(evento.id)
      setAviso(
        entregas.length === 0
          ? `Ningún webhook activo recibe ${evento.evento}.`
          : `Aviso ${evento.evento} reenviado a ${entregas.length} webhook${entregas.length === 1 ? "" : "s"}.`
      )
    } catch (e) {
      setError(errorText(e))
    }
  }

  if (sesion.usuario.rol !== "propietario")
    return (
      <section>
        <Title>Registro de avisos</Title>
        <p>Solo el propietario del comercio ve los avisos y los reenvía.</p>
      </section>
    )

  return (
    <section>
      <Title>Registro de avisos</Title>
      <p>
        <Link to="/desarrolladores">← Volver a Desarrolladores</Link>
      </p>
      <p className="nota">
        Los avisos del modo {sesion.mode === "test" ? "prueba" : "live"}, del más reciente al más antiguo.
      </p>
      {plegable.boton}
      <form
        className={plegable.clase}
        id={plegable.id}
        aria-label="Filtrar avisos"
        onSubmit={(event) => {
          event.preventDefault()
          navigate(`/desarrolladores/eventos${draft === "" ? "" : `?evento=${draft}`}`)
        }}
      >
        <div className="campo">
          <label htmlFor="f-tipo">Tipo de aviso</label>
          <select id="f-tipo" value={draft} onChange={(e) => setDraft(e.target.value)}>
            <option value="">Todos</option>
            {TIPOS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Filtrar</button>
      </form>
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rows === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : rows.length === 0 ? (
        <p>No hay avisos{valid === "" ? "" : ` de tipo ${valid}`}.</p>
      ) : (
        <>
          <p className="nota">
            {rows.length} aviso{rows.length === 1 ? "" : "s"}
            {done ? "" : " cargados; bajando se cargan más"}.
          </p>
          <VirtualTable
            caption="Avisos, del más reciente al más antiguo"
            columns={["Aviso", "Fecha", "Detalle", "Acción"]}
            rows={rows}
            rowKey={(evento) => evento.id}
            onNearEnd={more}
            cells={(evento) => (
              <>
                <td data-titulo="Aviso">
                  <code>{evento.evento}</code>
                </td>
                <td data-titulo="Fecha">{fechaHora(evento.creado_en)}</td>
                <td data-titulo="Detalle">{resumen(evento)}</td>
                <td data-titulo="Acción">
                  <button type="button" className="secundario" onClick={() => reenviar(evento)}>
                    Reenviar <span className="oculto">{`${evento.evento} ${evento.id}`}</span>
                  </button>
                </td>
              </>
            )}
          />
        </>
      )}
    </section>
  )
}
