/**
 * The card pilot's charges in the money-in-review queue (operador/cola/CargosTarjeta.ts on the
 * server): a charge missing from the processor's nightly close (`faltante`), or one approved when
 * its link had been paid another way (`duplicado`, a possible double charge). A `tesoreria`
 * operator asks the processor again, marks a missing charge credited with the credit's
 * reference (the merchant is settled), or closes either with a note (a duplicated one once the
 * payer is refunded at the processor). From the four-eyes threshold the first request waits for
 * another `tesoreria` operator, as every source's resolutions (Revision.tsx).
 */
import { bolivares, fechaHora } from "../format.js"
import type { Pregunta } from "./Confirmacion.js"
import { Form } from "./RevisionPartes.js"

type Accion = "marcar_pagada" | "cerrar"

export interface CargoItem {
  readonly id: string
  readonly comercio: string
  /** Bolivars, with the tip; without the surcharge. */
  readonly monto: number
  readonly estado?: "faltante" | "duplicado"
  readonly referencia?: string | null
  readonly recargo_tarjeta?: number
  readonly accion_pendiente?: {
    readonly id: string
    readonly accion: Accion
    readonly solicitado_por: string
    readonly solicitado_por_id: string
    readonly creada_en: string
  } | null
}

interface Resultado {
  readonly estado?: string
  /** `consultar`: what the processor said (`Cobrado`, `NoCobrado`, `SinRespuesta`…). */
  readonly procesador?: string
}

type Post = (path: string, body: Record<string, string>, done: (r: Resultado) => string) => Promise<void>

const ACCION: Record<Accion, string> = { marcar_pagada: "marcar acreditado", cerrar: "cerrar con nota" }
const RUTA: Record<Accion, string> = { marcar_pagada: "marcar-acreditado", cerrar: "cerrar" }
const PENDIENTE = "pendiente_confirmacion"

const CUATRO_OJOS =
  "Si el monto llega al umbral de cuatro ojos, queda pedido y otro operador de tesorería debe confirmarlo; hasta entonces nada cambia."

const nombre = (item: CargoItem) => `el cargo con tarjeta de ${item.comercio} por ${bolivares(item.monto)}`

const pedido = (accion: Accion) =>
  `Pedido "${ACCION[accion]}": otro operador de tesorería debe confirmarlo; nada cambia hasta entonces.`

const hecho = (accion: Accion) =>
  accion === "marcar_pagada"
    ? "Marcado acreditado: se liquida al comercio y se le envía link.acreditado."
    : "Cerrado con nota: no se liquida al comercio."

const marcarAcreditado = (item: CargoItem, referencia: string): Pregunta => ({
  titulo: "¿Marcar acreditado?",
  confirmar: "Sí, marcar acreditado",
  texto: (
    <>
      <p>
        Se dará por acreditado {nombre(item)} con la referencia del crédito <strong>{referencia}</strong>: se
        liquida al comercio (sin el recargo) y se le envía link.acreditado. Confirma que el procesador ya
        acreditó el cargo.
      </p>
      <p>No se puede deshacer. {CUATRO_OJOS}</p>
    </>
  )
})

const cerrarCargo = (item: CargoItem, nota: string): Pregunta => ({
  titulo: "¿Cerrar el cargo con nota?",
  confirmar: "Sí, cerrar",
  peligro: true,
  texto: (
    <>
      <p>
        Se cerrará {nombre(item)} sin liquidarlo al comercio
        {item.estado === "duplicado"
          ? ": confirma que el pagador ya recibió su reembolso en el procesador."
          : "."}
      </p>
      <p>
        Nota: «{nota}». No se puede deshacer. {CUATRO_OJOS}
      </p>
    </>
  )
})

