/** HTTP handler of the logs group: the merchant's request log, newest first. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import { Effect } from "effect"
import { parseLogsPage, RequestLog } from "../http/RequestLog.js"

export const LogsApiLive = HttpApiBuilder.group(SwitchApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const log = yield* RequestLog
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        return yield* log.list(caller, yield* parseLogsPage(urlParams))
      })
    )
  })
)
