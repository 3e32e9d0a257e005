/** Handlers of the Flows setup group (live key) and of the public data-exchange endpoint. */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect } from "effect"
import { json, jsonBody, secretJson } from "../http/Respond.js"
import { FlowsService } from "./FlowsService.js"

export const FlowsSetupApiLive = HttpApiBuilder.group(SwitchApi, "flowsSetup", (handlers) =>
  Effect.gen(function* () {
    const flows = yield* FlowsService
    return handlers
      .handleRaw("config", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return secretJson(yield* flows.configure(caller, yield* jsonBody), 201)
        })
      )
      .handleRaw("definicion", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return json(yield* flows.setDefinition(caller, yield* jsonBody))
        })
      )
  })
)

export const FlowsApiLive = HttpApiBuilder.group(SwitchApi, "flows", (handlers) =>
  Effect.gen(function* () {
    const flows = yield* FlowsService
    return handlers.handleRaw("cobro", ({ path }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const raw = Buffer.from(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
        const reply = yield* flows.exchange(path.flowId, raw, request.headers)
        return "text" in reply
          ? HttpServerResponse.text(reply.text, { status: reply.status, contentType: "text/plain" })
          : json(reply.json, reply.status)
      })
    )
  })
)
