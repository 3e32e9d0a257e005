/**
 * Which bank serves a request: test-mode operations go to the sandbox bank (simulated, magic
 * codes, never moves money), live ones to the live bank adapter (SWITCH_BANK_URL, by default
 * the bank simulator). Both implement @switch/core's BankGateway port.
 */
import type { Mode } from "@switch/api"
import type { Ports } from "@switch/core"
import { Context, Effect, Layer } from "effect"

type Gateway = Context.Tag.Service<Ports.BankGateway>

/** The simulated bank behind test links and test keys. */
export class SandboxBank extends Context.Tag("@switch/server/SandboxBank")<SandboxBank, Gateway>() {}

/** The bank behind live links and live keys. */
export class LiveBank extends Context.Tag("@switch/server/LiveBank")<LiveBank, Gateway>() {}

export class Banks extends Context.Tag("@switch/server/Banks")<
  Banks,
  { readonly forMode: (mode: Mode) => Gateway }
>() {}

export const BanksLive = Layer.effect(
  Banks,
  Effect.gen(function* () {
    const sandbox = yield* SandboxBank
    const live = yield* LiveBank
    return { forMode: (mode) => (mode === "test" ? sandbox : live) }
  })
)
