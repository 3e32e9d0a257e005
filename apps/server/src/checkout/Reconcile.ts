/**
 * What the payment page's reconciliation does with a waiting payment, as pure decisions: when
 * to ask the bank about an attempt, and which answer (if any) to apply after asking.
 */
import type { LinkMachine, Ports } from "@switch/core"
import { Option } from "effect"

/**
 * An attempt still "sending" after its bank call's deadline (three tries of `bankTimeoutMs`,
 * HttpBank.ts) lost its process; the bank is asked about it. The same bound as the direct API's
 * lease (bank/Reconcile.ts).
 */
export const staleSendMs = (bankTimeoutMs: number) => bankTimeoutMs * 3 + 5_000

/** What an order the bank never came to know is settled as (bank/Reconcile.ts's `giveUp`). */
export const NOT_DONE: Ports.BankAnswer = {
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: "BANCO_NO_DISPONIBLE"
}

export interface Waiting {
  /** The attempt's own state: `ENVIANDO` while its bank call runs, then the bank's last answer. */
  readonly estado: string
  readonly created_at: Date
  /** When the attempt last changed: for `DESCONOCIDA`, since when it is unknown. */
  readonly actualizado_at: Date
}

/** Whether to ask the bank now: not while the attempt's own bank call may still be running. */
export const shouldAsk = (attempt: Waiting, at: Date, bankTimeoutMs: number): boolean =>
  attempt.estado !== "ENVIANDO" || at.getTime() - attempt.created_at.getTime() >= staleSendMs(bankTimeoutMs)

/**
 * The answer to apply after asking, or none. A query with no news changes nothing, except that
 * a lost "sending" attempt becomes unknown (the link goes to `revision`), and an order the bank
 * has never acknowledged and still does not know `abandonMs` after that was not done: it is
 * settled `RECHAZADA BANCO_NO_DISPONIBLE` and the link reopens instead of waiting in `revision`
 * forever. Once the bank has acknowledged the order (`ACEPTADA`/`PENDIENTE`), only its final
 * answer closes it: a query that fails then is never taken for "not done".
 */
export const toApply = (input: {
  readonly linkEstado: LinkMachine.LinkState
  readonly attempt: Waiting
  readonly answer: Ports.BankAnswer
  readonly at: Date
  readonly abandonMs: number
}): Option.Option<Ports.BankAnswer> => {
  const { linkEstado, attempt, answer, at } = input
  const stillOpen = answer.estado === "ACEPTADA" || answer.estado === "PENDIENTE"
  if (stillOpen && linkEstado === "procesando") return Option.none()
  if (answer.estado !== "DESCONOCIDA") return Option.some(answer)
  if (linkEstado === "procesando") return Option.none()
  if (linkEstado !== "revision") return Option.some(answer)
  if (attempt.estado !== "DESCONOCIDA") return Option.none()
  const unknownForMs = at.getTime() - attempt.actualizado_at.getTime()
  return unknownForMs < input.abandonMs ? Option.none() : Option.some(NOT_DONE)
}
