/**
 * The BCV rate: the rate in force (and whether it is older than SWITCH_TASA_MAX_HORAS, when
 * dollar-limited charges stop), the history with who set each, and for `tesoreria` setting it
 * by hand or fetching it now from the configured source. A rate further than
 * SWITCH_TASA_SALTO_MAX_PCT from the one in force waits as a proposal: another `tesoreria`
 * operator confirms it (its proposer cannot) or anyone of `tesoreria` rejects it. The server
 * checks the role and the four eyes.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { fechaHora } from "../format.js"
import { errorText, request, type SesionOperador } from "./api.js"
import { useConfirmacion } from "./Confirmacion.js"
import { Title } from "./router.js"

interface Tasa {
  readonly ves_por_usd: number
  readonly fuente: "token" | "operador" | "url"
  readonly fijada_por: string | null
  readonly confirmada_por: string | null
  readonly actualizada_en: string
}

interface Propuesta {
  readonly id: number
  readonly ves_por_usd: number
  readonly anterior: number
  readonly salto_pct: number
  readonly fuente: Tasa["fuente"]
  readonly operador_id: string | null
  readonly propuesta_por: string | null
  readonly nota: string | null
  readonly creada_en: string
}

interface Vista {
  readonly vigente: Tasa | null
  readonly vencida: boolean
  readonly max_horas: number
  readonly salto_max_pct: number
  readonly pendiente: Propuesta | null
  readonly estado?: "pendiente_confirmacion"
  readonly fuente_configurada: boolean
  readonly historial: ReadonlyArray<Tasa>
}

/** `36,5012` (up to 8 decimals, comma as the decimal mark). */
const tasaTexto = (n: number) => n.toFixed(8).replace(/0+$/, "").replace(/\.$/, "").replace(".", ",")

/** `9.900 %` (Spanish grouping, up to 2 decimals). */
const porcentaje = (n: number) => `${n.toLocaleString("es-VE", { maximumFractionDigits: 2 })} %`

const FUENTE: Record<Tasa["fuente"], string> = {
  token: "token de administración",
  operador: "a mano",
  url: "fuente"
}

