/** HTTP handlers of the links group: decode, call the service, answer. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect } from "effect"
import { json, jsonBody } from "../http/Respond.js"
import { parseLinkFilters } from "./LinkFilters.js"
import { LinksService } from "./LinksService.js"

export const LinksApiLive = HttpApiBuilder.group(SwitchApi, "links", (handlers) =>
  Effect.gen(function* () {
    const links = yield* LinksService
    return handlers
      .handleRaw("create", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const { status, link } = yield* links.create(caller, yield* jsonBody)
          return json(link, status)
        })
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const filters = yield* parseLinkFilters(urlParams)
          return json(yield* links.list(caller, filters))
        })
      )
      .handle("total", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const filters = yield* parseLinkFilters(urlParams)
          return json({ total: yield* links.total(caller, filters) })
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(links.get(caller, path.id), json))
      )
      .handle("cancel", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => Effect.map(links.cancel(caller, path.id), (r) => json(r)))
      )
      .handle("simulate", ({ path, payload }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return json(yield* links.simulate(caller, path.id, payload))
        })
      )
  })
)
