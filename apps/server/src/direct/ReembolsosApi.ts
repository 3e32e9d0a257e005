/** HTTP handlers of the portal's refunds (Reembolsos.ts): a portal session only, a key is `401`. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi, Unauthorized } from "@switch/api"
import { Effect } from "effect"
import { json } from "../http/Respond.js"
import { listar, reembolsar } from "./Reembolsos.js"

const sessionCaller = Effect.flatMap(CurrentCaller, (caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)
)

export const ReembolsosApiLive = HttpApiBuilder.group(SwitchApi, "reembolsos", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ({ path }) =>
        Effect.flatMap(sessionCaller, (caller) => Effect.map(listar(caller, path.id), (r) => json(r)))
      )
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(sessionCaller, (caller) =>
          Effect.map(reembolsar(caller, path.id, payload), (r) => json(r, 201))
        )
      )
  )
)
