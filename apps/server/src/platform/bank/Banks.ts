/**
 * Which bank serves a request: test-mode operations go to the sandbox bank (simulated, magic
 * codes, never moves money), live ones to the live bank adapter (SWITCH_BANK_URL, by default
 * the bank simulator). Both implement @switch/core's BankGateway port.
 */
import type { Mode } from "@switch/api"
import type { Ports } from "@switch/core"
import { Context, Effect, Layer } from "effect"
import * as Metrics from "../Metrics.js"

type Gateway = Context.Tag.Service<Ports.BankGateway>

/** The simulated bank behind test links and test keys. */
export class SandboxBank extends Context.Tag("@switch/server/SandboxBank")<SandboxBank, Gateway>() {}

/** The bank behind live links and live keys. */
export class LiveBank extends Context.Tag("@switch/server/LiveBank")<LiveBank, Gateway>() {}

export class Banks extends Context.Tag("@switch/server/Banks")<
  Banks,
  { readonly forMode: (mode: Mode) => Gateway }
>() {}

/** `gateway` with each call counted by its answer (platform/Metrics.ts). */
export const counted = (mode: Mode, gateway: Gateway): Gateway => {
  const count =
    <A>(operation: string, call: (order: A) => Effect.Effect<Ports.BankAnswer>) =>
    (order: A) =>
      Effect.tap(call(order), (answer) =>
        Effect.sync(() => Metrics.bankCalls.inc({ mode, operation, state: answer.estado }))
      )
  return {
    requestCode: count("solicitar_clave", gateway.requestCode),
    debit: count("debito", gateway.debit),
    credit: count("credito", gateway.credit),
    query: count("consulta", gateway.query),
    reverse: count("reverso", gateway.reverse),
    refund: count("reintegro", gateway.refund)
  }
}

export const BanksLive = Layer.effect(
  Banks,
  Effect.gen(function* () {
    const sandbox = yield* SandboxBank
    const live = yield* LiveBank
    const metered = { test: counted("test", sandbox), live: counted("live", live) }
    return { forMode: (mode) => metered[mode] }
  })
)
