/** HTTP handlers of the eventos group: the list, the server-sent event stream and the portal's changes. */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { CurrentCaller, SwitchApi, ValidationError, Webhooks } from "@switch/api"
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
          const evento = urlParams.evento === undefined || urlParams.evento === "" ? null : urlParams.evento
          if (evento !== null && !(Webhooks.EventNames as ReadonlyArray<string>).includes(evento))
            return yield* Effect.fail(
              new ValidationError({
                parametro: "evento",
                detail: `evento debe ser uno de: ${Webhooks.EventNames.join(", ")}`
              })
            )
          return HttpServerResponse.text(yield* eventos.list(caller, page, evento), {
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
      .handle("cambios", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = yield* eventos.cambios(caller, request.headers["last-event-id"])
          return HttpServerResponse.stream(body.pipe(Stream.encodeText), {
            contentType: "text/event-stream",
            headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
          })
        })
      )
  })
)
