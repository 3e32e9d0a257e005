/**
 * The time the checkout and the sandbox bank read. By default Effect's Clock; tests provide
 * `CheckoutClock` around the server layer to stand at 23:50 Caracas or to skip the sandbox's
 * 30-second wait without sleeping. In platform/ because the checkout, the direct API, Flows and
 * the sandbox bank all read it.
 */
import { Clock, Context, Effect, Option } from "effect"

export class CheckoutClock extends Context.Tag("@switch/server/CheckoutClock")<
  CheckoutClock,
  { readonly now: Effect.Effect<Date> }
>() {}

const systemNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The clock in the layer's context, else Effect's Clock. Read once when a layer is built. */
export const resolveNow = Effect.map(Effect.serviceOption(CheckoutClock), (clock) =>
  Option.match(clock, { onNone: () => systemNow, onSome: (c) => c.now })
)
