/**
 * The states a payment link can be in (SPEC "Payment link states"), as a value: what
 * `links.list({ estado })` filters on and what a link's `estado` holds. A plain copy of
 * @switch/core's `LinkMachine.LinkStates`, so this entry loads nothing at runtime;
 * `LinkStates.test.ts` keeps the two equal.
 */
import type { LinkEstado } from "./Types.js"

/** Every link state, in the order a link moves through them. */
export const LinkStates = [
  "pendiente",
  "cobrando",
  "procesando",
  "revision",
  "pagado",
  "expirado",
  "cancelado"
] as const satisfies ReadonlyArray<LinkEstado>
