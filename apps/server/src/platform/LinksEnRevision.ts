/**
 * What the operators' console asks of the payment page's side about a link in `revision` (its
 * payment attempt unclear past the window, the bank unable to say): ask the bank now about the
 * attempt, or apply an operator's decision to it. The checkout (checkout/EnRevision.ts) provides
 * it with the same `applyAnswer` the reconciler uses, so a decision moves the link exactly as a
 * bank's answer would (LIQUIDADA pays it: `link.pagado` and the settlement; RECHAZADA reopens it);
 * the composition (Http.ts) hands it to the console, which imports no other feature.
 */
import type { Ports } from "@switch/core"
import { Context, type Effect, type Option } from "effect"

export type Resultado = "pagado" | "reabierto" | "sin_cambio"

export class LinksEnRevision extends Context.Tag("@switch/server/LinksEnRevision")<
  LinksEnRevision,
  {
    /** The link's open attempt id, when the link is in `revision`. */
    readonly intento: (linkId: string) => Effect.Effect<Option.Option<string>>
    /** Asks the bank about the link's attempt and applies a final answer; the answer as given. */
    readonly consultar: (
      linkId: string
    ) => Effect.Effect<{ readonly answer: Ports.BankAnswer; readonly resultado: Resultado }>
    /** Applies a person's decision (`LIQUIDADA` with the reference, or `RECHAZADA`). */
    readonly aplicar: (linkId: string, answer: Ports.BankAnswer) => Effect.Effect<Resultado>
  }
>() {}
