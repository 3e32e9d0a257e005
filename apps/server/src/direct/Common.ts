/** What the direct-API steps share: body decoding, the clock, the merchant, the bank of the key's mode. */
import type { Caller } from "@switch/api"
import { Direct, Forbidden } from "@switch/api"
import { Instrument, type Ports, Validation } from "@switch/core"
import { Clock, Effect, Either, Option, type Schema } from "effect"
import { Banks } from "../platform/bank/Banks.js"
import { findMerchant, type MerchantRow } from "../platform/Merchants.js"
import type { OpRow } from "./Store.js"

/**
 * Why an operation found under a request's idempotency key cannot answer it: a key of the
 * other mode, or of another operation (a payout's result is never a collection's answer).
 */
export const keyConflict = (caller: Caller, row: OpRow, operacion: OpRow["operacion"]) =>
  row.mode !== caller.mode
    ? Option.some(
        new Direct.DirectConflict({
          error: "idempotency_key_en_uso",
          detail: "Este idempotency_key ya se usó con una llave del otro modo."
        })
      )
    : row.operacion !== operacion
      ? Option.some(
          new Direct.DirectConflict({
            error: "idempotency_key_en_uso",
            detail: "Este idempotency_key ya se usó en otra operación."
          })
        )
      : Option.none()

/** Decodes a direct-API body strictly; a failure is `400 {error: "VALIDATION", detail}`. */
export const decodeBody =
  <A, I>(schema: Schema.Schema<A, I, never>) =>
  (raw: unknown): Effect.Effect<A, Direct.DirectValidationError> =>
    Either.match(Validation.decode(schema)(raw), {
      onLeft: (detail) => Effect.fail(new Direct.DirectValidationError({ detail })),
      onRight: Effect.succeed
    })

/** The merchant behind a key (it exists: the key was just checked). */
export const merchantOf = (caller: Caller) =>
  Effect.flatMap(findMerchant(caller.comercioId), (m) =>
    Option.match(m, {
      onNone: () => Effect.dieMessage("merchant of a valid key not found"),
      onSome: (row: MerchantRow) => Effect.succeed(row)
    })
  )

/** The current time, from Effect's Clock (tests provide their own). */
export const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const bankFor = (mode: Caller["mode"]) => Effect.map(Banks, (banks) => banks.forMode(mode))

/** An Instrument as the bank port names a party. */
export const party = (i: Instrument.Instrument): Ports.Party => ({
  tipo: i.tipo,
  valor: i.valor,
  banco: i.banco,
  identificacion: i.identificacion,
  tipo_doc: i.tipo_doc,
  nombre: i.nombre
})

/** A party stored in `detalle`, read back for the next step or the reconciler. */
export const storedParty = (row: OpRow, name: string): Ports.Party => {
  const p = (row.detalle?.[name] ?? {}) as Partial<Ports.Party>
  return {
    tipo: p.tipo === "cuenta" ? "cuenta" : "telefono",
    valor: String(p.valor ?? ""),
    banco: String(p.banco ?? ""),
    identificacion: String(p.identificacion ?? ""),
    tipo_doc: p.tipo_doc,
    nombre: String(p.nombre ?? "")
  }
}

/** A suspended merchant moves no new money (SPEC: its open links cannot start being paid). */
export const requireActive = (merchant: MerchantRow) =>
  merchant.estado === "suspendido"
    ? Effect.fail(new Forbidden({ error: "comercio_suspendido", detail: "El comercio está suspendido." }))
    : Effect.void

/**
 * SPEC: receiving accounts are in the merchant's own name (its id or company tax id); a payout
 * leaves from the merchant's own account too. Checked where money moves (live mode); a test key
 * only ever reaches the sandbox.
 */
export const requireOwn = (
  caller: Caller,
  merchant: MerchantRow,
  field: "cobrador" | "ordenante",
  cuenta: Instrument.Instrument
) =>
  caller.mode === "live" && !Instrument.isOwnedBy(cuenta, merchant)
    ? Effect.fail(
        new Direct.DirectValidationError({
          detail: {
            fieldErrors: {
              [`${field}.identificacion`]: ["la cuenta debe estar a nombre del comercio (su RIF o cédula)"]
            }
          }
        })
      )
    : Effect.void
