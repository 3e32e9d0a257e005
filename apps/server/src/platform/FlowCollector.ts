/**
 * What the Flows endpoint (`flows/`) needs from the direct API: request the bank's code and
 * collect with it, as `/cobrar/token` and `/cobrar` do (same idempotency, caps and limits, same
 * records). A port: the direct API provides it (`direct/FlowCollectorLive.ts`, wired in
 * `Http.ts`), so neither feature imports the other.
 */
import type { Mode } from "@switch/api"
import type { Instrument, Money, Resultado } from "@switch/core"
import { Context, type Effect } from "effect"

export interface CollectOrder {
  readonly comercioId: string
  readonly mode: Mode
  /** Derived from the binding and the flow_token, so a repeated request is the same operation. */
  readonly idempotencyKey: string
  readonly monto: Money.Cents
  readonly concepto: string
  readonly cobrador: Instrument.Instrument
  readonly pagador: Instrument.Instrument
  readonly telefonoPagador: string
}

/** A refusal before the bank is asked (receive caps, request limits): the payer sees `motivo`. */
export interface Refused {
  readonly _tag: "Refused"
  readonly error: string
  readonly motivo: string
}

export interface Answered {
  readonly _tag: "Answered"
  readonly resultado: Resultado.Resultado
}

export class FlowCollector extends Context.Tag("@switch/server/FlowCollector")<
  FlowCollector,
  {
    readonly requestCode: (order: CollectOrder) => Effect.Effect<Answered | Refused>
    readonly collect: (order: CollectOrder & { readonly otp: string }) => Effect.Effect<Answered | Refused>
  }
>() {}
