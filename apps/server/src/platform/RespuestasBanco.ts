/**
 * The bank answers kept for the review queue (`respuestas_banco`), written wherever an answer
 * reaches an item in review: the queue's own actions (operador/cola), the settlement job and the
 * split's payments (settlement/). Each keeps the normalised answer and, beside it, the bank's own
 * code and words (issue 45), so "Motivo DESCONOCIDO" never hides an explicit rejection.
 */
import type { SqlClient } from "@effect/sql"
import type { Ports } from "@switch/core"
import { Effect } from "effect"

/** Keeps one bank answer in the item's history; in the caller's transaction when it has one. */
export const guardar = (
  sql: SqlClient.SqlClient,
  input: {
    readonly objeto_tipo: string
    readonly objeto_id: string
    readonly answer: Ports.BankAnswer
    readonly origen: "operador" | "envio"
    readonly operadorId: string | null
  }
) =>
  sql`
      insert into respuestas_banco (objeto_tipo, objeto_id, estado, referencia_banco, motivo_rechazo, codigo_banco,
        mensaje_banco, origen, operador_id)
      values (${input.objeto_tipo}, ${input.objeto_id}, ${input.answer.estado}, ${input.answer.referencia_banco},
        ${input.answer.motivo_rechazo}, ${input.answer.codigo_banco ?? null}, ${input.answer.mensaje_banco ?? null},
        ${input.origen}, ${input.operadorId})`.pipe(Effect.asVoid, Effect.orDie)

/**
 * Why an answer put an item in review, in one line: the normalised reason (or the state) and,
 * when the bank said them, its own code and words: `DESCONOCIDO (banco 05: Transacción no
 * aprobada)`.
 */
export const motivo = (answer: Ports.BankAnswer): string => {
  const base = answer.motivo_rechazo ?? answer.estado
  const codigo = answer.codigo_banco ?? null
  const mensaje = answer.mensaje_banco ?? null
  if (codigo === null && mensaje === null) return base
  return `${base} (banco${codigo === null ? "" : ` ${codigo}`}${mensaje === null ? "" : `: ${mensaje}`})`
}
