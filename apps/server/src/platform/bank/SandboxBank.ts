/**
 * The sandbox bank behind test links and test keys: deterministic, in-process, never moves
 * money. SPEC's magic codes decide a debit: 11111111 rejects, 11111112 SALDO_INSUFICIENTE,
 * 11111113 OTP_INVALIDO, 11111114 BANCO_NO_DISPONIBLE, 22222222 stays pending and confirms by
 * itself after 30 s, 33333333 after 8 s, any other 8 digits approve at once. Every debit is a
 * row of `banco_prueba`, so a delayed confirmation holds across processes and restarts, and a
 * repeated operation id answers what it answered the first time.
 */
import { randomInt } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Ports, Resultado } from "@switch/core"
import { Clock, Effect, Layer } from "effect"
import { SandboxBank } from "./Banks.js"

/** The current time, from Effect's Clock (tests provide their own). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** How long the delayed magic codes stay pending. */
export const DEMORAS_MS: Readonly<Record<string, number>> = { "22222222": 30_000, "33333333": 8_000 }

const RECHAZOS: Readonly<Record<string, Resultado.MotivoRechazo>> = {
  "11111111": "DESCONOCIDO",
  "11111112": "SALDO_INSUFICIENTE",
  "11111113": "OTP_INVALIDO",
  "11111114": "BANCO_NO_DISPONIBLE"
}

const referencia = () => `PR${String(randomInt(0, 1e9)).padStart(9, "0")}`

const approved = (): Ports.BankAnswer => ({
  estado: "LIQUIDADA",
  referencia_banco: referencia(),
  endtoend: null,
  motivo_rechazo: null
})

interface Row {
  readonly estado: Ports.BankAnswer["estado"]
  readonly motivo_rechazo: Resultado.MotivoRechazo | null
  readonly referencia_banco: string | null
  readonly confirma_en: Date | null
}

const answerOf = (row: Row): Ports.BankAnswer => ({
  estado: row.estado,
  referencia_banco: row.referencia_banco,
  endtoend: null,
  motivo_rechazo: row.motivo_rechazo
})

/** What a test debit with this code answers at once, and when a pending one confirms. */
export const decideDebit = (otp: string, now: Date): Row => {
  const motivo = RECHAZOS[otp]
  if (motivo !== undefined)
    return { estado: "RECHAZADA", motivo_rechazo: motivo, referencia_banco: null, confirma_en: null }
  const demora = DEMORAS_MS[otp]
  if (demora !== undefined)
    return {
      estado: "ACEPTADA",
      motivo_rechazo: null,
      referencia_banco: referencia(),
      confirma_en: new Date(now.getTime() + demora)
    }
  if (!/^\d{8}$/.test(otp))
    return { estado: "RECHAZADA", motivo_rechazo: "OTP_INVALIDO", referencia_banco: null, confirma_en: null }
  return { estado: "LIQUIDADA", motivo_rechazo: null, referencia_banco: referencia(), confirma_en: null }
}

export const SandboxBankLive = Layer.effect(
  SandboxBank,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const record = (operacionId: string, row: Row) =>
      Effect.gen(function* () {
        const rows = yield* sql<Row>`
          insert into banco_prueba (operacion_id, estado, motivo_rechazo, referencia_banco, confirma_en)
          values (${operacionId}, ${row.estado}, ${row.motivo_rechazo}, ${row.referencia_banco}, ${row.confirma_en})
          on conflict (operacion_id) do update set operacion_id = excluded.operacion_id
          returning estado, motivo_rechazo, referencia_banco, confirma_en`
        return answerOf(rows[0] ?? row)
      }).pipe(Effect.orDie)

    const query = (operacionId: string) =>
      Effect.gen(function* () {
        const at = yield* now
        // A pending debit whose time has come confirms here, once, whoever asks first.
        const rows = yield* sql<Row>`
          update banco_prueba set estado = case when confirma_en <= ${at} then 'LIQUIDADA' else estado end
          where operacion_id = ${operacionId}
          returning estado, motivo_rechazo, referencia_banco, confirma_en`
        const row = rows[0]
        if (row === undefined)
          return {
            estado: "RECHAZADA",
            referencia_banco: null,
            endtoend: null,
            motivo_rechazo: "DESCONOCIDO"
          } satisfies Ports.BankAnswer
        return answerOf(row)
      }).pipe(Effect.orDie)

    return {
      // The code request is simulated: nothing is sent, the payer types 12345678 or a magic code.
      requestCode: () =>
        Effect.succeed({ estado: "ACEPTADA", referencia_banco: null, endtoend: null, motivo_rechazo: null }),
      debit: (order) => Effect.flatMap(now, (at) => record(order.operacionId, decideDebit(order.otp, at))),
      credit: () => Effect.sync(approved),
      query,
      reverse: () => Effect.sync(approved),
      refund: () => Effect.sync(approved)
    }
  })
)
