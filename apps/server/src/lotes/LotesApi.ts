/** HTTP handlers of the lotes group: decode, call the service, answer. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect } from "effect"
import { parsePage } from "../http/Page.js"
import { json, jsonBody } from "../http/Respond.js"
import { LotesService } from "./LotesService.js"

export const LotesApiLive = HttpApiBuilder.group(SwitchApi, "lotes", (handlers) =>
  Effect.gen(function* () {
    const lotes = yield* LotesService
    return handlers
      .handleRaw("create", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const { status, lote } = yield* lotes.create(caller, yield* jsonBody)
          return json(lote, status)
        })
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const page = yield* parsePage(urlParams)
          return json(yield* lotes.list(caller, page))
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(lotes.get(caller, path.id), (r) => json(r)))
      )
      .handle("cancel", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(lotes.cancel(caller, path.id), (r) => json(r)))
      )
  })
)
