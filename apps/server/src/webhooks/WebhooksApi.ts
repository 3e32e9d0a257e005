/** HTTP handlers of the webhooks group: decode, call the service, answer. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect } from "effect"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { WebhooksService } from "./WebhooksService.js"

export const WebhooksApiLive = HttpApiBuilder.group(SwitchApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* WebhooksService
    return handlers
      .handle("list", () =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(webhooks.list(caller), (r) => json(r)))
      )
      .handleRaw("create", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return secretJson(yield* webhooks.create(caller, yield* jsonBody), 201)
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(webhooks.get(caller, path.id), (r) => json(r)))
      )
      .handleRaw("update", ({ path }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return json(yield* webhooks.update(caller, path.id, yield* jsonBody))
        })
      )
      .handle("remove", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(webhooks.remove(caller, path.id), (r) => json(r))
        )
      )
      .handle("deliveries", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(webhooks.deliveries(caller, path.id), (r) => json(r))
        )
      )
      .handle("probar", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(webhooks.probar(caller, path.id), (r) => json(r))
        )
      )
      .handle("reenviar", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(webhooks.reenviar(caller, path.id), (r) => json(r))
        )
      )
  })
)