const confirmarPedido = (item: CargoItem, accion: Accion, quien: string): Pregunta => ({
  titulo: accion === "marcar_pagada" ? "¿Confirmar el acreditado?" : "¿Confirmar el cierre con nota?",
  confirmar: "Sí, confirmar",
  peligro: accion === "cerrar",
  texto: (
    <p>
      {quien} pidió {ACCION[accion]} {nombre(item)}. Al confirmar se aplica ahora con lo que pidió y no se
      puede deshacer.
    </p>
  )
})

export const AccionesCargoTarjeta = ({
  item,
  actua,
  operadorId,
  post
}: {
  readonly item: CargoItem
  /** Whether the operator resolves (`tesoreria`) or only reads. */
  readonly actua: boolean
  readonly operadorId: string
  readonly post: Post
}) => {
  const base = `/revision/cargos-tarjeta/${item.id}`
  const duplicado = item.estado === "duplicado"
  const pendiente = item.accion_pendiente ?? null
  return (
    <>
      <dl className="datos">
        <div>
          <dt>Estado del cargo</dt>
          <dd>
            {duplicado ? "Duplicado: posible doble cobro al pagador" : "Faltante en el cierre del procesador"}
          </dd>
        </div>
        <div>
          <dt>Referencia de la tarjeta</dt>
          <dd>{item.referencia ?? "—"}</dd>
        </div>
        <div>
          <dt>Recargo (del pagador, no del comercio)</dt>
          <dd>{bolivares(item.recargo_tarjeta ?? 0)}</dd>
        </div>
      </dl>
      {pendiente === null ? null : (
        <div className="pendiente">
          <p className="nota">
            <strong>Pendiente de confirmación:</strong> {pendiente.solicitado_por} pidió "
            {ACCION[pendiente.accion]}" el {fechaHora(pendiente.creada_en)}.{" "}
            {pendiente.solicitado_por_id === operadorId ? "Otro operador de tesorería debe confirmarlo." : ""}
          </p>
          {actua ? (
            <div className="acciones">
              {pendiente.solicitado_por_id === operadorId ? null : (
                <Form
                  label={`Confirmar ${ACCION[pendiente.accion]}`}
                  name={`Confirmar ${ACCION[pendiente.accion]} ${item.id}`}
                  pregunta={() => confirmarPedido(item, pendiente.accion, pendiente.solicitado_por)}
                  onSubmit={() =>
                    post(`${base}/${RUTA[pendiente.accion]}/confirmar`, {}, () => hecho(pendiente.accion))
                  }
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
      )}
      {actua ? (
        <div className="acciones">
          <Form
            label="Consultar al procesador"
            name={`Consultar ${item.id}`}
            onSubmit={() =>
              post(
                `${base}/consultar`,
                {},
                (r) => `El procesador responde: ${r.procesador ?? "—"}; el cargo está ${r.estado ?? "—"}.`
              )
            }
          />
          {pendiente !== null ? null : (
            <>
              {duplicado ? null : (
                <Form
                  label="Marcar acreditado"
                  name={`Marcar acreditado ${item.id}`}
                  fields={[
                    { key: "referencia", label: "Referencia del crédito", required: true },
                    { key: "nota", label: "Nota", required: false }
                  ]}
                  pregunta={(v) => marcarAcreditado(item, v.referencia ?? "")}
                  onSubmit={(v) =>
                    post(`${base}/marcar-acreditado`, v, (r) =>
                      r.estado === PENDIENTE ? pedido("marcar_pagada") : hecho("marcar_pagada")
                    )
                  }
                />
              )}
              <Form
                label="Cerrar con nota"
                name={`Cerrar ${item.id}`}
                peligro
                fields={[{ key: "nota", label: "Nota (obligatoria)", required: true }]}
                pregunta={(v) => cerrarCargo(item, v.nota ?? "")}
                onSubmit={(v) =>
                  post(`${base}/cerrar`, v, (r) =>
                    r.estado === PENDIENTE ? pedido("cerrar") : hecho("cerrar")
                  )
                }
              />
            </>
          )}
        </div>
      ) : null}
    </>
  )
}
