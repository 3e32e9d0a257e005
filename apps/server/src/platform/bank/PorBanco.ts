/**
 * The live bank as one port over several adapters, chosen by bank code (DESIGN §9): an order
 * goes to the adapter of the merchant's bank (the collector of a C2P, the payer of a credit),
 * any bank without its own adapter to the default one (the HTTP bank). A query, a reversal and
 * a refund name an earlier operation by our id; they go to the adapter that sent it, which each
 * adapter answers from its own journal, and otherwise to the default one.
 */
import type { Ports } from "@switch/core"
import { type Context, Effect } from "effect"
import type { LiveBank } from "./Banks.js"

type Gateway = Context.Tag.Service<LiveBank>

/** An adapter for some bank codes, and whether it sent a given operation. */
export interface Adaptador {
  readonly gateway: Gateway
  readonly envio: (operacionId: string) => Effect.Effect<boolean>
  /** Whether it carries this credit; one it cannot (another rail) goes to the default adapter. */
  readonly llevaCredito?: (order: Ports.CreditOrder) => boolean
}

export const porBanco = (adaptadores: ReadonlyMap<string, Adaptador>, porDefecto: Gateway): Gateway => {
  if (adaptadores.size === 0) return porDefecto
  const distintos = [...new Set(adaptadores.values())]
  const de = (banco: string): Gateway => adaptadores.get(banco)?.gateway ?? porDefecto
  /** The adapter that sent `operacionId`, else the default. */
  const quienEnvio = (operacionId: string): Effect.Effect<Gateway> =>
    Effect.gen(function* () {
      for (const a of distintos) if (yield* a.envio(operacionId)) return a.gateway
      return porDefecto
    })
  return {
    requestCode: (o) => de(o.cobrador.banco).requestCode(o),
    debit: (o) => de(o.cobrador.banco).debit(o),
    credit: (o) => {
      const a = adaptadores.get(o.ordenante.banco)
      return a === undefined || a.llevaCredito?.(o) === false ? porDefecto.credit(o) : a.gateway.credit(o)
    },
    query: (id) => Effect.flatMap(quienEnvio(id), (g) => g.query(id)),
    reverse: (o: Ports.ReversalOrder) => Effect.flatMap(quienEnvio(o.originalId), (g) => g.reverse(o)),
    refund: (o: Ports.ReversalOrder) => Effect.flatMap(quienEnvio(o.originalId), (g) => g.refund(o))
  }
}
