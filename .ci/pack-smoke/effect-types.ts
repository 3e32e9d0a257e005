import { Money, SwitchClient } from "@switch/sdk/effect"
import { Effect, Redacted } from "effect"

export const program = Effect.gen(function* () {
  const sw = yield* SwitchClient
  yield* sw.links.create({ payload: { monto: Money.Cents(15050), concepto: "Pedido", moneda: "VES" } })
  return yield* sw.links.list({ urlParams: { estado: "pagado" } })
}).pipe(Effect.provide(SwitchClient.layerFetch({ key: Redacted.make("demo:sk_test_smoke") })))
