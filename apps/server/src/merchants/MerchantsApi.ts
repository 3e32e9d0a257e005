/** Handlers of the sign-up, keys and configuration groups. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, Forbidden, SwitchApi } from "@switch/api"
import type { RateLimit } from "@switch/core"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { clientIp, tooMany } from "../http/Auth.js"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { MerchantsService } from "./MerchantsService.js"

export const RegistroApiLive = HttpApiBuilder.group(SwitchApi, "registro", (handlers) =>
  Effect.gen(function* () {
    const merchants = yield* MerchantsService
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    const policy: RateLimit.Policy = {
      name: "registro",
      limit: settings.registrosPorHora,
      windowSeconds: 3600,
      scope: "ip",
      liveOnly: false
    }
    return handlers.handleRaw("registrar", () =>
      Effect.gen(function* () {
        const decision = yield* limiter.hit(policy, yield* clientIp)
        if (!decision.allowed) return yield* Effect.fail(tooMany(decision.retryAfterSeconds))
        return secretJson(yield* merchants.register(yield* jsonBody), 201)
      })
    )
  })
)

export const LlavesApiLive = HttpApiBuilder.group(SwitchApi, "llaves", (handlers) =>
  Effect.gen(function* () {
    const merchants = yield* MerchantsService
    return handlers
      .handle("list", () =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(merchants.listKeys(caller), json))
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return secretJson(yield* merchants.createKey(caller, payload), 201)
        })
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(merchants.revokeKey(caller, path.id), (r) => json(r))
        )
      )
      .handle("roll", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(merchants.rollKey(caller, path.id, payload), (r) => secretJson(r, 201))
        )
      )
  })
)

export const ConfigApiLive = HttpApiBuilder.group(SwitchApi, "config", (handlers) =>
  Effect.gen(function* () {
    const merchants = yield* MerchantsService
    return handlers
      .handle("get", () =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(merchants.config(caller), json))
      )
      .handle("put", () =>
        Effect.fail(
          new Forbidden({
            error: "prohibido",
            detail: "La configuración de dinero solo la edita el administrador."
          })
        )
      )
  })
)