export const TasaBcv = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [vista, setVista] = useState<Vista | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const [valor, setValor] = useState("")
  const [nota, setNota] = useState("")
  const [busy, setBusy] = useState(false)
  const actua = sesion.operador.rol === "tesoreria"

  const load = useCallback(() => {
    request<Vista>("GET", "/tasa-bcv")
      .then(setVista)
      .catch((e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])

  const run = async (what: () => Promise<Vista>, done: (v: Vista) => string) => {
    setError(null)
    setAviso("")
    setBusy(true)
    try {
      const v = await what()
      setVista(v)
      setAviso(done(v))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const fijar = (event: FormEvent) => {
    event.preventDefault()
    const texto = valor.trim().replace(",", ".")
    void run(
      () =>
        request<Vista>("POST", "/tasa-bcv", { ves_por_usd: texto, ...(nota.trim() === "" ? {} : { nota }) }),
      (v) =>
        v.estado === "pendiente_confirmacion" && v.pendiente !== null
          ? `Tasa propuesta: Bs ${tasaTexto(v.pendiente.ves_por_usd)} por dólar, a ${porcentaje(v.pendiente.salto_pct)} de la vigente. Otro operador de tesorería debe confirmarla; mientras tanto rige la vigente.`
          : `Tasa fijada: Bs ${tasaTexto(v.vigente?.ves_por_usd ?? 0)} por dólar.`
    )
  }

  const { preguntar, dialogo } = useConfirmacion()

  const resolver = async (p: Propuesta, decision: "confirmar" | "rechazar") => {
    if (
      decision === "confirmar" &&
      !(await preguntar({
        titulo: "¿Confirmar la tasa propuesta?",
        confirmar: "Sí, confirmar la tasa",
        texto: (
          <p>
            Bs {tasaTexto(p.ves_por_usd)} por dólar pasa a ser la tasa vigente desde ahora: los topes en
            dólares de todos los comercios se calculan con ella ({porcentaje(p.salto_pct)} de diferencia con
            la anterior).
          </p>
        )
      }))
    )
      return
    await run(
      () => request<Vista>("POST", `/tasa-bcv/propuestas/${p.id}/${decision}`, {}),
      (v) =>
        decision === "confirmar"
          ? `Tasa confirmada: Bs ${tasaTexto(v.vigente?.ves_por_usd ?? 0)} por dólar.`
          : `Tasa propuesta de Bs ${tasaTexto(p.ves_por_usd)} rechazada.`
    )
  }

  return (
    <section>
      <Title>Tasa BCV</Title>
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {vista === null ? (
        <p>Cargando…</p>
      ) : (
        <>
          <dl className="datos">
            <div>
              <dt>Tasa vigente</dt>
              <dd>
                {vista.vigente === null ? "Sin tasa" : `Bs ${tasaTexto(vista.vigente.ves_por_usd)} por dólar`}
              </dd>
            </div>
            <div>
              <dt>Actualizada</dt>
              <dd>{vista.vigente === null ? "—" : fechaHora(vista.vigente.actualizada_en)}</dd>
            </div>
            <div>
              <dt>Estado</dt>
              <dd>
                {vista.vencida
                  ? `Vencida (más de ${vista.max_horas} h): los cobros con límites en dólares se detienen`
                  : "Al día"}
              </dd>
            </div>
          </dl>
          {vista.pendiente === null ? null : (
            <section className="tarjeta" aria-labelledby="tasa-pendiente">
              <h2 id="tasa-pendiente">Tasa por confirmar</h2>
              <p>
                Bs {tasaTexto(vista.pendiente.ves_por_usd)} por dólar, propuesta por{" "}
                {vista.pendiente.propuesta_por === null || vista.pendiente.fuente !== "operador"
                  ? FUENTE[vista.pendiente.fuente]
                  : vista.pendiente.propuesta_por}{" "}
                el {fechaHora(vista.pendiente.creada_en)}: se aleja {porcentaje(vista.pendiente.salto_pct)} de
                la vigente (Bs {tasaTexto(vista.pendiente.anterior)}; el máximo sin confirmar es{" "}
                {porcentaje(vista.salto_max_pct)}). No se usa hasta que otro operador de tesorería la
                confirme.
                {vista.pendiente.nota === null ? null : ` Nota: ${vista.pendiente.nota}`}
              </p>
              {actua ? (
                <div className="acciones">
                  {vista.pendiente.operador_id === sesion.operador.id ? (
                    <p className="nota">La propusiste tú: otro operador de tesorería debe confirmarla.</p>
                  ) : (
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => void resolver(vista.pendiente as Propuesta, "confirmar")}
                    >
                      Confirmar tasa propuesta
                    </button>
                  )}
                  <button
                    type="button"
                    className="secundario"
                    disabled={busy}
                    onClick={() => void resolver(vista.pendiente as Propuesta, "rechazar")}
                  >
                    Rechazar tasa propuesta
                  </button>
                </div>
              ) : null}
            </section>
          )}
          {actua ? (
            <div className="acciones">
              <form onSubmit={fijar} aria-label="Fijar la tasa a mano">
                <div className="campo">
                  <label htmlFor="tasa-valor">Bolívares por dólar</label>
                  <input
                    id="tasa-valor"
                    inputMode="decimal"
                    required
                    value={valor}
                    onChange={(e) => setValor(e.target.value)}
                  />
                </div>
                <div className="campo">
                  <label htmlFor="tasa-nota">Nota</label>
                  <input id="tasa-nota" value={nota} onChange={(e) => setNota(e.target.value)} />
                </div>
                <button type="submit" disabled={busy}>
                  Fijar tasa
                </button>
              </form>
              {vista.fuente_configurada ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void run(
                      () => request<Vista>("POST", "/tasa-bcv/fuente"),
                      (v) => `Tasa de la fuente: Bs ${tasaTexto(v.vigente?.ves_por_usd ?? 0)} por dólar.`
                    )
                  }
                >
                  Traer de la fuente ahora
                </button>
              ) : null}
            </div>
          ) : (
            <p className="nota">
              Tu rol ({sesion.operador.rol}) solo puede consultar: fijar la tasa es de tesorería.
            </p>
          )}
          <h2>Historial</h2>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard (axe scrollable-region-focusable) */}
          <section className="desplazable" aria-label="Historial de tasas" tabIndex={0}>
            <table>
              <caption className="oculto">Tasas BCV, la más reciente primero</caption>
              <thead>
                <tr>
                  <th scope="col">Fecha</th>
                  <th scope="col">Bs por dólar</th>
                  <th scope="col">Origen</th>
                  <th scope="col">Fijada por</th>
                  <th scope="col">Confirmada por</th>
                </tr>
              </thead>
              <tbody>
                {vista.historial.map((t) => (
                  <tr key={`${t.actualizada_en}-${t.ves_por_usd}`}>
                    <td>{fechaHora(t.actualizada_en)}</td>
                    <td>{tasaTexto(t.ves_por_usd)}</td>
                    <td>{FUENTE[t.fuente]}</td>
                    <td>{t.fijada_por ?? "—"}</td>
                    <td>{t.confirmada_por ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
      {dialogo}
    </section>
  )
}
