/**
 * Money in review, oldest first: settlements a bank left unclear, split parts in review,
 * direct-API operations waiting for a person and links in `revision`, each with the bank's
 * latest answer and its history. A `tesoreria` operator asks the bank again, marks it paid with
 * the bank's reference, closes it without paying (with a note), or (settlements and split
 * parts) pays it through the bank, which a second operator confirms (four eyes). Marking paid
 * and closing from SWITCH_CUATRO_OJOS_DESDE take four eyes too: the first request shows as
 * pending confirmation, another `tesoreria` operator confirms it (its requester sees no confirm
 * button) and anyone of `tesoreria` may cancel it. The server checks the role and the second
 * operator.
 */
import { useCallback, useEffect, useState } from "react"
import { bolivares, fechaHora } from "../format.js"
import { errorText, request, type SesionOperador } from "./api.js"
import { AccionesCargoTarjeta } from "./RevisionCargoTarjeta.js"
import { Form, Historial, type Respuesta, respuestaTexto } from "./RevisionPartes.js"
import * as Preguntas from "./RevisionPreguntas.js"
import { Title } from "./router.js"

interface Item {
  /** `liquidacion`, `link`, `reparto`, `transaccion`, or a source this screen does not act on yet. */
  readonly tipo: string
  readonly id: string
  readonly link_id: string | null
  readonly comercio: string
  readonly mode: "test" | "live"
  readonly monto: number
  readonly motivo: string | null
  readonly con_reparto: boolean
  readonly desde: string
  readonly edad_segundos: number
  readonly indice?: number
  readonly beneficiario?: string
  readonly operacion?: string
  /** A split part a refund stopped: never paid through the bank. */
  readonly detenido?: boolean
  readonly ultima_respuesta?: Respuesta | null
  /** Marking paid or closing asked for, waiting for a second operator. */
  readonly accion_pendiente?: AccionPendiente | null
  /** A card charge's: `faltante` or `duplicado`, its card reference and surcharge. */
  readonly estado?: "faltante" | "duplicado"
  readonly referencia?: string | null
  readonly recargo_tarjeta?: number
}

interface AccionPendiente {
  readonly id: string
  readonly accion: "marcar_pagada" | "cerrar"
  readonly monto: number
  readonly solicitado_por: string
  readonly solicitado_por_id: string
  readonly creada_en: string
}

interface Resultado {
  /** `pendiente_confirmacion` when the action waits for a second operator. */
  readonly estado?: string
  readonly referencia_banco?: string | null
  readonly parte?: { readonly estado: string; readonly referencia_bancaria: string | null }
  readonly banco?: { readonly estado: string; readonly motivo_rechazo: string | null }
  readonly pago?: { readonly estado: string; readonly requiere_confirmacion?: boolean }
}

/**
 * What each source of the queue is called and where its actions live; a source with no entry
 * is listed without actions. `pagar`: it can be paid through the bank (four eyes).
 */
const FUENTES: Record<
  string,
  { readonly nombre: string; readonly ruta: (i: Item) => string; readonly pagar: boolean }
> = {
  liquidacion: { nombre: "Liquidación", ruta: (i) => `/revision/liquidaciones/${i.id}`, pagar: true },
  reparto: {
    nombre: "Parte del reparto",
    ruta: (i) => `/revision/repartos/${i.link_id}/${i.indice}`,
    pagar: true
  },
  transaccion: { nombre: "Operación directa", ruta: (i) => `/revision/transacciones/${i.id}`, pagar: false },
  link: { nombre: "Link", ruta: (i) => `/revision/links/${i.id}`, pagar: false },
  // A refund's order is never sent again: ask the bank, mark it paid, or close it unpaid.
  reembolso: {
    nombre: "Reembolso desde el portal",
    ruta: (i) => `/revision/reembolsos/${i.id}`,
    pagar: false
  }
}

/**
 * Sources not in {@link FUENTES}: their name. The card pilot's charges act through their own
 * component (RevisionCargoTarjeta.tsx): the processor, not the bank, and "acreditado".
 */
const SIN_ACCIONES: Record<string, string> = { cargo_tarjeta: "Cargo con tarjeta" }

/** Sources named in the masculine ("pagado", "cerrado"): a link, a refund. */
const MASCULINO = new Set(["link", "reembolso"])

