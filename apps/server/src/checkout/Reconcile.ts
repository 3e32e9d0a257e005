/**
 * What the payment page's reconciliation does with a waiting payment, as pure decisions: when
 * to ask the bank about an attempt, and which answer (if any) to apply after asking.
 */
import type { LinkMachine, Ports } from "@switch/core"

/**
 * An attempt still "sending" after its bank call's deadline (three tries of `bankTimeoutMs`,
 * HttpBank.ts) lost its process; the bank is asked about it. The same bound as the direct API's
 * lease (direct/Reconcile.ts).
 */
export const staleSendMs = (bankTimeoutMs: number) => bankTimeoutMs * 3 + 5_000

/** What an order the bank never came to know is settled as (direct/Reconcile.ts's `giveUp`). */
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

/** What to do after asking the bank about a waiting attempt. */
export type Decision =
  /** No news: leave the attempt and the link as they are. */
  | { readonly _tag: "Esperar" }
  /** Apply this answer (final, an acknowledgement, or "unknown" for a lost sending attempt). */
  | { readonly _tag: "Aplicar"; readonly answer: Ports.BankAnswer }
  /** Unresolved after the window and the bank cannot be asked: a person decides (the link stays in `revision`). */
  | { readonly _tag: "Revision" }

const wait: Decision = { _tag: "Esperar" }
const apply = (answer: Ports.BankAnswer): Decision => ({ _tag: "Aplicar", answer })

/**
 * What to do after asking. A query with no news changes nothing, except that a lost "sending"
 * attempt becomes unknown (the link goes to `revision`). An order the bank never acknowledged
 * and that is still unknown `abandonMs` after that is settled by what the bank says of it: one
 * the bank answers it never received was not done (`RECHAZADA BANCO_NO_DISPONIBLE`, the link
 * reopens); one the bank cannot be asked about (its query fails) may have been debited, so it
 * goes to a person and nothing is reopened or paid out meanwhile. Once the bank has
 * acknowledged the order (`ACEPTADA`/`PENDIENTE`), only its final answer closes it.
 */
export const decide = (input: {
  readonly linkEstado: LinkMachine.LinkState
  readonly attempt: Waiting
  readonly answer: Ports.BankAnswer
  readonly at: Date
  readonly abandonMs: number
}): Decision => {
  const { linkEstado, attempt, answer, at } = input
  const stillOpen = answer.estado === "ACEPTADA" || answer.estado === "PENDIENTE"
  if (stillOpen && linkEstado === "procesando") return wait
  if (answer.estado !== "DESCONOCIDA") return apply(answer)
  if (linkEstado === "procesando") return wait
  if (linkEstado !== "revision") return apply(answer)
  if (attempt.estado !== "DESCONOCIDA") return wait
  const unknownForMs = at.getTime() - attempt.actualizado_at.getTime()
  if (unknownForMs < input.abandonMs) return wait
  return answer.noRecibida === true ? apply(NOT_DONE) : { _tag: "Revision" }
}
