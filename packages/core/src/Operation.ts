/**
 * Direct-API operation states (SPEC "Direct-API transaction states") and the notices each
 * move emits. `LIQUIDADA` and `RECHAZADA` are final; the others are waiting for the bank.
 */
import { Either } from "effect"

export const OperationStates = [
  "ACEPTADA",
  "PENDIENTE",
  "LIQUIDADA",
  "RECHAZADA",
  "ERROR",
  "DESCONOCIDA"
] as const
export type OperationState = (typeof OperationStates)[number]

/** What kind of money movement a `transaccion.*` notice is about (`data.operacion`). */
export const Operaciones = [
  "cobro",
  "pago",
  "reverso",
  "devolucion_debito",
  "devolucion",
  "devolucion_retorno"
] as const
export type Operacion = (typeof Operaciones)[number]

export const isFinal = (estado: OperationState): boolean => estado === "LIQUIDADA" || estado === "RECHAZADA"

export type TransaccionEvento = "transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada"

/** A notice to write to the outbox with the state change. */
export interface OperationNotice {
  readonly evento: TransaccionEvento
  /** Only a final state is news. */
  readonly estado: Extract<OperationState, "LIQUIDADA" | "RECHAZADA">
  readonly operacion: Operacion
}

/** The notices for an operation entering `to`: LIQUIDADA sends aprobada and liquidada together. */
const noticesOn = (to: OperationState, operacion: Operacion): ReadonlyArray<OperationNotice> => {
  switch (to) {
    case "LIQUIDADA":
      return [
        { evento: "transaccion.aprobada", estado: "LIQUIDADA", operacion },
        { evento: "transaccion.liquidada", estado: "LIQUIDADA", operacion }
      ]
    case "RECHAZADA":
      return [{ evento: "transaccion.rechazada", estado: "RECHAZADA", operacion }]
    default:
      // An ACEPTADA collection sends no notice yet; waiting states are not news.
      return []
  }
}

/** The notices due when an operation is first recorded in `estado` (a `pago_movil` is LIQUIDADA at once). */
export const initialNotices = (
  estado: OperationState,
  operacion: Operacion
): ReadonlyArray<OperationNotice> => noticesOn(estado, operacion)

/** A refused move: the operation already reached a final state, or the move is not allowed. */
export interface InvalidMove {
  readonly _tag: "InvalidMove"
  readonly from: OperationState
  readonly to: OperationState
}

const allowed: Readonly<Record<OperationState, ReadonlyArray<OperationState>>> = {
  ACEPTADA: ["PENDIENTE", "LIQUIDADA", "RECHAZADA", "DESCONOCIDA", "ERROR"],
  PENDIENTE: ["LIQUIDADA", "RECHAZADA", "DESCONOCIDA"],
  // A technical failure or an unknown outcome is settled by asking the bank, never by resending.
  ERROR: ["ACEPTADA", "PENDIENTE", "LIQUIDADA", "RECHAZADA", "DESCONOCIDA"],
  DESCONOCIDA: ["ACEPTADA", "PENDIENTE", "LIQUIDADA", "RECHAZADA"],
  LIQUIDADA: [],
  RECHAZADA: []
}

/** Whether an operation may move from `from` to `to` (staying put is always allowed). */
export const canMove = (from: OperationState, to: OperationState): boolean =>
  from === to || allowed[from].includes(to)

/**
 * Applies a bank observation. Staying in the same state emits nothing, so a repeated query
 * of a LIQUIDADA operation never sends `transaccion.aprobada` twice.
 */
export const move = (
  from: OperationState,
  to: OperationState,
  operacion: Operacion
): Either.Either<
  { readonly estado: OperationState; readonly notices: ReadonlyArray<OperationNotice> },
  InvalidMove
> => {
  if (from === to) return Either.right({ estado: from, notices: [] })
  if (!canMove(from, to)) return Either.left({ _tag: "InvalidMove", from, to })
  return Either.right({ estado: to, notices: noticesOn(to, operacion) })
}
