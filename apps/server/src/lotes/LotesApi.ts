import { HttpApiBuilder } from "@effect/platform"
import { SwitchApi } from "@switch/api"
import { Effect } from "effect"

export const LotesApiLive = HttpApiBuilder.group(SwitchApi, "lotes", (handlers) =>
  Effect.succeed(
    handlers
      .handleRaw("create", () => Effect.dieMessage("lotes pending"))
      .handle("list", () => Effect.dieMessage("lotes pending"))
      .handle("get", () => Effect.dieMessage("lotes pending"))
      .handle("cancel", () => Effect.dieMessage("lotes pending"))
  )
)