const estadoDe = (r: Resultado) => r.banco?.estado ?? r.parte?.estado ?? r.estado ?? "—"

const PENDIENTE = "pendiente_confirmacion"

/** What marking paid says once done (the reference, when the answer carries it). */
const marcadaTexto = (item: Item, r: Resultado) => {
  const ref = r.referencia_banco ?? r.parte?.referencia_bancaria ?? null
  const hecho = MASCULINO.has(item.tipo) ? "Marcado pagado" : "Marcada pagada"
  return ref === null ? `${hecho}.` : `${hecho} con la referencia ${ref}.`
}

const cerradaTexto = (item: Item) =>
  item.tipo === "link"
    ? "Cerrado sin cobro: el link vuelve a estar pendiente."
    : item.tipo === "reembolso"
      ? "Cerrado sin pagar: el monto vuelve a poder reembolsarse."
      : "Cerrada sin pagar."

const accionTexto = (item: Item, accion: AccionPendiente["accion"]) =>
  accion === "marcar_pagada"
    ? MASCULINO.has(item.tipo)
      ? "marcar pagado"
      : "marcar pagada"
    : item.tipo === "link"
      ? "cerrar sin cobro"
      : "cerrar sin pagar"

/** The answer to a first request from the threshold: nothing done yet. */
const pedidoTexto = (item: Item, accion: AccionPendiente["accion"]) =>
  `Pedido "${accionTexto(item, accion)}": otro operador de tesorería debe confirmarlo; nada cambia hasta entonces.`

