/**
 * Money in review, oldest first: settlements a bank left unclear and links in `revision`. A
 * `tesoreria` operator asks the bank again, marks a settlement paid with the bank's reference,
 * closes it without paying (with a note), or pays it through the bank, which a second operator
 * confirms (four eyes). The server checks the role and the second operator.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { errorText, request, type SesionOperador } from "./api.js"
import { Title } from "./router.js"

interface Item {
  readonly tipo: "liquidacion" | "link" | "reembolso"
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: "test" | "live"
  readonly monto: number
  readonly motivo: string | null
  readonly con_reparto: boolean
  readonly desde: string
  readonly edad_segundos: number
}

interface Resultado {
  readonly estado: string
  readonly referencia_banco?: string | null
  readonly banco?: { readonly estado: string; readonly motivo_rechazo: string | null }
  readonly pago?: { readonly estado: string; readonly requiere_confirmacion?: boolean }
}

const bs = new Intl.NumberFormat("es-VE", { style: "currency", currency: "VES" })

const edad = (segundos: number) =>
  segundos < 3600
    ? `${Math.floor(segundos / 60)} min`
    : segundos < 86_400
      ? `${Math.floor(segundos / 3600)} h`
      : `${Math.floor(segundos / 86_400)} d`

const Form = (props: {
  readonly label: string
  readonly name: string
  readonly fields?: ReadonlyArray<{
    readonly key: string
    readonly label: string
    readonly required: boolean
  }>
  readonly peligro?: boolean
  readonly onSubmit: (values: Record<string, string>) => Promise<void>
}) => {
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
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
    </form>
  )
}

export const Revision = ({ sesion }: { readonly sesion: SesionOperador }) => {
  const [items, setItems] = useState<ReadonlyArray<Item> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const actua = sesion.operador.rol === "tesoreria"

  const load = useCallback(() => {
    request<{ data: ReadonlyArray<Item> }>("GET", "/revision")
      .then((page) => setItems(page.data))
      .catch((e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])

  const act =
    (item: Item, path: string, body: Record<string, string>, done: (r: Resultado) => string) => async () => {
      setError(null)
      setAviso("")
      try {
        const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v.trim() !== ""))
        const result = await request<Resultado>("POST", `/revision/liquidaciones/${item.id}/${path}`, clean)
        setAviso(done(result))
        load()
      } catch (e) {
        setError(errorText(e))
      }
    }

  return (
    <section>
      <Title>Dinero en revisión</Title>
      {actua ? null : (
        <p className="nota">Tu rol ({sesion.operador.rol}) solo puede consultar: resolver es de tesorería.</p>
      )}
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {items === null ? (
        <p>Cargando…</p>
      ) : items.length === 0 ? (
        <p>No hay dinero en revisión.</p>
      ) : (
        <ul className="lista-simple comercios">
          {items.map((item) => (
            <li key={`${item.tipo}-${item.id}`}>
              <h2>
                {item.tipo === "liquidacion"
                  ? "Liquidación"
                  : item.tipo === "reembolso"
                    ? "Reembolso"
                    : "Link"}{" "}
                de {item.comercio}: {bs.format(item.monto)}
              </h2>
              <dl className="datos">
                <div>
                  <dt>Antigüedad</dt>
                  <dd>{edad(item.edad_segundos)}</dd>
                </div>
                <div>
                  <dt>Modo</dt>
                  <dd>{item.mode}</dd>
                </div>
                <div>
                  <dt>Última respuesta del banco</dt>
                  <dd>{item.motivo ?? "—"}</dd>
                </div>
                <div>
                  <dt>Link</dt>
                  <dd>
                    <code>{item.link_id ?? "—"}</code>
                  </dd>
                </div>
              </dl>
              {item.con_reparto ? (
                <p className="nota">Tiene reparto: se resuelve por partes (aún no desde la consola).</p>
              ) : null}
              {actua && item.tipo === "liquidacion" && !item.con_reparto ? (
                <div className="acciones">
                  <Form
                    label="Consultar al banco ahora"
                    name={`Consultar ${item.id}`}
                    onSubmit={act(
                      item,
                      "consultar",
                      {},
                      (r) => `El banco responde: ${r.banco?.estado ?? r.estado}.`
                    )}
                  />
                  <Form
                    label="Marcar pagada"
                    name={`Marcar pagada ${item.id}`}
                    fields={[
                      { key: "referencia_banco", label: "Referencia del banco", required: true },
                      { key: "nota", label: "Nota", required: false }
                    ]}
                    onSubmit={(v) =>
                      act(
                        item,
                        "marcar-pagada",
                        v,
                        (r) => `Marcada pagada con la referencia ${r.referencia_banco}.`
                      )()
                    }
                  />
                  <Form
                    label="Cerrar sin pagar"
                    name={`Cerrar ${item.id}`}
                    peligro
                    fields={[{ key: "nota", label: "Nota (obligatoria)", required: true }]}
                    onSubmit={(v) => act(item, "cerrar", v, () => "Cerrada sin pagar.")()}
                  />
                  <Form
                    label="Pagar por el banco"
                    name={`Pagar ${item.id}`}
                    onSubmit={act(item, "pagar", {}, (r) =>
                      r.pago?.requiere_confirmacion === true
                        ? "Pago pedido: otro operador de tesorería debe confirmarlo."
                        : `Pago enviado: ${r.pago?.estado ?? r.estado}.`
                    )}
                  />
                  <Form
                    label="Confirmar pago"
                    name={`Confirmar pago ${item.id}`}
                    onSubmit={act(item, "pagar/confirmar", {}, (r) =>
                      r.estado === "LIQUIDADA"
                        ? `Pagada: referencia ${r.referencia_banco}.`
                        : `El banco responde: ${r.banco?.estado}.`
                    )}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
