/**
 * What the operators' console asks of the card pilot about a charge missing from the processor's
 * nightly close (`faltante`): ask the processor again, mark it credited with the credit's
 * reference, or close it with a note. The checkout (checkout/TarjetaService.ts) provides it with
 * the same CardCharge path every processor fact takes, so a decision settles the merchant exactly
 * as the close would; the composition (Http.ts) hands it to the console, which imports no feature.
 */
import type { CardCharge } from "@switch/core"
import { Context, type Effect } from "effect"

export class CargosTarjeta extends Context.Tag("@switch/server/CargosTarjeta")<
  CargosTarjeta,
  {
    /** Asks the processor about the charge and re-reads its day's close; the state after. */
    readonly consultar: (
      cargoId: string
    ) => Effect.Effect<{ readonly estado: CardCharge.CardChargeState; readonly procesador: string } | null>
    /** Applies an operator's decision; null when the charge is unknown, else its state after (unchanged when refused). */
    readonly decidir: (
      cargoId: string,
      event: CardCharge.CardChargeEvent
    ) => Effect.Effect<{ readonly estado: CardCharge.CardChargeState; readonly aplicado: boolean } | null>
  }
>() {}
