/**
 * What the money-in-review queue's confirmation dialogs say (Revision.tsx): for each action
 * that cannot be undone, what it will do to this item, in the words its source uses (a link
 * is "pagado" and "cerrado sin cobro", a settlement "pagada").
 */
import { bolivares } from "../format.js"
import type { Pregunta } from "./Confirmacion.js"

export interface Objeto {
  readonly tipo: string
  readonly id: string
  readonly comercio: string
  readonly monto: number
  readonly beneficiario?: string
}

const NOMBRE: Record<string, string> = {
  liquidacion: "la liquidación",
  reparto: "la parte del reparto",
  transaccion: "la operación directa",
  link: "el link",
  reembolso: "el reembolso"
}

const nombre = (o: Objeto) => `${NOMBRE[o.tipo] ?? o.tipo} de ${o.comercio} por ${bolivares(o.monto)}`

const CUATRO_OJOS =
  "Si el monto llega al umbral de cuatro ojos, queda pedido y otro operador de tesorería debe confirmarlo; hasta entonces nada cambia."

/** "Marcar pagada": recorded by hand with the bank's reference; nothing is sent to the bank. */
export const marcarPagada = (o: Objeto, referencia: string): Pregunta => ({
  titulo: o.tipo === "link" || o.tipo === "reembolso" ? "¿Marcar pagado?" : "¿Marcar pagada?",
  confirmar: o.tipo === "link" || o.tipo === "reembolso" ? "Sí, marcar pagado" : "Sí, marcar pagada",
  texto: (
    <>
      <p>
        Se registrará {nombre(o)} como pagado con la referencia del banco <strong>{referencia}</strong>. No se
        envía dinero: confirma que el banco ya lo movió.
      </p>
      <p>Sale de la revisión y no se puede deshacer. {CUATRO_OJOS}</p>
    </>
  )
})

/** "Cerrar sin pagar" (a link: "sin cobro"), with the operator's note. */
export const cerrar = (o: Objeto, nota: string): Pregunta => ({
  titulo: o.tipo === "link" ? "¿Cerrar sin cobro?" : "¿Cerrar sin pagar?",
  confirmar: o.tipo === "link" ? "Sí, cerrar sin cobro" : "Sí, cerrar sin pagar",
  peligro: true,
  texto: (
    <>
      <p>
        {o.tipo === "link"
          ? `Se cerrará ${nombre(o)} sin cobro: el link vuelve a estar pendiente y el pagador puede intentarlo de nuevo.`
          : o.tipo === "reembolso"
            ? `Se cerrará ${nombre(o)} sin pagar: el monto vuelve a poder reembolsarse.`
            : `Se cerrará ${nombre(o)} sin pagar: el dinero no se envía${o.beneficiario === undefined ? "" : ` a ${o.beneficiario}`} y el comercio ve el motivo.`}
      </p>
      <p>
        Nota: «{nota}». No se puede deshacer. {CUATRO_OJOS}
      </p>
    </>
  )
})

/** "Pagar por el banco": an order to the bank, after a second operator's confirmation. */
export const pagar = (o: Objeto): Pregunta => ({
  titulo: "¿Pagar por el banco?",
  confirmar: "Sí, pedir el pago",
  texto: (
    <p>
      Se pedirá pagar {nombre(o)} por el banco
      {o.beneficiario === undefined ? " a la cuenta de liquidación del comercio" : ` a ${o.beneficiario}`}.
      Otro operador de tesorería debe confirmarlo antes de que salga la orden (por debajo del umbral de cuatro
      ojos sale ya).
    </p>
  )
})

/** "Confirmar pago": the order leaves for the bank now. */
export const confirmarPago = (o: Objeto): Pregunta => ({
  titulo: "¿Confirmar el pago?",
  confirmar: "Sí, enviar el pago",
  texto: (
    <p>
      La orden de pago de {nombre(o)} sale ahora hacia el banco y no se puede retirar. Si el banco no la
      confirma al momento, el sistema vuelve a consultarla solo.
    </p>
  )
})

/** Confirming another operator's "marcar pagada" or "cerrar". */
export const confirmarPedido = (o: Objeto, accion: "marcar_pagada" | "cerrar", quien: string): Pregunta => ({
  titulo:
    accion === "marcar_pagada" ? "¿Confirmar el marcado como pagado?" : "¿Confirmar el cierre sin pagar?",
  confirmar: "Sí, confirmar",
  peligro: accion === "cerrar",
  texto: (
    <p>
      {quien} pidió{" "}
      {accion === "marcar_pagada" ? `marcar pagado ${nombre(o)}` : `cerrar sin pagar ${nombre(o)}`}. Al
      confirmar se aplica ahora con lo que pidió y no se puede deshacer.
    </p>
  )
})