const edad = (segundos: number) =>
  segundos < 3600
    ? `${Math.floor(segundos / 60)} min`
    : segundos < 86_400
      ? `${Math.floor(segundos / 3600)} h`
      : `${Math.floor(segundos / 86_400)} d`

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

  const post = async (path: string, body: Record<string, string>, done: (r: Resultado) => string) => {
    setError(null)
    setAviso("")
    try {
      const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v.trim() !== ""))
      setAviso(done(await request<Resultado>("POST", path, clean)))
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  const act =
    (item: Item, path: string, body: Record<string, string>, done: (r: Resultado) => string) => async () => {
      const fuente = FUENTES[item.tipo]
      if (fuente === undefined) return
      await post(`${fuente.ruta(item)}/${path}`, body, done)
    }

  /** The waiting action: who asked and when; confirm (another operator) or cancel. */
  const pendienteDe = (item: Item, pendiente: AccionPendiente) => {
    const ruta = pendiente.accion === "marcar_pagada" ? "marcar-pagada" : "cerrar"
    const propia = pendiente.solicitado_por_id === sesion.operador.id
    return (
      <div className="pendiente">
        <p className="nota">
          <strong>Pendiente de confirmación:</strong> {pendiente.solicitado_por} pidió "
          {accionTexto(item, pendiente.accion)}" el {fechaHora(pendiente.creada_en)}.{" "}
          {propia ? "Otro operador de tesorería debe confirmarlo." : ""}
        </p>
        {actua ? (
          <div className="acciones">
            {propia ? null : (
              <Form
                label={`Confirmar ${accionTexto(item, pendiente.accion)}`}
                name={`Confirmar ${accionTexto(item, pendiente.accion)} ${item.id}`}
                pregunta={() => Preguntas.confirmarPedido(item, pendiente.accion, pendiente.solicitado_por)}
                onSubmit={act(item, `${ruta}/confirmar`, {}, (r) =>
                  pendiente.accion === "marcar_pagada" ? marcadaTexto(item, r) : cerradaTexto(item)
                )}
              />
            )}
            <Form
              label="Anular el pedido"
              name={`Anular ${item.id}`}
              onSubmit={() =>
                post(`/revision/acciones/${pendiente.id}/anular`, {}, () => "Pedido anulado: nada cambió.")
              }
            />
          </div>
        ) : null}
      </div>
    )
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
                {FUENTES[item.tipo]?.nombre ?? SIN_ACCIONES[item.tipo] ?? item.tipo} de {item.comercio}:{" "}
                {bolivares(item.monto)}
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
                  <dt>Motivo</dt>
                  <dd>{item.motivo ?? "—"}</dd>
                </div>
                <div>
                  <dt>Última respuesta del banco</dt>
                  <dd>
                    {item.ultima_respuesta === undefined || item.ultima_respuesta === null
                      ? "—"
                      : `${respuestaTexto(item.ultima_respuesta)}, ${fechaHora(item.ultima_respuesta.created_at)}`}
                  </dd>
                </div>
                {item.beneficiario === undefined ? null : (
                  <div>
                    <dt>Beneficiario</dt>
                    <dd>{item.beneficiario}</dd>
                  </div>
                )}
                {item.operacion === undefined ? null : (
                  <div>
                    <dt>Operación</dt>
                    <dd>{item.operacion}</dd>
                  </div>
                )}
                <div>
                  <dt>{item.tipo === "transaccion" ? "Operación" : "Link"}</dt>
                  <dd>
                    <code>{item.tipo === "transaccion" ? item.id : (item.link_id ?? "—")}</code>
                  </dd>
                </div>
              </dl>
              <Historial item={item} />
              {item.tipo === "liquidacion" && item.con_reparto ? (
                <p className="nota">Tiene reparto: se resuelve por partes.</p>
              ) : null}
              {item.tipo === "cargo_tarjeta" ? (
                <AccionesCargoTarjeta item={item} actua={actua} operadorId={sesion.operador.id} post={post} />
              ) : item.accion_pendiente === undefined || item.accion_pendiente === null ? null : (
                pendienteDe(item, item.accion_pendiente)
              )}
              {actua &&
              FUENTES[item.tipo] !== undefined &&
              !(item.tipo === "liquidacion" && item.con_reparto) ? (
                <div className="acciones">
                  <Form
                    label="Consultar al banco ahora"
                    name={`Consultar ${item.id}`}
                    onSubmit={act(item, "consultar", {}, (r) => `El banco responde: ${estadoDe(r)}.`)}
                  />
                  {item.accion_pendiente === undefined || item.accion_pendiente === null ? (
                    <>
                      <Form
                        label={MASCULINO.has(item.tipo) ? "Marcar pagado" : "Marcar pagada"}
                        name={`Marcar pagada ${item.id}`}
                        fields={[
                          { key: "referencia_banco", label: "Referencia del banco", required: true },
                          { key: "nota", label: "Nota", required: false }
                        ]}
                        pregunta={(v) => Preguntas.marcarPagada(item, v.referencia_banco ?? "")}
                        onSubmit={(v) =>
                          act(item, "marcar-pagada", v, (r) =>
                            r.estado === PENDIENTE
                              ? pedidoTexto(item, "marcar_pagada")
                              : marcadaTexto(item, { ...r, referencia_banco: v.referencia_banco ?? null })
                          )()
                        }
                      />
                      <Form
                        label={item.tipo === "link" ? "Cerrar sin cobro" : "Cerrar sin pagar"}
                        name={`Cerrar ${item.id}`}
                        peligro
                        fields={[{ key: "nota", label: "Nota (obligatoria)", required: true }]}
                        pregunta={(v) => Preguntas.cerrar(item, v.nota ?? "")}
                        onSubmit={(v) =>
                          act(item, "cerrar", v, (r) =>
                            r.estado === PENDIENTE ? pedidoTexto(item, "cerrar") : cerradaTexto(item)
                          )()
                        }
                      />
                    </>
                  ) : null}
                  {FUENTES[item.tipo]?.pagar === true &&
                  item.detenido !== true &&
                  (item.accion_pendiente === undefined || item.accion_pendiente === null) ? (
                    <>
                      <Form
                        label="Pagar por el banco"
                        name={`Pagar ${item.id}`}
                        pregunta={() => Preguntas.pagar(item)}
                        onSubmit={act(item, "pagar", {}, (r) =>
                          r.pago?.requiere_confirmacion === true
                            ? "Pago pedido: otro operador de tesorería debe confirmarlo."
                            : `Pago enviado: ${r.pago?.estado ?? estadoDe(r)}.`
                        )}
                      />
                      <Form
                        label="Confirmar pago"
                        name={`Confirmar pago ${item.id}`}
                        pregunta={() => Preguntas.confirmarPago(item)}
                        onSubmit={act(item, "pagar/confirmar", {}, (r) =>
                          r.pago?.estado === "pagado"
                            ? `Pagada: referencia ${r.referencia_banco ?? r.parte?.referencia_bancaria ?? ""}.`
                            : `El banco responde: ${estadoDe(r)}.`
                        )}
                      />
                    </>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
