/** HTTP handlers of the eventos group: the list and the server-sent event stream. */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect, Stream } from "effect"
import { parsePage } from "../http/Page.js"
import { EventosService } from "./EventosService.js"

export const EventosApiLive = HttpApiBuilder.group(SwitchApi, "eventos", (handlers) =>
  Effect.gen(function* () {
    const eventos = yield* EventosService
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const page = yield* parsePage(urlParams)
          return HttpServerResponse.text(yield* eventos.list(caller, page), {
            contentType: "application/json"
          })
        })
      )
      .handle("stream", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = eventos.stream(caller, request.headers["last-event-id"]).pipe(Stream.encodeText)
          return HttpServerResponse.stream(body, {
            contentType: "text/event-stream",
            headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
          })
        })
      )
  })
)
